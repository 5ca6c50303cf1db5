// Differential case: tile_using_for error: more tile sizes than loops.
module attributes {transform.with_named_sequence} {
  func.func @mm(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:4 = transform.structured.tile_using_for %mm tile_sizes [8, 8, 8, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
