// Tile a static matmul with partial tiles, peel the outer loop, canonicalize + CSE.
module attributes {transform.with_named_sequence} {
  func.func @mm(%A: tensor<100x60xf32>, %B: tensor<60x70xf32>, %C: tensor<100x70xf32>) -> tensor<100x70xf32> {
    %0 = linalg.matmul ins(%A, %B : tensor<100x60xf32>, tensor<60x70xf32>) outs(%C : tensor<100x70xf32>) -> tensor<100x70xf32>
    return %0 : tensor<100x70xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [16, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %l0 = transform.cast %l#0 : !transform.any_op to !transform.op<"scf.for">
    %main, %rem = transform.loop.peel %l0 : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } apply_cse : !transform.any_op
    transform.yield
  }
}
