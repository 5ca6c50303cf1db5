// relu(A * B + bias) in f16 with f32 accumulation on Hopper's tensor cores (sm_90a), at
// sizes the 128x256x64 tiles do not divide: the bias (f16, broadcast over the rows) is
// added, the relu taken and the result rounded to f16 in one elementwise linalg.generic,
// which the schedule fuses into the wgmma accumulators' epilogue (in registers).
// Run: schedir-run examples/matmul_bias_relu_f16_cuda.mlir
//          --schedule schedules/matmul_bias_relu_f16_cuda.mlir --target cuda --check
func.func @matmul_bias_relu(%A: tensor<1000x1016xf16>, %B: tensor<1016x1032xf16>,
                            %bias: tensor<1032xf16>) -> tensor<1000x1032xf16> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1000x1032xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1000x1032xf32>) -> tensor<1000x1032xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<1000x1016xf16>, tensor<1016x1032xf16>)
                      outs(%acc : tensor<1000x1032xf32>) -> tensor<1000x1032xf32>
  %init16 = tensor.empty() : tensor<1000x1032xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<1000x1032xf32>, tensor<1032xf16>) outs(%init16 : tensor<1000x1032xf16>) {
  ^bb0(%x: f32, %b: f16, %o: f16):
    %bf = arith.extf %b : f16 to f32
    %s = arith.addf %x, %bf : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1000x1032xf16>
  return %out : tensor<1000x1032xf16>
}
