// A strided 3x3 convolution in NHWC/HWCF layout: 2x17x19x5 input, 8 filters, stride 2.
func.func @conv(%in: tensor<2x17x19x5xf32>, %filter: tensor<3x3x5x8xf32>) -> tensor<2x8x9x8xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x8x9x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x8x9x8xf32>) -> tensor<2x8x9x8xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<2> : tensor<2xi64>}
      ins(%in, %filter : tensor<2x17x19x5xf32>, tensor<3x3x5x8xf32>)
      outs(%acc : tensor<2x8x9x8xf32>) -> tensor<2x8x9x8xf32>
  return %out : tensor<2x8x9x8xf32>
}
