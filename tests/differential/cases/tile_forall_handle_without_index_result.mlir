// Differential case from tests/filecheck/transform/structured-tile-using-forall.mlir (@handle_without_index_result).
// A handle size must be one op with one index result.
module attributes {transform.with_named_sequence} {
  func.func @handle_without_index_result(%A: tensor<10x64xf32>, %C: tensor<10x64xf32>) -> tensor<10x64xf32> {
    %r = linalg.copy ins(%A : tensor<10x64xf32>) outs(%C : tensor<10x64xf32>) -> tensor<10x64xf32>
    // expected-note @below {{has 0 results}}
    return %r : tensor<10x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{payload op must have exactly 1 index result}}
    %t, %f = transform.structured.tile_using_forall %cp num_threads [%ret] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
