// Differential case: fuse_into_containing_op of a linalg.generic also used after the forall: a new forall with one more shared output.
module attributes {transform.with_named_sequence} {
  func.func @f(%A: tensor<64x64xf32>, %C: tensor<64x64xf32>, %D: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
    %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%A : tensor<64x64xf32>) outs(%D : tensor<64x64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.negf %a : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%A, %p : tensor<64x64xf32>, tensor<64x64xf32>) outs(%C : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    return %r, %p : tensor<64x64xf32>, tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fi, %g2 = transform.split_handle %g : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %l = transform.structured.tile_using_forall %g2 tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a, %b = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
