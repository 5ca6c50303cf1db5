func.func @fuzz(%arg0: tensor<6x1xi32>, %arg1: tensor<1x4xi32>) -> tensor<6x4xi32> {
  %e1 = tensor.empty() : tensor<6x4xi32>
  %c1 = arith.constant 1000000000 : i32
  %f2 = linalg.fill ins(%c1 : i32) outs(%e1 : tensor<6x4xi32>) -> tensor<6x4xi32>
  %v3 = linalg.matmul ins(%arg0, %arg1 : tensor<6x1xi32>, tensor<1x4xi32>) outs(%f2 : tensor<6x4xi32>) -> tensor<6x4xi32>
  return %v3 : tensor<6x4xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2 = transform.structured.generalize %h1 : (!transform.any_op) -> !transform.any_op
    %h3 = transform.structured.interchange %h2 iterator_interchange = [2, 0, 1] : (!transform.any_op) -> !transform.any_op
    %h4 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %h4 : !transform.any_op
    transform.yield
  }
}