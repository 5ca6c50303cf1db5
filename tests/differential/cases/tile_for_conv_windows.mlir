// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@conv_windows).
// A strided window `d1 * 2 + d4`: offset oh*2 + kh, size (oh_tile - 1) * 2 + kh_tile.
module attributes {transform.with_named_sequence} {
  func.func @conv_windows(%I: tensor<1x13x11x3xf32>, %F: tensor<3x2x3x5xf32>, %O: tensor<1x6x10x5xf32>) -> tensor<1x6x10x5xf32> {
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%I, %F : tensor<1x13x11x3xf32>, tensor<3x2x3x5xf32>) outs(%O : tensor<1x6x10x5xf32>) -> tensor<1x6x10x5xf32>
    return %r : tensor<1x6x10x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %c tile_sizes [0, 2, 0, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
