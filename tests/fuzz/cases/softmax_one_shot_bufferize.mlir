func.func @fuzz(%arg0: tensor<1x15x3x3xf32>, %arg1: tensor<2x3x3x3xf32>) -> tensor<1x14x1x3xf32> {
  %e1 = tensor.empty() : tensor<1x14x1x3xf32>
  %c1 = arith.constant 0.000000e+00 : f32
  %f2 = linalg.fill ins(%c1 : f32) outs(%e1 : tensor<1x14x1x3xf32>) -> tensor<1x14x1x3xf32>
  %v3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x15x3x3xf32>, tensor<2x3x3x3xf32>) outs(%f2 : tensor<1x14x1x3xf32>) -> tensor<1x14x1x3xf32>
  %e4 = tensor.empty() : tensor<1x14x1x3xf32>
  %v5 = linalg.softmax dimension(2) ins(%v3 : tensor<1x14x1x3xf32>) outs(%e4 : tensor<1x14x1x3xf32>) -> tensor<1x14x1x3xf32>
  return %v5 : tensor<1x14x1x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %h3 = transform.bufferization.one_shot_bufferize %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
