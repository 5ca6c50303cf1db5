// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@dividing_tiles).
// Tiles that divide their loop (and tiles of 1) need no affine.min: static slices.
module attributes {transform.with_named_sequence} {
  func.func @dividing_tiles(%A: tensor<32x16xf32>, %B: tensor<16x48xf32>, %C: tensor<32x48xf32>) -> tensor<32x48xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<32x16xf32>, tensor<16x48xf32>) outs(%C : tensor<32x48xf32>) -> tensor<32x48xf32>
    return %r : tensor<32x48xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:3 = transform.structured.tile_using_for %mm tile_sizes [8, 16, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
