func.func @fuzz(%arg0: tensor<13x3xf32>, %arg1: tensor<3x13xf32>) -> tensor<13x13xf32> {
  %e1 = tensor.empty() : tensor<13x13xf32>
  %c1 = arith.constant -5.000000e-01 : f32
  %f2 = linalg.fill ins(%c1 : f32) outs(%e1 : tensor<13x13xf32>) -> tensor<13x13xf32>
  %v3 = linalg.matmul ins(%arg0, %arg1 : tensor<13x3xf32>, tensor<3x13xf32>) outs(%f2 : tensor<13x13xf32>) -> tensor<13x13xf32>
  return %v3 : tensor<13x13xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__m_main(%root: !transform.any_op {transform.consumed}) {
    %h1 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3, %h4 = transform.structured.tile_using_for %h1 tile_sizes [2, 0, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %h5 = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %h6, %h7 = transform.structured.fuse_into_containing_op %h5 into %h3 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h8 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h8 { transform.apply_patterns.canonicalization } : !transform.any_op
    %h9 = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    %h10 = transform.structured.match ops{["func.func"]} in %h9 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h10 {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
