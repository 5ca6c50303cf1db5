func.func @fuzz(%arg0: tensor<7x13xf32>) -> tensor<7xf32> {
  %e1 = tensor.empty() : tensor<7xf32>
  %c1 = arith.constant -1.000000e+39 : f32
  %f2 = linalg.fill ins(%c1 : f32) outs(%e1 : tensor<7xf32>) -> tensor<7xf32>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<7x13xf32>) outs(%f2 : tensor<7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<7xf32>
  return %v3 : tensor<7xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3 = transform.structured.tile_using_for %h1 tile_sizes [3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
