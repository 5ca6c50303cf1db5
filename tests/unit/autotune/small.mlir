// A small f32 matmul with odd sizes and a schedule with knobs, for the autotuner's tests.
func.func @mm(%A: tensor<23x19xf32>, %B: tensor<19x21xf32>) -> tensor<23x21xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<23x21xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<23x21xf32>) -> tensor<23x21xf32>
  %c = linalg.matmul ins(%A, %B : tensor<23x19xf32>, tensor<19x21xf32>)
                     outs(%acc : tensor<23x21xf32>) -> tensor<23x21xf32>
  return %c : tensor<23x21xf32>
}
