// RUN: schedir-opt %s | filecheck %s

// Canonicalization of linalg named ops and identity ops, as upstream (LinalgOps.cpp);
// every output below is what iree-opt --transform-interpreter prints for the same input.

module attributes {transform.with_named_sequence} {
// Transposes whose permutations compose to the identity fold away (FoldTransposeWithTranspose,
// then TransposeOp::fold); a fused tile of such a chain so loses its dynamic-size ops.
// CHECK-LABEL: func.func @transpose_pair(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: tensor<3x5x7xf32>, %[[B:[a-z0-9]+]]: tensor<7x3x5xf32>, %[[C:[a-z0-9]+]]: tensor<3x5x7xf32>)
// CHECK-NEXT:    {{(func.)?}}return %[[A]] : tensor<3x5x7xf32>
  func.func @transpose_pair(%a: tensor<3x5x7xf32>, %b: tensor<7x3x5xf32>, %c: tensor<3x5x7xf32>) -> tensor<3x5x7xf32> {
    %t = linalg.transpose ins(%a : tensor<3x5x7xf32>) outs(%b : tensor<7x3x5xf32>) permutation = [2, 0, 1]
    %u = linalg.transpose ins(%t : tensor<7x3x5xf32>) outs(%c : tensor<3x5x7xf32>) permutation = [1, 2, 0]
    return %u : tensor<3x5x7xf32>
  }
// Otherwise one transpose of the composed permutation remains.
// CHECK-LABEL: func.func @transpose_compose(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: tensor<3x5x7xf32>, %[[B:[a-z0-9]+]]: tensor<7x3x5xf32>, %[[C:[a-z0-9]+]]: tensor<5x7x3xf32>)
// CHECK-NEXT:    %[[T:.*]] = linalg.transpose ins(%[[A]] : tensor<3x5x7xf32>) outs(%[[C]] : tensor<5x7x3xf32>) permutation = [1, 2, 0]
// CHECK-NEXT:    {{(func.)?}}return %[[T]]
  func.func @transpose_compose(%a: tensor<3x5x7xf32>, %b: tensor<7x3x5xf32>, %c: tensor<5x7x3xf32>) -> tensor<5x7x3xf32> {
    %t = linalg.transpose ins(%a : tensor<3x5x7xf32>) outs(%b : tensor<7x3x5xf32>) permutation = [2, 0, 1]
    %u = linalg.transpose ins(%t : tensor<7x3x5xf32>) outs(%c : tensor<5x7x3xf32>) permutation = [2, 0, 1]
    return %u : tensor<5x7x3xf32>
  }
// transpose(broadcast(x)) is broadcast(transpose(x)) (SwapTransposeWithBroadcast); a dynamic
// size of x gives the new init a tensor.dim.
// CHECK-LABEL: func.func @transpose_of_broadcast(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: tensor<?x5xf32>, %[[B:[a-z0-9]+]]: tensor<?x3x5xf32>, %[[C:[a-z0-9]+]]: tensor<5x3x?xf32>)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x5xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[D]]) : tensor<5x?xf32>
// CHECK-NEXT:    %[[T:.*]] = linalg.transpose ins(%[[A]] : tensor<?x5xf32>) outs(%[[E]] : tensor<5x?xf32>) permutation = [1, 0]
// CHECK-NEXT:    %[[R:.*]] = linalg.broadcast ins(%[[T]] : tensor<5x?xf32>) outs(%[[C]] : tensor<5x3x?xf32>) dimensions = [1]
// CHECK-NEXT:    {{(func.)?}}return %[[R]]
  func.func @transpose_of_broadcast(%a: tensor<?x5xf32>, %b: tensor<?x3x5xf32>, %c: tensor<5x3x?xf32>) -> tensor<5x3x?xf32> {
    %t = linalg.broadcast ins(%a : tensor<?x5xf32>) outs(%b : tensor<?x3x5xf32>) dimensions = [1]
    %u = linalg.transpose ins(%t : tensor<?x3x5xf32>) outs(%c : tensor<5x3x?xf32>) permutation = [2, 1, 0]
    return %u : tensor<5x3x?xf32>
  }
// Back-to-back broadcasts are one (FoldBroadcasts).
// CHECK-LABEL: func.func @broadcast_pair(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: tensor<5xf32>, %[[B:[a-z0-9]+]]: tensor<5x3xf32>, %[[C:[a-z0-9]+]]: tensor<7x5x3xf32>)
// CHECK-NEXT:    %[[R:.*]] = linalg.broadcast ins(%[[A]] : tensor<5xf32>) outs(%[[C]] : tensor<7x5x3xf32>) dimensions = [0, 2]
// CHECK-NEXT:    {{(func.)?}}return %[[R]]
  func.func @broadcast_pair(%a: tensor<5xf32>, %b: tensor<5x3xf32>, %c: tensor<7x5x3xf32>) -> tensor<7x5x3xf32> {
    %t = linalg.broadcast ins(%a : tensor<5xf32>) outs(%b : tensor<5x3xf32>) dimensions = [1]
    %u = linalg.broadcast ins(%t : tensor<5x3xf32>) outs(%c : tensor<7x5x3xf32>) dimensions = [0]
    return %u : tensor<7x5x3xf32>
  }
// A broadcast adding no dimension is its input (EraseIdentityLinalgOp<BroadcastOp>).
// CHECK-LABEL: func.func @identity_broadcast(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: tensor<5x3xf32>, %[[B:[a-z0-9]+]]: tensor<5x3xf32>)
// CHECK-NEXT:    {{(func.)?}}return %[[A]] : tensor<5x3xf32>
  func.func @identity_broadcast(%a: tensor<5x3xf32>, %b: tensor<5x3xf32>) -> tensor<5x3xf32> {
    %t = linalg.broadcast ins(%a : tensor<5x3xf32>) outs(%b : tensor<5x3xf32>) dimensions = []
    return %t : tensor<5x3xf32>
  }
// A generic forwarding its input with equal (not identity) maps is its input, cast to the
// more static result type.
// CHECK-LABEL: func.func @identity_generic_cast(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: tensor<?x3xf32>, %[[B:[a-z0-9]+]]: tensor<5x3xf32>)
// CHECK-NEXT:    %[[R:.*]] = tensor.cast %[[A]] : tensor<?x3xf32> to tensor<5x3xf32>
// CHECK-NEXT:    {{(func.)?}}return %[[R]]
  func.func @identity_generic_cast(%a: tensor<?x3xf32>, %b: tensor<5x3xf32>) -> tensor<5x3xf32> {
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x3xf32>) outs(%b : tensor<5x3xf32>) {
    ^bb0(%x: f32, %y: f32):
      linalg.yield %x : f32
    } -> tensor<5x3xf32>
    return %t : tensor<5x3xf32>
  }
// Forwarding the init gives the init.
// CHECK-LABEL: func.func @identity_generic_init(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: tensor<5x3xf32>, %[[B:[a-z0-9]+]]: tensor<5x3xf32>)
// CHECK-NEXT:    {{(func.)?}}return %[[B]] : tensor<5x3xf32>
  func.func @identity_generic_init(%a: tensor<5x3xf32>, %b: tensor<5x3xf32>) -> tensor<5x3xf32> {
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<5x3xf32>) outs(%b : tensor<5x3xf32>) {
    ^bb0(%x: f32, %y: f32):
      linalg.yield %y : f32
    } -> tensor<5x3xf32>
    return %t : tensor<5x3xf32>
  }
// On buffers, only a copy of a buffer into itself is erased.
// CHECK-LABEL: func.func @self_copy_buffer(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: memref<5x3xf32>)
// CHECK-NEXT:    {{(func.)?}}return
  func.func @self_copy_buffer(%a: memref<5x3xf32>) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<5x3xf32>) outs(%a : memref<5x3xf32>) {
    ^bb0(%x: f32, %y: f32):
      linalg.yield %x : f32
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
