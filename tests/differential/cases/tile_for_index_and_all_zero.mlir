// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@index_and_all_zero).
// linalg.index is shifted by the tile offset; all-zero sizes clone the op, no loop.
module attributes {transform.with_named_sequence} {
  func.func @index_and_all_zero(%A: tensor<19x23xf32>) -> tensor<19x23xf32> {
    %init = tensor.empty() : tensor<19x23xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%A : tensor<19x23xf32>) outs(%init : tensor<19x23xf32>) {
    ^bb0(%a: f32, %o: f32):
      %j = linalg.index 1 : index
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %s = arith.addf %a, %jf : f32
      linalg.yield %s : f32
    } -> tensor<19x23xf32>
    return %r : tensor<19x23xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %g tile_sizes [0, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2 = transform.structured.tile_using_for %t tile_sizes [0, 0] : (!transform.any_op) -> (!transform.any_op)
    transform.annotate %t2 "cloned" : !transform.any_op
    transform.yield
  }
}
