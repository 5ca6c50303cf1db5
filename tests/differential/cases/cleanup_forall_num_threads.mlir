// tile_using_forall by num_threads (max/min tile sizes), then canonicalization + CSE.
module attributes {transform.with_named_sequence} {
  func.func @ew(%A: tensor<100x37xf32>, %C: tensor<100x37xf32>) -> tensor<100x37xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%A : tensor<100x37xf32>) outs(%C : tensor<100x37xf32>) {
    ^bb0(%a: f32, %c: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<100x37xf32>
    return %0 : tensor<100x37xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g num_threads [7, 6] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
    } apply_cse : !transform.any_op
    transform.yield
  }
}
