module attributes {transform.with_named_sequence} {
  func.func @f(%x: tensor<1x1x9x3xf32>, %w: tensor<1x3x3x5xf32>, %o: tensor<1x1x7x5xf32>, %y: tensor<1x9x9x3xf32>, %v: tensor<3x3x3x5xf32>, %p: tensor<1x7x7x5xf32>) -> (tensor<1x1x7x5xf32>, tensor<1x7x7x5xf32>) {
    %0 = tensor.empty() : tensor<1x1x7x5xf32>
    %1 = linalg.conv_2d_nhwc_hwcf ins(%y, %v : tensor<1x9x9x3xf32>, tensor<3x3x3x5xf32>) outs(%p : tensor<1x7x7x5xf32>) -> tensor<1x7x7x5xf32>
    return %0, %1 : tensor<1x1x7x5xf32>, tensor<1x7x7x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose %c : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
