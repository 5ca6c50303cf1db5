// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The tensor.empty filled and then inserted becomes the slice it is inserted into
// (upstream's transform-ops.mlir case); the tensor.empty stays for its other users.
// CHECK-LABEL: func.func @empty_tensor_elimination
// CHECK-SAME:  (%[[T:.*]]: tensor<10xf32>, %[[F:.*]]: f32)
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[T]][1] [5] [1] : tensor<10xf32> to tensor<5xf32>
// CHECK:       %[[FILL:.*]] = linalg.fill ins(%[[F]] : f32) outs(%[[S]] : tensor<5xf32>)
// CHECK:       tensor.insert_slice %[[FILL]] into %[[T]][1] [5] [1]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.bufferization.eliminate_empty_tensors %0 : !transform.any_op
    transform.yield
  }
  func.func @empty_tensor_elimination(%t: tensor<10xf32>, %f: f32) -> tensor<10xf32> {
    %0 = tensor.empty() : tensor<5xf32>
    %1 = linalg.fill ins(%f : f32) outs(%0 : tensor<5xf32>) -> tensor<5xf32>
    %2 = tensor.insert_slice %1 into %t [1][5][1] : tensor<5xf32> into tensor<10xf32>
    return %2 : tensor<10xf32>
  }
}

// -----

// Inside an scf.forall, the tile is computed straight into the slice of the shared
// output it is inserted into.
// CHECK-LABEL: func.func @forall
// CHECK:       scf.forall (%[[I:.*]]) in (4) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK:         %[[OFF:.*]] = affine.apply
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[O]][%[[OFF]], 0] [4, 64] [1, 1]
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<4x64xf32>)
// CHECK:         tensor.parallel_insert_slice %[[FILL]] into %[[O]][%[[OFF]], 0] [4, 64] [1, 1]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.bufferization.eliminate_empty_tensors %0 : !transform.any_op
    transform.yield
  }
  func.func @forall(%t: tensor<16x64xf32>, %f: f32) -> tensor<16x64xf32> {
    %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<16x64xf32>) {
      %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
      %e = tensor.empty() : tensor<4x64xf32>
      %1 = linalg.fill ins(%f : f32) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %1 into %o[%off, 0] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<16x64xf32>
      }
    }
    return %r : tensor<16x64xf32>
  }
}

// -----

// Then One-Shot Bufferize (module, function boundaries) computes every tile in place in
// the argument: no buffer is allocated, nothing is copied.
// CHECK-LABEL: func.func @forall_bufferized
// CHECK-SAME:  (%[[T:.*]]: memref<16x64xf32>
// CHECK-NOT:   memref.alloc
// CHECK:       scf.forall
// CHECK:         %[[V:.*]] = memref.subview %[[T]]
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<4x64xf32, strided<[64, 1], offset: ?>>)
// CHECK-NOT:     memref.copy
// CHECK:       return %[[T]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    transform.bufferization.eliminate_empty_tensors %arg1 : !transform.any_op
    %b = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %arg1 <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @forall_bufferized(%t: tensor<16x64xf32>, %f: f32) -> tensor<16x64xf32> {
    %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<16x64xf32>) {
      %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
      %e = tensor.empty() : tensor<4x64xf32>
      %1 = linalg.fill ins(%f : f32) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %1 into %o[%off, 0] [4, 64] [1, 1] : tensor<4x64xf32> into tensor<16x64xf32>
      }
    }
    return %r : tensor<16x64xf32>
  }
}

// -----

