// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A function target (no function boundaries): tensor arguments are read through
// bufferization.to_buffer, the written tensor gets a private copy, the result goes back
// through bufferization.to_tensor (upstream's transform-ops.mlir, first case).
// CHECK-LABEL: func.func @test_function
// CHECK-SAME:  (%[[A:.*]]: tensor<?xf32>, %[[V:.*]]: vector<4xf32>) -> tensor<?xf32>
// CHECK:       %[[M:.*]] = bufferization.to_buffer %[[A]]
// CHECK:       %[[D:.*]] = memref.dim %[[M]]
// CHECK:       %[[ALLOC:.*]] = memref.alloc(%[[D]])
// CHECK:       memref.copy %[[M]], %[[ALLOC]]
// CHECK:       vector.transfer_write %[[V]], %[[ALLOC]]
// CHECK:       %[[R:.*]] = bufferization.to_tensor %[[ALLOC]]
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.bufferization.one_shot_bufferize %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @test_function(%A : tensor<?xf32>, %v : vector<4xf32>) -> (tensor<?xf32>) {
    %c0 = arith.constant 0 : index
    %0 = vector.transfer_write %v, %A[%c0] : vector<4xf32>, tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

// -----

// memcpy_op = "linalg.copy".
// CHECK-LABEL: func.func @linalg_copy
// CHECK-NOT:   memref.copy
// CHECK:       %[[ALLOC:.*]] = memref.alloc
// CHECK:       linalg.copy ins(%{{.*}} : memref<?xf32>) outs(%[[ALLOC]] : memref<?xf32>)
// CHECK:       vector.transfer_write %{{.*}}, %[[ALLOC]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.bufferization.one_shot_bufferize %0 <{memcpy_op = "linalg.copy"}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @linalg_copy(%A : tensor<?xf32>, %v : vector<4xf32>) -> (tensor<?xf32>) {
    %c0 = arith.constant 0 : index
    %0 = vector.transfer_write %v, %A[%c0] : vector<4xf32>, tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

// -----

// test_analysis_only: the decisions are annotated, nothing is bufferized; the read-only
// argument cannot be written in place.
// CHECK-LABEL: func.func @test_function_analysis
// CHECK:       vector.transfer_write
// CHECK-SAME:  {__inplace_operands_attr__ = ["none", "false", "none"]}
// CHECK-SAME:  tensor<?xf32>
// CHECK-NOT:   memref
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.bufferization.one_shot_bufferize %0 <{test_analysis_only = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @test_function_analysis(%A : tensor<?xf32>, %v : vector<4xf32>) -> (tensor<?xf32>) {
    %c0 = arith.constant 0 : index
    %0 = vector.transfer_write %v, %A[%c0] : vector<4xf32>, tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

// -----

// An op on tensors bufferization does not know: an error at the op, then the transform
// op fails (allow_unknown_ops would keep it behind to_tensor/to_buffer).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{bufferization failed}}
    %1 = transform.bufferization.one_shot_bufferize %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @test_unknown_op_failure(%t: tensor<4x8xf32>) -> tensor<4x8xf32> {
    // expected-error @below {{op was not bufferized}}
    %0 = arith.addf %t, %t : tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}

// -----

// allow_unknown_ops: the unknown op stays on tensors, its operands cross the boundary
// through to_tensor; the fill after it writes a new buffer (an unknown op's result is
// not writable).
// CHECK-LABEL: func.func @allow_unknown
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[A:.*]] : memref<4x8xf32>)
// CHECK:       bufferization.to_tensor %{{.*}} : memref<4x8xf32> to tensor<4x8xf32>
// CHECK:       arith.addf %{{.*}}, %{{.*}} : tensor<4x8xf32>
// CHECK:       %[[N:.*]] = memref.alloc() {{.*}}: memref<4x8xf32>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[N]] : memref<4x8xf32>)
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.bufferization.one_shot_bufferize %0 <{allow_unknown_ops = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @allow_unknown(%x: f32) -> tensor<4x8xf32> {
    %e = tensor.empty() : tensor<4x8xf32>
    %t = linalg.fill ins(%x : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %s = arith.addf %t, %t : tensor<4x8xf32>
    %r = linalg.fill ins(%x : f32) outs(%s : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
}

// -----

// The module as target (consumed): with function boundaries and the identity layout,
// the matmul writes its init argument in place and the function returns that argument,
// as upstream (no allocation, no copy).
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  (%[[A:.*]]: memref<12x9xf32>, %[[B:.*]]: memref<9x6xf32>, %[[C:.*]]: memref<12x6xf32>) -> memref<12x6xf32>
// CHECK-NOT:   memref.alloc
// CHECK:       linalg.matmul ins(%[[A]], %[[B]] : memref<12x9xf32>, memref<9x6xf32>) outs(%[[C]] : memref<12x6xf32>)
// CHECK-NOT:   memref.copy
// CHECK:       return %[[C]] : memref<12x6xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    %0 = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %arg1
      <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @matmul(%A: tensor<12x9xf32>, %B: tensor<9x6xf32>, %C: tensor<12x6xf32>) -> tensor<12x6xf32> {
    %D = linalg.matmul ins(%A, %B: tensor<12x9xf32>, tensor<9x6xf32>) outs(%C: tensor<12x6xf32>) -> tensor<12x6xf32>
    return %D : tensor<12x6xf32>
  }
}

// -----

// Without layout{...}: fully dynamic argument layouts, inferred result layouts (the
// argument and the view are returned with theirs, a new buffer with the identity layout).
// CHECK-LABEL: func.func @infer
// CHECK-SAME:  (%[[C:[^:]*]]: memref<12x6xf32, strided<[?, ?], offset: ?>>, %{{.*}}: f32)
// CHECK-SAME:  -> (memref<12x6xf32, strided<[?, ?], offset: ?>>, memref<4x6xf32, strided<[?, ?], offset: ?>>, memref<12x6xf32>)
// CHECK:       %[[S:.*]] = memref.subview %[[C]][0, 0] [4, 6] [1, 1]
// CHECK:       %[[E:.*]] = memref.alloc() {{.*}}: memref<12x6xf32>
// CHECK-NOT:   memref.copy
// CHECK:       return %[[C]], %[[S]], %[[E]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    %0 = transform.bufferization.one_shot_bufferize %arg1 <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @infer(%C: tensor<12x6xf32>, %x: f32) -> (tensor<12x6xf32>, tensor<4x6xf32>, tensor<12x6xf32>) {
    %D = linalg.fill ins(%x : f32) outs(%C : tensor<12x6xf32>) -> tensor<12x6xf32>
    %s = tensor.extract_slice %D[0, 0] [4, 6] [1, 1] : tensor<12x6xf32> to tensor<4x6xf32>
    %e = tensor.empty() : tensor<12x6xf32>
    %f = linalg.fill ins(%x : f32) outs(%e : tensor<12x6xf32>) -> tensor<12x6xf32>
    return %D, %s, %f : tensor<12x6xf32>, tensor<4x6xf32>, tensor<12x6xf32>
  }
}

// -----

// FullyDynamicLayoutMap: every boundary buffer has the fully dynamic layout (a new
// buffer is cast to it).
// CHECK-LABEL: func.func @fully_dynamic
// CHECK-SAME:  (%[[C:[^:]*]]: memref<12x6xf32, strided<[?, ?], offset: ?>>, %{{.*}}: f32)
// CHECK-SAME:  -> (memref<12x6xf32, strided<[?, ?], offset: ?>>, memref<12x6xf32, strided<[?, ?], offset: ?>>)
// CHECK:       %[[E:.*]] = memref.alloc() {{.*}}: memref<12x6xf32>
// CHECK:       %[[CAST:.*]] = memref.cast %[[E]] : memref<12x6xf32> to memref<12x6xf32, strided<[?, ?], offset: ?>>
// CHECK:       return %[[C]], %[[CAST]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    %0 = transform.bufferization.one_shot_bufferize layout{FullyDynamicLayoutMap} %arg1 <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @fully_dynamic(%C: tensor<12x6xf32>, %x: f32) -> (tensor<12x6xf32>, tensor<12x6xf32>) {
    %D = linalg.fill ins(%x : f32) outs(%C : tensor<12x6xf32>) -> tensor<12x6xf32>
    %e = tensor.empty() : tensor<12x6xf32>
    %f = linalg.fill ins(%x : f32) outs(%e : tensor<12x6xf32>) -> tensor<12x6xf32>
    return %D, %f : tensor<12x6xf32>, tensor<12x6xf32>
  }
}

