module attributes {transform.with_named_sequence} {
  func.func @softmax(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
    %c1 = arith.constant 1 : index
    %d = tensor.dim %x, %c1 : tensor<4x?xf32>
    %init = tensor.empty(%d) : tensor<4x?xf32>
    %y = linalg.softmax dimension(1) ins(%x : tensor<4x?xf32>) outs(%init : tensor<4x?xf32>) -> tensor<4x?xf32>
    return %y : tensor<4x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %sm : (!transform.any_op) -> !transform.any_op
    transform.annotate %d "decomposed" : !transform.any_op
    transform.yield
  }
}
