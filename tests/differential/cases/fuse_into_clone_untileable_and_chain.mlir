// Differential case from tests/filecheck/transform/structured-fuse-into-containing-op.mlir (@clone_untileable_and_chain).
// Several producers, consumer first: the fill is tiled into the slice, then tensor.empty
// (not tileable) is cloned in front of its first use inside the loop.
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @clone_untileable_and_chain(%A: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %fill = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %out = tensor.empty() : tensor<64x64xf32>
    %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%A, %fill : tensor<64x64xf32>, tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.mulf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %es = transform.structured.match ops{["tensor.empty"]} in %root : (!transform.any_op) -> !transform.any_op
    %e0, %e1 = transform.split_handle %es : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %l = transform.structured.tile_using_forall %g num_threads [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Consumer first: the fill, then the empty tensor it writes (cloned, not tileable).
    %both = transform.merge_handles %fi, %e0 : !transform.any_op
    %fused, %l2 = transform.structured.fuse_into_containing_op %both into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
