// An f16 matmul with f32 accumulation, C = A * B, on the tensor cores through warp-level
// mma.sync (sm_80+: the fallback for what wgmma cannot tile, and pre-Hopper GPUs), at
// sizes the 128x256x64 tiles do not divide (edge tiles).
// Run: schedir-run examples/matmul_f16_mma_sync_cuda.mlir
//          --schedule schedules/matmul_f16_mma_sync_cuda.mlir --target cuda --check
func.func @matmul(%A: tensor<1000x1016xf16>, %B: tensor<1016x1032xf16>) -> tensor<1000x1032xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1000x1032xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1000x1032xf32>) -> tensor<1000x1032xf32>
  %c = linalg.matmul ins(%A, %B : tensor<1000x1016xf16>, tensor<1016x1032xf16>)
                     outs(%acc : tensor<1000x1032xf32>) -> tensor<1000x1032xf32>
  return %c : tensor<1000x1032xf32>
}
