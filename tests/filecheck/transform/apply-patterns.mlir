// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// Folding, identities and constant de-duplication: constants move to the front of the
// function in walk order (a constant found after other ops goes to the very front), as
// upstream's OperationFolder does; apply_patterns walks bottom-up.
// CHECK-LABEL: func.func @fold_and_hoist
// CHECK-NEXT:    %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %{{.*}}, %[[C4]] : index
// CHECK-NEXT:    %[[A:.*]] = arith.addi %[[M]], %[[C5]] : index
// CHECK-NEXT:    scf.for %{{.*}} = %[[C0]] to %{{.*}} step %[[C2]] iter_args(%[[ACC:.*]] = %[[A]])
// CHECK-NEXT:      arith.addi %[[ACC]], %[[C7]] : index
module attributes {transform.with_named_sequence} {
  func.func @fold_and_hoist(%n: index) -> index {
    %c0 = arith.constant 0 : index
    %x = arith.addi %n, %c0 : index
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %y = arith.muli %x, %c4 : index
    %c2 = arith.constant 2 : index
    %z = arith.addi %c2, %c3 : index
    %w = arith.addi %y, %z : index
    %r = scf.for %i = %c0 to %n step %c2 iter_args(%a = %w) -> (index) {
      %c7 = arith.constant 7 : index
      %b = arith.addi %a, %c7 : index
      scf.yield %b : index
    }
    return %r : index
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A handle follows its op when a pattern replaces it with a constant.
// CHECK-LABEL: func.func @handle_follows_constant
// CHECK-NEXT:    %{{.*}} = arith.constant {replaced} 5 : index
module attributes {transform.with_named_sequence} {
  func.func @handle_follows_constant(%t: tensor<5xf32>) -> index {
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %t, %c0 : tensor<5xf32>
    return %dim : index
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dim = transform.structured.match ops{["tensor.dim"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.annotate %dim "replaced" : !transform.any_op
    transform.yield
  }
}

// -----

// A loop replaced by a new loop of the same kind keeps its handle (the unused
// iter_arg is dropped).
// CHECK-LABEL: func.func @handle_follows_same_kind
// CHECK:         scf.for
// CHECK-SAME:    iter_args(%{{.*}} = %{{.*}}) -> (f32)
// CHECK:         } {followed}
module attributes {transform.with_named_sequence} {
  func.func @handle_follows_same_kind(%n: index, %v: f32, %m: memref<?xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %v, %b = %v) -> (f32, f32) {
      %x = arith.addf %a, %v : f32
      memref.store %x, %m[%i] : memref<?xf32>
      scf.yield %x, %b : f32, f32
    }
    return %r#0 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.annotate %l "followed" : !transform.any_op
    transform.yield
  }
}

// -----

// A one-iteration loop is inlined: its handle, still used afterwards, cannot follow.
module attributes {transform.with_named_sequence} {
  func.func @replacement_not_found(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @below {{[0] replaced op}}
    %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
      // expected-note @below {{[0] replacement value 0}}
      %b = tensor.insert %v into %a[%i] : tensor<8xf32>
      scf.yield %b : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{replacement is required because this handle must be updated}}
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{tracking listener failed to find replacement op during application of this transform op}}
    // expected-note @below {{ran out of suitable replacement values}}
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.annotate %l "x" : !transform.any_op
    transform.yield
  }
}

// -----

// The same with a dead handle (no later use), or with the failure silenced: no error.
// CHECK-LABEL: func.func @replacement_not_needed
// CHECK-NOT:     scf.for
// CHECK:         tensor.insert
module attributes {transform.with_named_sequence} {
  func.func @replacement_not_needed(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
      %b = tensor.insert %v into %a[%i] : tensor<8xf32>
      scf.yield %b : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } {transform.silence_tracking_failures} : !transform.any_op
    transform.annotate %l "x" : !transform.any_op
    transform.yield
  }
}

// -----

// The target may not contain the schedule.
// expected-note @below {{target payload op}}
module attributes {transform.with_named_sequence} {
  func.func @to_itself() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{cannot apply transform to itself (or one of its ancestors)}}
    transform.apply_patterns to %root {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}

// -----

// apply_cse interleaves CSE: the two subviews become one, then the self copy goes.
// CHECK-LABEL: func.func @canonicalization_and_cse
// CHECK-NOT:     memref.subview
// CHECK-NOT:     memref.copy
// CHECK:         return
module attributes {transform.with_named_sequence} {
  func.func @canonicalization_and_cse(%m: memref<5xf32>) {
    %c2 = arith.constant 2 : index
    %s0 = memref.subview %m[1] [2] [1] : memref<5xf32> to memref<2xf32, strided<[1], offset: 1>>
    %s1 = memref.subview %m[1] [%c2] [1] : memref<5xf32> to memref<?xf32, strided<[1], offset: 1>>
    memref.copy %s0, %s1 : memref<2xf32, strided<[1], offset: 1>> to memref<?xf32, strided<[1], offset: 1>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } apply_cse : !transform.any_op
    transform.yield
  }
}

// -----

