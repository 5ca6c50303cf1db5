// Partial tiles of a 37x29x53 matmul padded to 8x4x16 (transform.structured.pad), then
// vectorize_children_and_apply_patterns with vectorize_padding: the pads become
// out-of-bounds reads padded with 0, the result is written into the loop's slice.
module attributes {transform.with_named_sequence} {
  func.func @mm(%a: tensor<37x29xf32>, %b: tensor<29x53xf32>, %c: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<37x29xf32>, tensor<29x53xf32>) outs(%c : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l0, %l1, %l2 = transform.structured.tile_using_for %m tile_sizes [8, 16, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %p, %pad, %copy = transform.structured.pad %t <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f <vectorize_padding> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