// Rank-reducing insertions extract the same rank-reduced slice; only the use on the
// inserted chain is replaced, another user keeps the tensor.empty.
// CHECK-LABEL: func.func @rank_reduced_two_uses
// CHECK-SAME:  (%[[T:.*]]: tensor<10x10xf32>, %[[F:.*]]: f32, %[[I:.*]]: index)
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[T]][%[[I]], 2] [1, 5] [1, 1] : tensor<10x10xf32> to tensor<5xf32>
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<5xf32>
// CHECK:       %[[A:.*]] = linalg.fill ins(%[[F]] : f32) outs(%[[S]] : tensor<5xf32>)
// CHECK:       %[[B:.*]] = linalg.fill ins(%[[F]] : f32) outs(%[[E]] : tensor<5xf32>)
// CHECK:       tensor.insert_slice %[[A]] into %[[T]][%[[I]], 2] [1, 5] [1, 1]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.bufferization.eliminate_empty_tensors %0 : !transform.any_op
    transform.yield
  }
  func.func @rank_reduced_two_uses(%t: tensor<10x10xf32>, %f: f32, %i: index) -> (tensor<10x10xf32>, tensor<5xf32>) {
    %0 = tensor.empty() : tensor<5xf32>
    %1 = linalg.fill ins(%f : f32) outs(%0 : tensor<5xf32>) -> tensor<5xf32>
    %3 = linalg.fill ins(%f : f32) outs(%0 : tensor<5xf32>) -> tensor<5xf32>
    %2 = tensor.insert_slice %1 into %t [%i, 2][1, 5][1, 1] : tensor<5xf32> into tensor<10x10xf32>
    return %2, %3 : tensor<10x10xf32>, tensor<5xf32>
  }
}

// -----

// The destination is computed after the tensor.empty's user: its (pure) computation
// moves before the user, then the slice is taken there.
// CHECK-LABEL: func.func @move_definitions
// CHECK:       %[[T2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<10xf32>)
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[T2]][1] [5] [1]
// CHECK:       %[[A:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<5xf32>)
// CHECK:       tensor.insert_slice %[[A]] into %[[T2]][1] [5] [1]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.bufferization.eliminate_empty_tensors %0 : !transform.any_op
    transform.yield
  }
  func.func @move_definitions(%t: tensor<10xf32>, %f: f32) -> tensor<10xf32> {
    %0 = tensor.empty() : tensor<5xf32>
    %1 = linalg.fill ins(%f : f32) outs(%0 : tensor<5xf32>) -> tensor<5xf32>
    %t2 = linalg.fill ins(%f : f32) outs(%t : tensor<10xf32>) -> tensor<10xf32>
    %2 = tensor.insert_slice %1 into %t2 [1][5][1] : tensor<5xf32> into tensor<10xf32>
    return %2 : tensor<10xf32>
  }
}

// -----

// Through a reshape the chain is not followed (the types differ), and a size computed
// from the inserted value itself cannot be moved before its producer: nothing changes.
// CHECK-LABEL: func.func @not_eliminated
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<4x5xf32>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x5xf32>)
// CHECK:       %[[E2:.*]] = tensor.empty() : tensor<20xf32>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<20xf32>)
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.bufferization.eliminate_empty_tensors %0 : !transform.any_op
    transform.yield
  }
  func.func @not_eliminated(%t: tensor<40xf32>, %f: f32, %i: index) -> (tensor<40xf32>, tensor<40xf32>) {
    %0 = tensor.empty() : tensor<4x5xf32>
    %1 = linalg.fill ins(%f : f32) outs(%0 : tensor<4x5xf32>) -> tensor<4x5xf32>
    %c = tensor.collapse_shape %1 [[0, 1]] : tensor<4x5xf32> into tensor<20xf32>
    %2 = tensor.insert_slice %c into %t [1][20][1] : tensor<20xf32> into tensor<40xf32>
    %3 = tensor.empty() : tensor<20xf32>
    %4 = linalg.fill ins(%f : f32) outs(%3 : tensor<20xf32>) -> tensor<20xf32>
    %5 = tensor.cast %4 : tensor<20xf32> to tensor<?xf32>
    %n = tensor.dim %5, %i : tensor<?xf32>
    %6 = tensor.insert_slice %5 into %t [1][%n][1] : tensor<?xf32> into tensor<40xf32>
    return %2, %6 : tensor<40xf32>, tensor<40xf32>
  }
}

// -----

