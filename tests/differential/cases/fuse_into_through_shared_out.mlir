// Differential case from tests/filecheck/transform/structured-fuse-into-containing-op.mlir (@through_shared_out).
// The fill feeds the forall as its shared output: it is tiled to the slice of the block
// argument, and the forall's operand becomes the fill's own destination.
#id1 = affine_map<(d0) -> (d0)>
module attributes {transform.with_named_sequence} {
  func.func @through_shared_out(%A: tensor<64xf32>, %C: tensor<64xf32>) -> tensor<64xf32> {
    %cst = arith.constant 1.0 : f32
    %fill = linalg.fill ins(%cst : f32) outs(%C : tensor<64xf32>) -> tensor<64xf32>
    %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%A : tensor<64xf32>) outs(%fill : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    return %r : tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %l2 = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
