module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<24x12xf32>, %b: tensor<12x25xf32>, %c: tensor<24x25xf32>) -> tensor<24x25xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<24x12xf32>, tensor<12x25xf32>) outs(%c : tensor<24x25xf32>) -> tensor<24x25xf32>
    return %0 : tensor<24x25xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p, %pad, %copy = transform.structured.pad %m pad_to_multiple_of [16, 16, 8] <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], nofold_flags = [1, 0, 0]}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