// structured.eliminate_empty_tensors: an all-parallel op whose input comes from a
// tensor.empty computation computes in place over it (the input becomes the init it
// shares type and indexing map with); the tensor.empty becomes the unused input.
// CHECK-LABEL: func.func @linalg_anchored
// CHECK-SAME:  (%[[A:.*]]: tensor<5xf32>, %[[B:.*]]: tensor<5xf32>, %[[X:.*]]: f32)
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<5xf32>
// CHECK:       %[[F:.*]] = linalg.fill ins(%[[X]] : f32) outs(%[[A]] : tensor<5xf32>)
// CHECK:       linalg.generic {{.*}} ins(%[[E]], %[[B]] : tensor<5xf32>, tensor<5xf32>) outs(%[[F]] : tensor<5xf32>)
// CHECK:       ^bb0(%[[IN:.*]]: f32, %[[IN2:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK:         arith.addf %[[OUT]], %[[IN2]] : f32
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.structured.eliminate_empty_tensors %0 : !transform.any_op
    transform.yield
  }
  func.func @linalg_anchored(%a: tensor<5xf32>, %b: tensor<5xf32>, %x: f32) -> tensor<5xf32> {
    %e = tensor.empty() : tensor<5xf32>
    %f = linalg.fill ins(%x : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%f, %b : tensor<5xf32>, tensor<5xf32>) outs(%a : tensor<5xf32>) {
    ^bb0(%i: f32, %j: f32, %o: f32):
      %s = arith.addf %i, %j : f32
      linalg.yield %s : f32
    } -> tensor<5xf32>
    return %g : tensor<5xf32>
  }
}

// -----

// The init is read by the payload: no input can take its place.
// CHECK-LABEL: func.func @init_read
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<5xf32>) outs(%{{.*}} : tensor<5xf32>)
// CHECK-NEXT:  ^bb0(%[[I:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:    arith.addf %[[I]], %[[O]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.structured.eliminate_empty_tensors %0 : !transform.any_op
    transform.yield
  }
  func.func @init_read(%a: tensor<5xf32>, %x: f32) -> tensor<5xf32> {
    %e = tensor.empty() : tensor<5xf32>
    %f = linalg.fill ins(%x : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%f : tensor<5xf32>) outs(%a : tensor<5xf32>) {
    ^bb0(%i: f32, %o: f32):
      %s = arith.addf %i, %o : f32
      linalg.yield %s : f32
    } -> tensor<5xf32>
    return %g : tensor<5xf32>
  }
}

// -----

// empty_tensor_to_alloc_tensor: each tensor.empty becomes an alloc_tensor (sizes kept);
// the returned handle holds the new ops.
// CHECK-LABEL: func.func @empty_to_alloc_tensor
// CHECK-SAME:  (%[[N:.*]]: index)
// CHECK:       %[[A:.*]] = bufferization.alloc_tensor() {tagged} : tensor<2x2xf32>
// CHECK:       %[[B:.*]] = bufferization.alloc_tensor(%[[N]]) {tagged} : tensor<?x2xf32>
// CHECK:       return %[[A]], %[[B]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.empty"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.cast %0 : !transform.any_op to !transform.op<"tensor.empty">
    %2 = transform.bufferization.empty_tensor_to_alloc_tensor %1 : (!transform.op<"tensor.empty">) -> !transform.op<"bufferization.alloc_tensor">
    transform.annotate %2 "tagged" : !transform.op<"bufferization.alloc_tensor">
    transform.yield
  }
  func.func @empty_to_alloc_tensor(%n: index) -> (tensor<2x2xf32>, tensor<?x2xf32>) {
    %0 = tensor.empty() : tensor<2x2xf32>
    %1 = tensor.empty(%n) : tensor<?x2xf32>
    return %0, %1 : tensor<2x2xf32>, tensor<?x2xf32>
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.empty"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.bufferization.empty_tensor_to_alloc_tensor' op operand #0 must be Transform IR handle to tensor.empty operations, but got '!transform.any_op'}}
    %2 = transform.bufferization.empty_tensor_to_alloc_tensor %0 : (!transform.any_op) -> !transform.op<"bufferization.alloc_tensor">
    transform.yield
  }
}
