// An f16 matmul with f32 accumulation and an f16 result, C = f16(A * B), on the tensor
// cores of an sm_90 GPU through warp-specialized warpgroups (the default schedule), at
// sizes the 128x256x64 tiles do not divide (edge tiles).
// Run: schedir-run examples/matmul_f16_cuda.mlir
//          --schedule schedules/matmul_f16_cuda.mlir --target cuda --check
func.func @matmul(%A: tensor<1000x1016xf16>, %B: tensor<1016x1032xf16>) -> tensor<1000x1032xf16> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1000x1032xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1000x1032xf32>) -> tensor<1000x1032xf32>
  %c = linalg.matmul ins(%A, %B : tensor<1000x1016xf16>, tensor<1016x1032xf16>)
                     outs(%acc : tensor<1000x1032xf32>) -> tensor<1000x1032xf32>
  %init16 = tensor.empty() : tensor<1000x1032xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<1000x1032xf32>) outs(%init16 : tensor<1000x1032xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1000x1032xf16>
  return %out : tensor<1000x1032xf16>
}
