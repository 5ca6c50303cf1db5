func.func @fuzz(%arg0: tensor<5x5x8xf32>, %arg1: tensor<5x8x5xf32>, %arg2: tensor<5x5x5xf32>, %arg3: tensor<5xf32>) -> tensor<5xf32> {
  %v1 = linalg.batch_matmul ins(%arg0, %arg1 : tensor<5x5x8xf32>, tensor<5x8x5xf32>) outs(%arg2 : tensor<5x5x5xf32>) -> tensor<5x5x5xf32>
  %e2 = tensor.empty() : tensor<5x5x5xf32>
  %v3 = linalg.transpose ins(%v1 : tensor<5x5x5xf32>) outs(%e2 : tensor<5x5x5xf32>) permutation = [1, 0, 2]
  %e4 = tensor.empty() : tensor<5x5xf32>
  %c4 = arith.constant 0.000000e+00 : f32
  %f5 = linalg.fill ins(%c4 : f32) outs(%e4 : tensor<5x5xf32>) -> tensor<5x5xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%v3 : tensor<5x5x5xf32>) outs(%f5 : tensor<5x5xf32>) {
  ^bb0(%b5_in0: f32, %b5_out: f32):
    %b5_r = arith.maximumf %b5_in0, %b5_out : f32
    linalg.yield %b5_r : f32
  } -> tensor<5x5xf32>
  %e7 = tensor.empty() : tensor<5xf32>
  %c7 = arith.constant -5.000000e-01 : f32
  %f8 = linalg.fill ins(%c7 : f32) outs(%e7 : tensor<5xf32>) -> tensor<5xf32>
  %v9 = linalg.matvec ins(%v6, %arg3 : tensor<5x5xf32>, tensor<5xf32>) outs(%f8 : tensor<5xf32>) -> tensor<5xf32>
  return %v9 : tensor<5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %h1 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h6, %h7, %h8 = transform.structured.fuse %h1 tile_sizes [4, 2, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %h10 = transform.bufferization.one_shot_bufferize %root : (!transform.any_op) -> !transform.any_op
    %h11 = transform.structured.match ops{["func.func"]} in %h10 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h11 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
