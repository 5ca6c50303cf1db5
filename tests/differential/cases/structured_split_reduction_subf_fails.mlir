module attributes {transform.with_named_sequence} {
  func.func @red(%I: tensor<4x16xf32>, %O: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%I : tensor<4x16xf32>) outs(%O : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.subf %acc, %in : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1:4 = transform.structured.split_reduction %m <{split_factor = 4, insert_split_dimension = 1}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
