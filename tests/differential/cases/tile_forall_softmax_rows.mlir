// Differential case from tests/filecheck/transform/structured-tile-using-forall.mlir (@softmax_rows).
// linalg.softmax tiles like its iteration space: input and output sliced alike.
module attributes {transform.with_named_sequence} {
  func.func @softmax_rows(%x: tensor<19x33xf32>) -> tensor<19x33xf32> {
    %init = tensor.empty() : tensor<19x33xf32>
    %y = linalg.softmax dimension(1) ins(%x : tensor<19x33xf32>) outs(%init : tensor<19x33xf32>) -> tensor<19x33xf32>
    return %y : tensor<19x33xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %s tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
