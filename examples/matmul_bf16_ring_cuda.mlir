// A bf16 matmul with f32 accumulation, C = A * B, on the tensor cores of an sm_90 GPU
// (wgmma fed by TMA; sizes the tiles do not divide work too: edge tiles).
// Run: schedir-run examples/matmul_bf16_ring_cuda.mlir --schedule schedules/matmul_bf16_ring_cuda.mlir
//          --target cuda --check
func.func @matmul(%A: tensor<512x384xbf16>, %B: tensor<384x256xbf16>) -> tensor<512x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<512x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<512x256xf32>) -> tensor<512x256xf32>
  %c = linalg.matmul ins(%A, %B : tensor<512x384xbf16>, tensor<384x256xbf16>)
                     outs(%acc : tensor<512x256xf32>) -> tensor<512x256xf32>
  return %c : tensor<512x256xf32>
}
