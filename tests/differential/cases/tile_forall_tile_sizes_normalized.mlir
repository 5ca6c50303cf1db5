// Differential case from tests/filecheck/transform/structured-tile-using-forall.mlir (@tile_sizes_normalized).
// tile_sizes: the forall is normalized (`in (ceildiv(37, 8), ceildiv(53, 16))`), each
// offset is `iv * tile` at the top of the body, the last tiles are partial (affine.min),
// `mapping` is copied; results are the tiled op and the forall.
module attributes {transform.with_named_sequence} {
  func.func @tile_sizes_normalized(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %mm tile_sizes [8, 16] (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %t "tiled" : !transform.any_op
    transform.annotate %f "loop" : !transform.any_op
    transform.yield
  }
}
