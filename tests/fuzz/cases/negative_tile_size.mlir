func.func @fuzz(%arg0: tensor<7x16x11xf64>, %arg1: tensor<7x11x3xf64>, %arg2: tensor<16xf64>, %arg3: tensor<16xf64>) -> tensor<16xf64> {
  %e1 = tensor.empty() : tensor<7x16x3xf64>
  %c1 = arith.constant 1.000000e+00 : f64
  %f2 = linalg.fill ins(%c1 : f64) outs(%e1 : tensor<7x16x3xf64>) -> tensor<7x16x3xf64>
  %v3 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<7x16x11xf64>, tensor<7x11x3xf64>) outs(%f2 : tensor<7x16x3xf64>) -> tensor<7x16x3xf64>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%v3 : tensor<7x16x3xf64>) outs(%arg2 : tensor<16xf64>) {
  ^bb0(%b3_in0: f64, %b3_out: f64):
    %b3_r = arith.addf %b3_in0, %b3_out : f64
    linalg.yield %b3_r : f64
  } -> tensor<16xf64>
  %e5 = tensor.empty() : tensor<16xf64>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v4, %arg3 : tensor<16xf64>, tensor<16xf64>) outs(%e5 : tensor<16xf64>) {
  ^bb0(%b5_in0: f64, %b5_in1: f64, %b5_out: f64):
    %b5_0_0 = arith.maximumf %b5_in0, %b5_in0 : f64
    linalg.yield %b5_0_0 : f64
  } -> tensor<16xf64>
  %e7 = tensor.empty() : tensor<16xf64>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v6 : tensor<16xf64>) outs(%e7 : tensor<16xf64>) {
  ^bb0(%b7_in0: f64, %b7_out: f64):
    %b7_0_0 = arith.addf %b7_in0, %b7_in0 : f64
    %b7_1_0 = arith.mulf %b7_in0, %b7_in0 : f64
    %b7_2_0 = arith.mulf %b7_in0, %b7_in0 : f64
    linalg.yield %b7_2_0 : f64
  } -> tensor<16xf64>
  return %v8 : tensor<16xf64>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3, %h4 = transform.split_handle %h1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %h5, %h6 = transform.structured.tile_using_forall %h2 tile_sizes [-7, 6] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h7 = transform.structured.match ops{["linalg.batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %h8, %h9 = transform.structured.fuse_into_containing_op %h7 into %h6 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h10 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h10 { transform.apply_patterns.canonicalization } : !transform.any_op
    transform.apply_cse to %h10 : !transform.any_op
    transform.yield
  }
}