// Differential case from tests/filecheck/transform/structured-tile-using-forall.mlir (@two_params).
// A param size must hold exactly one value (a definite error, as upstream).
module attributes {transform.with_named_sequence} {
  func.func @two_params(%A: tensor<10x64xf32>, %C: tensor<10x64xf32>) -> tensor<10x64xf32> {
    %r = linalg.copy ins(%A : tensor<10x64xf32>) outs(%C : tensor<10x64xf32>) -> tensor<10x64xf32>
    return %r : tensor<10x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 8 : i64 -> !transform.param<i64>
    %two = transform.merge_handles %p, %p : !transform.param<i64>
    // expected-error @below {{requires exactly one parameter associated}}
    %t, %f = transform.structured.tile_using_forall %cp tile_sizes [%two] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
