// structured.vectorize on an op without a vector form fails at the payload op.
module attributes {transform.with_named_sequence} {
  func.func @f(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
    %e = tensor.empty() : tensor<16x32xf32>
    %s = linalg.softmax dimension(1) ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    return %s : tensor<16x32xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %s : !transform.any_op
    transform.yield
  }
}
