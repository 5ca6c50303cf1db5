// Row softmax of a 33x65 f32 matrix with the aggregate op linalg.softmax.
func.func @softmax(%x: tensor<33x65xf32>) -> tensor<33x65xf32> {
  %init = tensor.empty() : tensor<33x65xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<33x65xf32>)
                                   outs(%init : tensor<33x65xf32>) -> tensor<33x65xf32>
  return %y : tensor<33x65xf32>
}
