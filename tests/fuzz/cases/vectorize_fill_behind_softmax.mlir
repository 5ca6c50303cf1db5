func.func @fuzz(%arg0: tensor<17x5xf32>, %arg1: tensor<5x5xf32>, %arg2: tensor<5xf32>) -> tensor<5xf32> {
  %e1 = tensor.empty() : tensor<17x5xf32>
  %c1 = arith.constant 0.000000e+00 : f32
  %f2 = linalg.fill ins(%c1 : f32) outs(%e1 : tensor<17x5xf32>) -> tensor<17x5xf32>
  %v3 = linalg.matmul ins(%arg0, %arg1 : tensor<17x5xf32>, tensor<5x5xf32>) outs(%f2 : tensor<17x5xf32>) -> tensor<17x5xf32>
  %e4 = tensor.empty() : tensor<17x5xf32>
  %v5 = linalg.softmax dimension(0) ins(%v3 : tensor<17x5xf32>) outs(%e4 : tensor<17x5xf32>) -> tensor<17x5xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v5 : tensor<17x5xf32>) outs(%arg2 : tensor<5xf32>) {
  ^bb0(%b5_in0: f32, %b5_out: f32):
    %b5_r = arith.addf %b5_in0, %b5_out : f32
    linalg.yield %b5_r : f32
  } -> tensor<5xf32>
  return %v6 : tensor<5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h5 = transform.structured.fuse %h1 tile_sizes [0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h10 = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %h10 : !transform.any_op
    transform.yield
  }
}
