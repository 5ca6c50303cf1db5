module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>, %c: tensor<16x24xf32>) -> tensor<16x24xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x24xf32>) outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
    return %0 : tensor<16x24xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1:4 = transform.structured.split_reduction %m <{split_factor = 4, insert_split_dimension = 2, use_scaling_algorithm}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
