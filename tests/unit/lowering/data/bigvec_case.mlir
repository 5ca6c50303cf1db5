func.func @fuzz(%arg0: tensor<16x11xf32>, %arg1: tensor<16x11x5xf32>) -> tensor<f32> {
  %v1 = linalg.broadcast ins(%arg0 : tensor<16x11xf32>) outs(%arg1 : tensor<16x11x5xf32>) dimensions = [2]
  %e2 = tensor.empty() : tensor<5x11x16xf32>
  %v3 = linalg.transpose ins(%v1 : tensor<16x11x5xf32>) outs(%e2 : tensor<5x11x16xf32>) permutation = [2, 1, 0]
  %e4 = tensor.empty() : tensor<5x11x16x4xf32>
  %c4 = arith.constant -5.000000e-01 : f32
  %f5 = linalg.fill ins(%c4 : f32) outs(%e4 : tensor<5x11x16x4xf32>) -> tensor<5x11x16x4xf32>
  %v6 = linalg.broadcast ins(%v3 : tensor<5x11x16xf32>) outs(%f5 : tensor<5x11x16x4xf32>) dimensions = [3]
  %e7 = tensor.empty() : tensor<f32>
  %c7 = arith.constant -5.000000e-01 : f32
  %f8 = linalg.fill ins(%c7 : f32) outs(%e7 : tensor<f32>) -> tensor<f32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%v6 : tensor<5x11x16x4xf32>) outs(%f8 : tensor<f32>) {
  ^bb0(%b8_in0: f32, %b8_out: f32):
    %b8_r = arith.addf %b8_in0, %b8_out : f32
    linalg.yield %b8_r : f32
  } -> tensor<f32>
  return %v9 : tensor<f32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.broadcast"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3 = transform.split_handle %h1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h4, %h5, %h6 = transform.structured.tile_using_for %h2 tile_sizes [4, 8] interchange = [0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %h7 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %h7 : !transform.any_op
    %h8 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h10 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h9 = transform.structured.vectorize_children_and_apply_patterns %h8 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
