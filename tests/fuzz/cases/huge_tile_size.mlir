func.func @fuzz(%arg0: tensor<11x6xf16>, %arg1: tensor<6xf16>) -> tensor<11xf16> {
  %e1 = tensor.empty() : tensor<11xf16>
  %c1 = arith.constant 0.000000e+00 : f16
  %f2 = linalg.fill ins(%c1 : f16) outs(%e1 : tensor<11xf16>) -> tensor<11xf16>
  %v3 = linalg.matvec ins(%arg0, %arg1 : tensor<11x6xf16>, tensor<6xf16>) outs(%f2 : tensor<11xf16>) -> tensor<11xf16>
  return %v3 : tensor<11xf16>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.matvec"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3, %h4 = transform.structured.tile_using_for %h1 tile_sizes [8, 9223372036854775807] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %h4 factor = 3 : !transform.any_op
    transform.yield
  }
}