// -----

// A tiled matmul in an scf.forall: the tile of the output is written in place through
// the shared output (no allocation, no write-back copy), the result handle is the module
// and can be matched again.
// CHECK-LABEL: func.func @forall
// CHECK-SAME:  (%[[A:.*]]: memref<16x8xf32>, %[[B:.*]]: memref<8x12xf32>, %[[C:.*]]: memref<16x12xf32>)
// CHECK-NOT:   memref.alloc
// CHECK:       scf.forall (%{{.*}}, %{{.*}}) in (4, 3) {
// CHECK:         %[[SC:.*]] = memref.subview %[[C]]
// CHECK:         linalg.matmul {{.*}} outs(%[[SC]] : memref<4x4xf32, strided<[12, 1], offset: ?>>)
// CHECK-NOT:     memref.copy
// CHECK:       } {rebufferized}
// CHECK:       return %[[C]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %m = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match ops{["scf.forall"]} in %m : (!transform.any_op) -> !transform.any_op
    transform.annotate %f "rebufferized" : !transform.any_op
    transform.yield
  }
  func.func @forall(%A: tensor<16x8xf32>, %B: tensor<8x12xf32>, %C: tensor<16x12xf32>) -> tensor<16x12xf32> {
    %r = scf.forall (%i, %j) in (4, 3) shared_outs(%o = %C) -> (tensor<16x12xf32>) {
      %oi = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
      %oj = affine.apply affine_map<(d0) -> (d0 * 4)>(%j)
      %a = tensor.extract_slice %A[%oi, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
      %b = tensor.extract_slice %B[0, %oj] [8, 4] [1, 1] : tensor<8x12xf32> to tensor<8x4xf32>
      %c = tensor.extract_slice %o[%oi, %oj] [4, 4] [1, 1] : tensor<16x12xf32> to tensor<4x4xf32>
      %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %mm into %o[%oi, %oj] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<16x12xf32>
      }
    }
    return %r : tensor<16x12xf32>
  }
}

