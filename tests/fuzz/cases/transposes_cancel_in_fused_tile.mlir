func.func @fuzz(%arg0: tensor<13x3xf64>, %arg1: tensor<13x1x3xf64>, %arg2: tensor<3x1x13xf64>) -> tensor<13x1x3xf64> {
  %v1 = linalg.broadcast ins(%arg0 : tensor<13x3xf64>) outs(%arg1 : tensor<13x1x3xf64>) dimensions = [1]
  %v2 = linalg.transpose ins(%v1 : tensor<13x1x3xf64>) outs(%arg2 : tensor<3x1x13xf64>) permutation = [2, 1, 0]
  %e3 = tensor.empty() : tensor<13x1x3xf64>
  %c3 = arith.constant 0.000000e+00 : f64
  %f4 = linalg.fill ins(%c3 : f64) outs(%e3 : tensor<13x1x3xf64>) -> tensor<13x1x3xf64>
  %v5 = linalg.transpose ins(%v2 : tensor<3x1x13xf64>) outs(%f4 : tensor<13x1x3xf64>) permutation = [2, 1, 0]
  return %v5 : tensor<13x1x3xf64>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3 = transform.split_handle %h1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h4, %h5, %h6 = transform.structured.tile_using_for %h3 tile_sizes [2, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %h7 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %h8, %h9 = transform.split_handle %h7 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h10, %h11 = transform.structured.fuse_into_containing_op %h8 into %h5 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h121 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h121 { transform.apply_patterns.canonicalization } : !transform.any_op
    %h122 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %h122 : !transform.any_op
    transform.yield
  }
}
