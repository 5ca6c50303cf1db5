func.func @fuzz(%arg0: tensor<4x17x16xi32>) -> tensor<17x16x4xi32> {
  %e1 = tensor.empty() : tensor<17x16x4xi32>
  %c1 = arith.constant 0 : i32
  %f2 = linalg.fill ins(%c1 : i32) outs(%e1 : tensor<17x16x4xi32>) -> tensor<17x16x4xi32>
  %v3 = linalg.transpose ins(%arg0 : tensor<4x17x16xi32>) outs(%f2 : tensor<17x16x4xi32>) permutation = [1, 2, 0]
  return %v3 : tensor<17x16x4xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3 = transform.structured.tile_using_forall %h1 tile_sizes [0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h4 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %h5 = transform.structured.generalize %h4 : (!transform.any_op) -> !transform.any_op
    %h6 = transform.structured.interchange %h5 iterator_interchange = [2, 1, 0] : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h7 { transform.apply_patterns.canonicalization } : !transform.any_op
    %h7 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %h7 : !transform.any_op
    %h8 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %h8 : !transform.any_op
    transform.yield
  }
}
