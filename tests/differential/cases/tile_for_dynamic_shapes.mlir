// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@dynamic_shapes).
// Dynamic sizes come from tensor.dim ops created before the op; the bound is a symbol.
module attributes {transform.with_named_sequence} {
  func.func @dynamic_shapes(%A: tensor<?x?xf32>, %C: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %r = linalg.copy ins(%A : tensor<?x?xf32>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %cp tile_sizes [0, 7] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
