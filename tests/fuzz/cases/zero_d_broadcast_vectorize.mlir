func.func @fuzz(%arg0: tensor<7x8x7xi32>, %arg1: tensor<8x7x7xi32>, %arg2: tensor<8x7x7x9xi32>, %arg3: tensor<i32>, %arg4: tensor<11xi32>) -> tensor<11xi32> {
  %v1 = linalg.transpose ins(%arg0 : tensor<7x8x7xi32>) outs(%arg1 : tensor<8x7x7xi32>) permutation = [1, 0, 2]
  %v2 = linalg.broadcast ins(%v1 : tensor<8x7x7xi32>) outs(%arg2 : tensor<8x7x7x9xi32>) dimensions = [3]
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%v2 : tensor<8x7x7x9xi32>) outs(%arg3 : tensor<i32>) {
  ^bb0(%b2_in0: i32, %b2_out: i32):
    %b2_r = arith.addi %b2_in0, %b2_out : i32
    linalg.yield %b2_r : i32
  } -> tensor<i32>
  %v4 = linalg.broadcast ins(%v3 : tensor<i32>) outs(%arg4 : tensor<11xi32>) dimensions = [0]
  return %v4 : tensor<11xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %h1 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3, %h4 = transform.structured.tile_using_for %h1 tile_sizes [0, 16, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %h5 = transform.structured.match ops{["linalg.broadcast"]} in %root : (!transform.any_op) -> !transform.any_op
    %h6, %h7 = transform.split_handle %h5 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h8, %h9 = transform.structured.fuse_into_containing_op %h6 into %h3 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h11 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h12 = transform.structured.vectorize_children_and_apply_patterns %h11 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
