func.func @fuzz(%arg0: tensor<7x6x3xi32>, %arg1: tensor<i32>) -> tensor<i32> {
  %e1 = tensor.empty() : tensor<6x3xi32>
  %c1 = arith.constant 0 : i32
  %f2 = linalg.fill ins(%c1 : i32) outs(%e1 : tensor<6x3xi32>) -> tensor<6x3xi32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg0 : tensor<7x6x3xi32>) outs(%f2 : tensor<6x3xi32>) {
  ^bb0(%b2_in0: i32, %b2_out: i32):
    %b2_r = arith.addi %b2_in0, %b2_out : i32
    linalg.yield %b2_r : i32
  } -> tensor<6x3xi32>
  %e4 = tensor.empty() : tensor<3xi32>
  %c4 = arith.constant 0 : i32
  %f5 = linalg.fill ins(%c4 : i32) outs(%e4 : tensor<3xi32>) -> tensor<3xi32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v3 : tensor<6x3xi32>) outs(%f5 : tensor<3xi32>) {
  ^bb0(%b5_in0: i32, %b5_out: i32):
    %b5_r = arith.addi %b5_in0, %b5_out : i32
    linalg.yield %b5_r : i32
  } -> tensor<3xi32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%v6 : tensor<3xi32>) outs(%arg1 : tensor<i32>) {
  ^bb0(%b6_in0: i32, %b6_out: i32):
    %b6_r = arith.addi %b6_in0, %b6_out : i32
    linalg.yield %b6_r : i32
  } -> tensor<i32>
  %e8 = tensor.empty() : tensor<i32>
  %v9 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%v7 : tensor<i32>) outs(%e8 : tensor<i32>) {
  ^bb0(%b8_in0: i32, %b8_out: i32):
    %b8_0_0 = arith.maxsi %b8_in0, %b8_in0 : i32
    %b8_1_0 = arith.minsi %b8_0_0, %b8_in0 : i32
    %b8_2_0 = arith.addi %b8_in0, %b8_0_0 : i32
    linalg.yield %b8_2_0 : i32
  } -> tensor<i32>
  return %v9 : tensor<i32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h8 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %h9, %h10, %h11, %h12 = transform.split_handle %h8 : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %h13, %h14 = transform.structured.tile_using_forall %h9 num_threads [6] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h15 = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %h16, %h17 = transform.split_handle %h15 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h18, %h19 = transform.structured.fuse_into_containing_op %h16 into %h14 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
