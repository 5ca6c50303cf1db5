// An f32 matmul C = A * B on the GPU at odd sizes.
// Run: schedir-run examples/matmul_smem_cuda.mlir --schedule schedules/matmul_smem_cuda.mlir
//          --target cuda --check
func.func @matmul(%A: tensor<999x1001xf32>, %B: tensor<1001x1003xf32>) -> tensor<999x1003xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<999x1003xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<999x1003xf32>) -> tensor<999x1003xf32>
  %c = linalg.matmul ins(%A, %B : tensor<999x1001xf32>, tensor<1001x1003xf32>)
                     outs(%acc : tensor<999x1003xf32>) -> tensor<999x1003xf32>
  return %c : tensor<999x1003xf32>
}
