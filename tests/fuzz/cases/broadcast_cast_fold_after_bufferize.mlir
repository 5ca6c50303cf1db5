func.func @fuzz(%arg0: tensor<2x8xf16>, %arg1: tensor<8x8xf16>, %arg2: tensor<2x8xf16>, %arg3: tensor<2x8x1xf16>) -> tensor<2x7x1xf16> {
  %e1 = tensor.empty() : tensor<2x8xf16>
  %v2 = linalg.softmax dimension(0) ins(%arg0 : tensor<2x8xf16>) outs(%e1 : tensor<2x8xf16>) -> tensor<2x8xf16>
  %v3 = linalg.matmul ins(%v2, %arg1 : tensor<2x8xf16>, tensor<8x8xf16>) outs(%arg2 : tensor<2x8xf16>) -> tensor<2x8xf16>
  %e4 = tensor.empty() : tensor<2x7x8xf16>
  %c4 = arith.constant 0.000000e+00 : f16
  %f5 = linalg.fill ins(%c4 : f16) outs(%e4 : tensor<2x7x8xf16>) -> tensor<2x7x8xf16>
  %v6 = linalg.broadcast ins(%v3 : tensor<2x8xf16>) outs(%f5 : tensor<2x7x8xf16>) dimensions = [1]
  %e7 = tensor.empty() : tensor<2x7x1xf16>
  %c7 = arith.constant 0.000000e+00 : f16
  %f8 = linalg.fill ins(%c7 : f16) outs(%e7 : tensor<2x7x1xf16>) -> tensor<2x7x1xf16>
  %v9 = linalg.batch_matmul ins(%v6, %arg3 : tensor<2x7x8xf16>, tensor<2x8x1xf16>) outs(%f8 : tensor<2x7x1xf16>) -> tensor<2x7x1xf16>
  return %v9 : tensor<2x7x1xf16>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %h1 = transform.structured.match ops{["linalg.batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h5, %h6 = transform.structured.fuse %h1 tile_sizes [3, 0, 2, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %h7 = transform.bufferization.one_shot_bufferize %root : (!transform.any_op) -> !transform.any_op
    %h8 = transform.structured.match ops{["func.func"]} in %h7 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h8 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
