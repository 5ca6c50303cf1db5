// Differential case: fuse_into_containing_op: the producer destination is the forall shared output, so its tile is sliced from the block argument.
module attributes {transform.with_named_sequence} {
  func.func @f(%A: tensor<64x64xf32>, %C: tensor<64x64xf32>, %D: tensor<64x64xf32>) -> (tensor<64x64xf32>) {
    %cst = arith.constant 1.0 : f32
    %fill = linalg.fill ins(%cst : f32) outs(%C : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%A, %fill : tensor<64x64xf32>, tensor<64x64xf32>) outs(%C : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [16, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a, %b = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