// After tiling: the partial-tile affine.min of a loop whose step divides its range is
// the step (scf.for_loop_canonicalization); the other stays; the slice sizes of the
// full tiles become static.
// CHECK-LABEL: func.func @tiling_canonicalization
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK:           %[[MIN:.*]] = affine.min affine_map<(d0) -> (-d0 + 70, 32)>(%{{.*}})
// CHECK:           tensor.extract_slice %{{.*}}[%[[I]], 0] [16, 60] [1, 1] : tensor<96x60xf32> to tensor<16x60xf32>
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x60xf32>, tensor<60x?xf32>) outs(%{{.*}} : tensor<16x?xf32>) -> tensor<16x?xf32>
module attributes {transform.with_named_sequence} {
  func.func @tiling_canonicalization(%A: tensor<96x60xf32>, %B: tensor<60x70xf32>, %C: tensor<96x70xf32>) -> tensor<96x70xf32> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c70 = arith.constant 70 : index
    %c96 = arith.constant 96 : index
    %r = scf.for %i = %c0 to %c96 step %c16 iter_args(%o = %C) -> (tensor<96x70xf32>) {
      %r2 = scf.for %j = %c0 to %c70 step %c32 iter_args(%o2 = %o) -> (tensor<96x70xf32>) {
        %m = affine.min affine_map<(d0) -> (-d0 + 96, 16)>(%i)
        %n = affine.min affine_map<(d0) -> (-d0 + 70, 32)>(%j)
        %a = tensor.extract_slice %A[%i, 0] [%m, 60] [1, 1] : tensor<96x60xf32> to tensor<?x60xf32>
        %b = tensor.extract_slice %B[0, %j] [60, %n] [1, 1] : tensor<60x70xf32> to tensor<60x?xf32>
        %c = tensor.extract_slice %o2[%i, %j] [%m, %n] [1, 1] : tensor<96x70xf32> to tensor<?x?xf32>
        %mm = linalg.matmul ins(%a, %b : tensor<?x60xf32>, tensor<60x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
        %ins = tensor.insert_slice %mm into %o2[%i, %j] [%m, %n] [1, 1] : tensor<?x?xf32> into tensor<96x70xf32>
        scf.yield %ins : tensor<96x70xf32>
      }
      scf.yield %r2 : tensor<96x70xf32>
    }
    return %r : tensor<96x70xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.linalg.tiling_canonicalization
      transform.apply_patterns.scf.for_loop_canonicalization
      transform.apply_patterns.canonicalization
    } apply_cse : !transform.any_op
    transform.yield
  }
}

// -----

// tensor.fold_tensor_subset_ops: a rank-expanding insert that fills its destination,
// inserted again, is inserted directly; nothing else changes.
// CHECK-LABEL: func.func @fold_subset_ops
// CHECK-NOT:     tensor.empty
// CHECK:         %[[R:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x16xf32>
// CHECK:         return %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @fold_subset_ops(%v: tensor<4xf32>, %t: tensor<8x16xf32>, %j: index) -> tensor<8x16xf32> {
    %e = tensor.empty() : tensor<1x4xf32>
    %x = tensor.insert_slice %v into %e[0, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<1x4xf32>
    %r = tensor.insert_slice %x into %t[0, %j] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.fold_tensor_subset_ops
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A target that is not isolated from above: only the ops nested in it are rewritten.
// CHECK-LABEL: func.func @not_isolated
// CHECK:         %[[OUT:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:         scf.for
// CHECK-NOT:       arith.addi
// CHECK:         return %[[OUT]]
module attributes {transform.with_named_sequence} {
  func.func @not_isolated(%n: index, %m: memref<?xindex>) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %out = arith.addi %n, %c0 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = arith.addi %i, %c0 : index
      memref.store %x, %m[%i] : memref<?xindex>
    }
    return %out : index
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %l {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A rewrite that needs more iterations than allowed fails silenceably, at the target.
module attributes {transform.with_named_sequence} {
  // expected-error @below {{greedy pattern application failed}}
  func.func @not_converged(%n: index) -> index {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %a = arith.addi %n, %c1 : index
    %b = arith.addi %a, %c2 : index
    return %b : index
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } max_iterations = 1 : !transform.any_op
    transform.yield
  }
}

// -----

// A tensor.cast that erases static sizes of a forall's shared output moves out of the
// loop (upstream's FoldTensorCastOfOutputIntoForallOp): the body and its parallel insert
// see the static tensor, the result is cast back (as iree-opt prints it).
// CHECK-LABEL: func.func @forall_output_cast
// CHECK-SAME:    (%[[T:.*]]: tensor<16xf32>,
// CHECK:         %[[R:.*]] = scf.forall (%{{.*}}) in (4) shared_outs(%[[O:.*]] = %[[T]]) -> (tensor<16xf32>) {
// CHECK:           %[[S:.*]] = tensor.extract_slice %[[O]][%{{.*}}] [4] [1] : tensor<16xf32> to tensor<4xf32>
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[O]][%{{.*}}] [4] [1] : tensor<4xf32> into tensor<16xf32>
// CHECK:         } {mapping = [#gpu.thread<x>]}
// CHECK:         %[[C:.*]] = tensor.cast %[[R]] : tensor<16xf32> to tensor<?xf32>
// CHECK:         return %[[C]] : tensor<?xf32>
module attributes {transform.with_named_sequence} {
  func.func @forall_output_cast(%t: tensor<16xf32>, %v: tensor<4xf32>) -> tensor<?xf32> {
    %c = tensor.cast %t : tensor<16xf32> to tensor<?xf32>
    %r = scf.forall (%i) in (4) shared_outs(%o = %c) -> (tensor<?xf32>) {
      %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
      %s = tensor.extract_slice %o[%off] [4] [1] : tensor<?xf32> to tensor<4xf32>
      %w = arith.addf %s, %v : tensor<4xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %w into %o[%off] [4] [1] : tensor<4xf32> into tensor<?xf32>
      }
    } {mapping = [#gpu.thread<x>]}
    return %r : tensor<?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
