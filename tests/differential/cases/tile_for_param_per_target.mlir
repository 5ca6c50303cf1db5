// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@param_per_target).
// A param size gives one value per target op (upstream prints 0 for the count).
module attributes {transform.with_named_sequence} {
  func.func @param_per_target(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-note @below {{for this parameter}}
    %two = transform.merge_handles %p, %p : !transform.param<i64>
    // expected-error @below {{expected as many parameter values (0) as target ops (1)}}
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [%two] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
