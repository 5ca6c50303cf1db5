module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<6x23xf32>, %b: tensor<23x7xf32>, %c: tensor<6x7xf32>) -> tensor<6x7xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<6x23xf32>, tensor<23x7xf32>) outs(%c : tensor<6x7xf32>) -> tensor<6x7xf32>
    return %0 : tensor<6x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_forall %0 by num_threads = [0, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
