// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.gpu.reduce_to_all_reduce is schedir's own extension op.

// transform.schedir.gpu.reduce_to_all_reduce: the partials of a reduction over N threads
// become an scf.forall of N iterations, each reading its own partial, reducing it over
// the block with gpu.all_reduce and writing the result back into its own slot (no two
// iterations touch the same element); the target then merges only the first slot.
// CHECK-LABEL: func.func @merge_max
// CHECK-SAME:  (%[[P:.*]]: tensor<1x256xf32>, %[[I:.*]]: tensor<1xf32>)
// CHECK:       %[[F:.*]] = scf.forall (%[[T:.*]]) in (256) shared_outs(%[[S:.*]] = %[[P]]) -> (tensor<1x256xf32>) {
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[V:.*]] = tensor.extract %[[S]][%[[Z]], %[[T]]] : tensor<1x256xf32>
// CHECK:         %[[A:.*]] = gpu.all_reduce maxnumf %[[V]] uniform {
// CHECK-NEXT:    } : (f32) -> f32
// CHECK:         %[[SLOT:.*]] = tensor.extract_slice %[[S]][0, %[[T]]] [1, 1] [1, 1] : tensor<1x256xf32> to tensor<1x1xf32>
// CHECK:         %[[E:.*]] = linalg.fill ins(%[[A]] : f32) outs(%[[SLOT]] : tensor<1x1xf32>) -> tensor<1x1xf32>
// CHECK:         scf.forall.in_parallel {
// CHECK-NEXT:      tensor.parallel_insert_slice %[[E]] into %[[S]][0, %[[T]]] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<1x256xf32>
// CHECK:       } {mapping = [#gpu.thread<x>]}
// CHECK:       %[[FIRST:.*]] = tensor.extract_slice %[[F]][0, 0] [1, 1] [1, 1] : tensor<1x256xf32> to tensor<1x1xf32>
// CHECK:       %[[R:.*]] = linalg.reduce ins(%[[FIRST]] : tensor<1x1xf32>) outs(%[[I]] : tensor<1xf32>) dimensions = [1] {merge}
// CHECK:         arith.maxnumf
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @merge_max(%p: tensor<1x256xf32>, %init: tensor<1xf32>) -> tensor<1xf32> {
    %r = linalg.reduce ins(%p : tensor<1x256xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %m = arith.maxnumf %in, %acc : f32
        linalg.yield %m : f32
      }
    return %r : tensor<1xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %forall, %merge = transform.schedir.gpu.reduce_to_all_reduce %0 mapping = [#gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %merge "merge" : !transform.any_op
    transform.yield
  }
}

// -----

// The reduction dim first and an integer combiner; a warp mapping.
// CHECK-LABEL: func.func @outer_xor
// CHECK:       scf.forall (%[[T:.*]]) in (64) shared_outs(%[[S:.*]] = %{{.*}}) -> (tensor<64x1xi32>) {
// CHECK:         %[[V:.*]] = tensor.extract %[[S]][%[[T]], %{{.*}}] : tensor<64x1xi32>
// CHECK:         gpu.all_reduce xor %[[V]] uniform {
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[T]], 0] [1, 1] [1, 1]
// CHECK:       } {mapping = [#gpu.warp<x>]}
// CHECK:       tensor.extract_slice %{{.*}}[0, 0] [1, 1] [1, 1] : tensor<64x1xi32> to tensor<1x1xi32>
// CHECK:       linalg.generic
// CHECK:         arith.xori
module attributes {transform.with_named_sequence} {
  func.func @outer_xor(%p: tensor<64x1xi32>, %init: tensor<1xi32>) -> tensor<1xi32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%p : tensor<64x1xi32>) outs(%init : tensor<1xi32>) {
    ^bb0(%in: i32, %acc: i32):
      %x = arith.xori %acc, %in : i32
      linalg.yield %x : i32
    } -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %forall, %merge = transform.schedir.gpu.reduce_to_all_reduce %0 mapping = [#gpu.warp<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Several rows: gpu.all_reduce would mix them, so the op fails silenceably, with the
// reason at the payload op.
module attributes {transform.with_named_sequence} {
  func.func @rows(%p: tensor<4x256xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @below {{'linalg.reduce' op expected parallel dims of extent 1 (one reduction per block), got [4]}}
    %r = linalg.reduce ins(%p : tensor<4x256xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the reduction into gpu.all_reduce}}
    %forall, %merge = transform.schedir.gpu.reduce_to_all_reduce %0 mapping = [#gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A combiner gpu.all_reduce has no operation for (subtraction); under
// failures(suppress) the schedule goes on and the payload is unchanged.
// CHECK-LABEL: func.func @subtract
// CHECK-NOT:   gpu.all_reduce
// CHECK:       linalg.reduce
module attributes {transform.with_named_sequence} {
  func.func @subtract(%p: tensor<1x32xf32>, %init: tensor<1xf32>) -> tensor<1xf32> {
    %r = linalg.reduce ins(%p : tensor<1x32xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.subf %acc, %in : f32
        linalg.yield %s : f32
      }
    return %r : tensor<1xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %forall, %merge = transform.schedir.gpu.reduce_to_all_reduce %0 mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{expects mapping to be one #gpu.thread or #gpu.warp attribute, got [#gpu.block<x>]}}
    %forall, %merge = transform.schedir.gpu.reduce_to_all_reduce %root mapping = [#gpu.block<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// merge_in_threads: every iteration combines its reduced value with the init's element
// (the body's combiner, its operands in the body's order: the accumulator first here)
// and fills its slot with that; the target is replaced by slot 0, a rank-reducing slice
// (the second result).
// CHECK-LABEL: func.func @merge_in_threads
// CHECK-SAME:  (%[[P:.*]]: tensor<1x256xf32>, %[[I:.*]]: tensor<1xf32>)
// CHECK:       %[[F:.*]] = scf.forall (%[[T:.*]]) in (256) shared_outs(%[[S:.*]] = %[[P]]) -> (tensor<1x256xf32>) {
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK:         %[[V:.*]] = tensor.extract %[[S]][%[[Z]], %[[T]]] : tensor<1x256xf32>
// CHECK:         %[[A:.*]] = gpu.all_reduce add %[[V]] uniform {
// CHECK:         %[[E:.*]] = tensor.extract %[[I]][%[[Z]]] : tensor<1xf32>
// CHECK:         %[[C:.*]] = arith.addf %[[E]], %[[A]] : f32
// CHECK:         %[[SLOT:.*]] = tensor.extract_slice %[[S]][0, %[[T]]] [1, 1] [1, 1] : tensor<1x256xf32> to tensor<1x1xf32>
// CHECK:         linalg.fill ins(%[[C]] : f32) outs(%[[SLOT]] : tensor<1x1xf32>) -> tensor<1x1xf32>
// CHECK:       } {mapping = [#gpu.thread<x>]}
// CHECK:       %[[R:.*]] = tensor.extract_slice %[[F]][0, 0] [1, 1] [1, 1] {merge} : tensor<1x256xf32> to tensor<1xf32>
// CHECK-NOT:   linalg.reduce
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @merge_in_threads(%p: tensor<1x256xf32>, %init: tensor<1xf32>) -> tensor<1xf32> {
    %r = linalg.reduce ins(%p : tensor<1x256xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %acc, %in : f32
        linalg.yield %s : f32
      }
    return %r : tensor<1xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %forall, %merge = transform.schedir.gpu.reduce_to_all_reduce %0 mapping = [#gpu.thread<x>]
        {merge_in_threads}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %merge "merge" : !transform.any_op
    transform.yield
  }
}
