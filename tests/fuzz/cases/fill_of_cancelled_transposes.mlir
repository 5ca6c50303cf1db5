func.func @fuzz(%arg0: tensor<4x13x1xi32>, %arg1: tensor<4x13xi32>, %arg2: tensor<4x13xi32>) -> tensor<4x13xi32> {
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<4x13x1xi32>) outs(%arg1 : tensor<4x13xi32>) {
  ^bb0(%b0_in0: i32, %b0_out: i32):
    %b0_r = arith.addi %b0_in0, %b0_out : i32
    linalg.yield %b0_r : i32
  } -> tensor<4x13xi32>
  %e2 = tensor.empty() : tensor<13x4xi32>
  %c2 = arith.constant 0 : i32
  %f3 = linalg.fill ins(%c2 : i32) outs(%e2 : tensor<13x4xi32>) -> tensor<13x4xi32>
  %v4 = linalg.transpose ins(%v1 : tensor<4x13xi32>) outs(%f3 : tensor<13x4xi32>) permutation = [1, 0]
  %v5 = linalg.transpose ins(%v4 : tensor<13x4xi32>) outs(%arg2 : tensor<4x13xi32>) permutation = [1, 0]
  return %v5 : tensor<4x13xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %h1 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3 = transform.split_handle %h1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h4, %h6 = transform.structured.fuse %h3 tile_sizes [0, 10] interchange [0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h7 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h7 { transform.apply_patterns.canonicalization } : !transform.any_op
    %h8 = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %h8 : !transform.any_op
    transform.yield
  }
}
