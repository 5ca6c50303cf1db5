func.func @fuzz(%arg0: tensor<16x9xf16>, %arg1: tensor<16x9xf16>, %arg2: tensor<9x16xf16>) -> tensor<9x16xf16> {
  %v1 = linalg.softmax dimension(1) ins(%arg0 : tensor<16x9xf16>) outs(%arg1 : tensor<16x9xf16>) -> tensor<16x9xf16>
  %v2 = linalg.transpose ins(%v1 : tensor<16x9xf16>) outs(%arg2 : tensor<9x16xf16>) permutation = [1, 0]
  return %v2 : tensor<9x16xf16>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3, %h4 = transform.structured.fuse %h1 tile_sizes [5, 3] interchange [0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
