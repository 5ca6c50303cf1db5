// A batched matmul on f16 inputs accumulating in f32 (the body extends both inputs).
func.func @bmm(%A: tensor<3x21x34xf16>, %B: tensor<3x34x19xf16>) -> tensor<3x21x19xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3x21x19xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<3x21x19xf32>) -> tensor<3x21x19xf32>
  %C = linalg.batch_matmul ins(%A, %B : tensor<3x21x34xf16>, tensor<3x34x19xf16>)
                           outs(%acc : tensor<3x21x19xf32>) -> tensor<3x21x19xf32>
  return %C : tensor<3x21x19xf32>
}
