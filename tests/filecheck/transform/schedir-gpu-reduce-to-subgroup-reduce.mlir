// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.gpu.reduce_to_subgroup_reduce is schedir's own extension op.

// transform.schedir.gpu.reduce_to_subgroup_reduce: 8 rows of 128 partials over 32 lanes;
// lane l of row r combines its 4 adjacent partials 4l..4l+3 in order (the body's operand
// order: the next partial into the accumulator), reduces the result over its warp with
// gpu.subgroup_reduce (no cluster: the whole warp) and writes it into partial 4l; the
// target then merges column 0 of the partials (8x1) into its init.
// CHECK-LABEL: func.func @rows
// CHECK-SAME:  (%[[P:.*]]: tensor<8x128xf32>, %[[I:.*]]: tensor<8xf32>)
// CHECK:       %[[F:.*]] = scf.forall (%[[R:.*]], %[[L:.*]]) in (8, 32) shared_outs(%[[S:.*]] = %[[P]]) -> (tensor<8x128xf32>) {
// CHECK:         %[[K:.*]] = arith.constant 4 : index
// CHECK:         %[[C0:.*]] = arith.muli %[[L]], %[[K]] : index
// CHECK:         %[[V0:.*]] = tensor.extract %[[S]][%[[R]], %[[C0]]] : tensor<8x128xf32>
// CHECK:         %[[C1:.*]] = arith.addi %[[C0]], %{{.*}} : index
// CHECK:         %[[V1:.*]] = tensor.extract %[[S]][%[[R]], %[[C1]]] : tensor<8x128xf32>
// CHECK:         %[[A1:.*]] = arith.addf %[[V1]], %[[V0]] : f32
// CHECK:         %[[V2:.*]] = tensor.extract %[[S]][%[[R]], %{{.*}}] : tensor<8x128xf32>
// CHECK:         %[[A2:.*]] = arith.addf %[[V2]], %[[A1]] : f32
// CHECK:         %[[V3:.*]] = tensor.extract %[[S]][%[[R]], %{{.*}}] : tensor<8x128xf32>
// CHECK:         %[[A3:.*]] = arith.addf %[[V3]], %[[A2]] : f32
// CHECK:         %[[G:.*]] = gpu.subgroup_reduce add %[[A3]] uniform : (f32) -> f32
// CHECK:         %[[SLOT:.*]] = tensor.extract_slice %[[S]][%[[R]], %[[C0]]] [1, 1] [1, 1] : tensor<8x128xf32> to tensor<1x1xf32>
// CHECK:         %[[E:.*]] = linalg.fill ins(%[[G]] : f32) outs(%[[SLOT]] : tensor<1x1xf32>) -> tensor<1x1xf32>
// CHECK:         scf.forall.in_parallel {
// CHECK-NEXT:      tensor.parallel_insert_slice %[[E]] into %[[S]][%[[R]], %[[C0]]] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<8x128xf32>
// CHECK:       } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK:       %[[FIRST:.*]] = tensor.extract_slice %[[F]][0, 0] [8, 1] [1, 1] : tensor<8x128xf32> to tensor<8x1xf32>
// CHECK:       %[[M:.*]] = linalg.reduce ins(%[[FIRST]] : tensor<8x1xf32>) outs(%[[I]] : tensor<8xf32>) dimensions = [1] {merge}
// CHECK:         arith.addf
// CHECK:       return %[[M]]
module attributes {transform.with_named_sequence} {
  func.func @rows(%p: tensor<8x128xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
    %r = linalg.reduce ins(%p : tensor<8x128xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %forall, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %0 lanes = 32
        mapping = [#gpu.thread<y>, #gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %merge "merge" : !transform.any_op
    transform.yield
  }
}

// -----

// The reduction dim first, 8 lanes (a cluster of 8 of a warp), one partial per lane, an
// integer max; the parallel dim (3) maps onto y.
// CHECK-LABEL: func.func @outer_max
// CHECK:       scf.forall (%[[R:.*]], %[[L:.*]]) in (3, 8) shared_outs(%[[S:.*]] = %{{.*}}) -> (tensor<8x3xi32>) {
// CHECK-NOT:     arith.muli
// CHECK:         %[[V:.*]] = tensor.extract %[[S]][%[[L]], %[[R]]] : tensor<8x3xi32>
// CHECK:         gpu.subgroup_reduce maxsi %[[V]] uniform cluster(size = 8) : (i32) -> i32
// CHECK:         tensor.parallel_insert_slice %{{.*}} into %[[S]][%[[L]], %[[R]]] [1, 1] [1, 1]
// CHECK:       } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK:       tensor.extract_slice %{{.*}}[0, 0] [1, 3] [1, 1] : tensor<8x3xi32> to tensor<1x3xi32>
// CHECK:       linalg.generic
// CHECK:         arith.maxsi
module attributes {transform.with_named_sequence} {
  func.func @outer_max(%p: tensor<8x3xi32>, %init: tensor<3xi32>) -> tensor<3xi32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%p : tensor<8x3xi32>) outs(%init : tensor<3xi32>) {
    ^bb0(%in: i32, %acc: i32):
      %x = arith.maxsi %acc, %in : i32
      linalg.yield %x : i32
    } -> tensor<3xi32>
    return %r : tensor<3xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %forall, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %0 lanes = 8
        mapping = [#gpu.thread<y>, #gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The reduced extent is not a multiple of the lanes: a silenceable failure with the
// reason at the payload op.
module attributes {transform.with_named_sequence} {
  func.func @uneven(%p: tensor<4x100xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @below {{'linalg.reduce' op expected the reduced extent (100) to be a multiple of the lanes (32)}}
    %r = linalg.reduce ins(%p : tensor<4x100xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the reduction into gpu.subgroup_reduce}}
    %forall, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %0 lanes = 32
        mapping = [#gpu.thread<y>, #gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Dynamic rows (a block of rows that does not divide the matrix): the forall could not
// be mapped onto a static block, so the op fails silenceably.
module attributes {transform.with_named_sequence} {
  func.func @dynamic(%p: tensor<?x128xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
    // expected-error @below {{'linalg.reduce' op expected static shapes, got ?x128 and ? (a tile of a dimension its tile size does not divide has a dynamic size)}}
    %r = linalg.reduce ins(%p : tensor<?x128xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return %r : tensor<?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the reduction into gpu.subgroup_reduce}}
    %forall, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %0 lanes = 32
        mapping = [#gpu.thread<y>, #gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// One mapping attribute per parallel dim, then the lanes'.
module attributes {transform.with_named_sequence} {
  func.func @mapping(%p: tensor<4x32xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @below {{'linalg.reduce' op expected 2 mapping attributes (one per parallel dim, then the lanes), got 1}}
    %r = linalg.reduce ins(%p : tensor<4x32xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the reduction into gpu.subgroup_reduce}}
    %forall, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %0 lanes = 32
        mapping = [#gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{expects lanes to be a power of two <= 32, got 24}}
    %forall, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %root lanes = 24
        mapping = [#gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{expects mapping to be #gpu.thread or #gpu.warp attributes, got [#gpu.block<x>]}}
    %forall, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %root lanes = 32
        mapping = [#gpu.block<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
