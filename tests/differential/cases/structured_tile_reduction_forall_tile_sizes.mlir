module attributes {transform.with_named_sequence} {
  func.func @f(%arg0: tensor<7x13xf32>, %out: tensor<7xf32>) -> tensor<7xf32> {
    %red = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                            affine_map<(d0, d1) -> (d0)>],
     iterator_types = ["parallel", "reduction"]}
     ins(%arg0 : tensor<7x13xf32>)
     outs(%out : tensor<7xf32>) {
      ^bb0(%arg7: f32, %arg9: f32):
        %1 = arith.addf %arg9, %arg7 : f32
        linalg.yield %1 : f32
      } -> tensor<7xf32>
    return %red : tensor<7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_forall %0 by tile_sizes = [0, 3] mapping = [#gpu.thread<x>] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
