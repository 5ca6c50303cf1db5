// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@size_from_a_payload_value).
// A size from a handle: the payload value itself is the step.
module attributes {transform.with_named_sequence} {
  func.func @size_from_a_payload_value(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %c5 = arith.constant {size} 5 : index
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.match ops{["arith.constant"]} attributes{size} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [%s] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
