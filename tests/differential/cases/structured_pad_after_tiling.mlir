module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<?x12xf32>, %b: tensor<12x25xf32>, %c: tensor<?x25xf32>) -> tensor<?x25xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<?x12xf32>, tensor<12x25xf32>) outs(%c : tensor<?x25xf32>) -> tensor<?x25xf32>
    return %0 : tensor<?x25xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %m tile_sizes [8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pad, %copy = transform.structured.pad %t <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2]}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
