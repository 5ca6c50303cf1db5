// C = A * B in f32, with odd sizes (37x53 * 53x29). The output starts as a fill of zeros
// in a fresh tensor: linalg's destination-passing style.
//   schedir-run examples/matmul.mlir --check
func.func @matmul(%A: tensor<37x53xf32>, %B: tensor<53x29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<37x29xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x29xf32>) -> tensor<37x29xf32>
  %C = linalg.matmul ins(%A, %B : tensor<37x53xf32>, tensor<53x29xf32>)
                     outs(%acc : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %C : tensor<37x29xf32>
}
