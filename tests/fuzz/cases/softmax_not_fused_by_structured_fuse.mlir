func.func @fuzz(%arg0: tensor<6x5xf64>, %arg1: tensor<5x7xf64>, %arg2: tensor<6x7xf64>, %arg3: tensor<6x7xf64>, %arg4: tensor<7x3xf64>) -> tensor<6x3xf64> {
  %v1 = linalg.matmul ins(%arg0, %arg1 : tensor<6x5xf64>, tensor<5x7xf64>) outs(%arg2 : tensor<6x7xf64>) -> tensor<6x7xf64>
  %v2 = linalg.softmax dimension(0) ins(%v1 : tensor<6x7xf64>) outs(%arg3 : tensor<6x7xf64>) -> tensor<6x7xf64>
  %e3 = tensor.empty() : tensor<6x3xf64>
  %c3 = arith.constant 1.000000e+00 : f64
  %f4 = linalg.fill ins(%c3 : f64) outs(%e3 : tensor<6x3xf64>) -> tensor<6x3xf64>
  %v5 = linalg.matmul ins(%v2, %arg4 : tensor<6x7xf64>, tensor<7x3xf64>) outs(%f4 : tensor<6x3xf64>) -> tensor<6x3xf64>
  return %v5 : tensor<6x3xf64>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3 = transform.split_handle %h1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h4, %h5, %h6 = transform.structured.fuse %h3 tile_sizes [6, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %h7 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %h8, %h9 = transform.split_handle %h7 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h10 = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %h11, %h12 = transform.split_handle %h10 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
