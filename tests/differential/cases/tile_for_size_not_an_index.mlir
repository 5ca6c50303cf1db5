// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@size_not_an_index).
// A handle size must be produced by ops with one index result.
module attributes {transform.with_named_sequence} {
  func.func @size_not_an_index(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    // expected-note @below {{size producer op}}
    %f = arith.constant {size} 5.0 : f32
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{for this handle}}
    %s = transform.structured.match ops{["arith.constant"]} attributes{size} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected sizes to be produced by ops with a single index-type result}}
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [%s] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
