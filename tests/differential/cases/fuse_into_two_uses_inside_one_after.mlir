// Differential case from tests/filecheck/transform/structured-fuse-into-containing-op.mlir (@two_uses_inside_one_after).
// Two uses inside: the producer is tiled twice. A use after the forall: a new forall with
// one more shared output (initialized with the producer's destination) into which the
// fused tile is inserted first; the outside use reads the new result.
#id1 = affine_map<(d0) -> (d0)>
module attributes {transform.with_named_sequence} {
  func.func @two_uses_inside_one_after(%A: tensor<64xf32>, %D: tensor<64xf32>, %C: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %neg = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%A : tensor<64xf32>) outs(%D : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<64xf32>
    %sq = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%neg, %neg : tensor<64xf32>, tensor<64xf32>) outs(%C : tensor<64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    return %sq, %neg : tensor<64xf32>, tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %neg, %sq = transform.split_handle %g : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %l = transform.structured.tile_using_forall %sq tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %l2 = transform.structured.fuse_into_containing_op %neg into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n = transform.num_associations %fused : (!transform.any_op) -> !transform.param<i64>
    transform.annotate %l2 "fused_ops" = %n : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
