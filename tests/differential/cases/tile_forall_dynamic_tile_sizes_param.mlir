// Differential case from tests/filecheck/transform/structured-tile-using-forall.mlir (@dynamic_tile_sizes_param).
// A param tile size on a dynamic dimension: the trip count is computed before the forall.
module attributes {transform.with_named_sequence} {
  func.func @dynamic_tile_sizes_param(%A: tensor<?x64xf32>, %C: tensor<?x64xf32>) -> tensor<?x64xf32> {
    %r = linalg.copy ins(%A : tensor<?x64xf32>) outs(%C : tensor<?x64xf32>) -> tensor<?x64xf32>
    return %r : tensor<?x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 5 : i64 -> !transform.param<i64>
    %t, %f = transform.structured.tile_using_forall %cp tile_sizes [%p, 1] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