// -----

// Upstream's bufferization of the same forall writes the tile back with a memref.copy
// between two identical subviews; CSE merges the subviews and canonicalization erases the
// self-copy (in this order: canonicalization alone sees two different subviews).
// CHECK-LABEL: func.func @write_back
// CHECK:       scf.forall
// CHECK:         %[[S:.*]] = memref.subview %{{.*}}[%{{.*}}, %{{.*}}] [4, 4] [1, 1]
// CHECK-NOT:     memref.subview
// CHECK:         linalg.fill {{.*}} outs(%[[S]]
// CHECK-NOT:     memref.copy
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.apply_patterns to %f { transform.apply_patterns.canonicalization } : !transform.any_op
    transform.yield
  }
  func.func @write_back(%C: memref<16x12xf32>, %x: f32) {
    scf.forall (%i, %j) in (4, 3) {
      %oi = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
      %oj = affine.apply affine_map<(d0) -> (d0 * 4)>(%j)
      %s1 = memref.subview %C[%oi, %oj] [4, 4] [1, 1] : memref<16x12xf32> to memref<4x4xf32, strided<[12, 1], offset: ?>>
      linalg.fill ins(%x : f32) outs(%s1 : memref<4x4xf32, strided<[12, 1], offset: ?>>)
      %s2 = memref.subview %C[%oi, %oj] [4, 4] [1, 1] : memref<16x12xf32> to memref<4x4xf32, strided<[12, 1], offset: ?>>
      memref.copy %s1, %s2 : memref<4x4xf32, strided<[12, 1], offset: ?>> to memref<4x4xf32, strided<[12, 1], offset: ?>>
    }
    return
  }
}

// -----

// Handles to ops nested in the consumed module are invalid afterwards.
// expected-note @below {{ancestor payload op}}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-note @below {{handle to invalidated ops}}
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0 and invalidates all handles to payload IR entities associated with this operand and entities nested in them}}
    %m = transform.bufferization.one_shot_bufferize %root <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{op uses a handle invalidated by a previously executed transform op}}
    transform.annotate %mm "stale" : !transform.any_op
    transform.yield
  }
  func.func @matmul(%A: tensor<4x4xf32>, %B: tensor<4x4xf32>, %C: tensor<4x4xf32>) -> tensor<4x4xf32> {
    // expected-note @below {{nested payload op}}
    %D = linalg.matmul ins(%A, %B: tensor<4x4xf32>, tensor<4x4xf32>) outs(%C: tensor<4x4xf32>) -> tensor<4x4xf32>
    return %D : tensor<4x4xf32>
  }
}

// -----

// Function boundaries need the module as target.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected module target}}
    %1 = transform.bufferization.one_shot_bufferize %0 <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
    return %t : tensor<4xf32>
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.fill"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected module or function target}}
    %1 = transform.bufferization.one_shot_bufferize %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @f(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
    %0 = linalg.fill ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.bufferization.one_shot_bufferize' op 'print_conflicts' requires 'test_analysis_only'}}
    %1 = transform.bufferization.one_shot_bufferize %0 <{print_conflicts = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.bufferization.one_shot_bufferize' op 'dump_alias_sets' requires 'test_analysis_only'}}
    %1 = transform.bufferization.one_shot_bufferize %0 <{dump_alias_sets = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.bufferization.one_shot_bufferize' op unsupported memcpy op}}
    %1 = transform.bufferization.one_shot_bufferize %0 <{memcpy_op = "memref.dma"}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
