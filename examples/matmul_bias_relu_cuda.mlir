// relu(A * B + bias) on the GPU at odd sizes (the payload of reference schedules b and d).
// Run: schedir-run examples/matmul_bias_relu_cuda.mlir
//          --schedule schedules/matmul_bias_relu_cuda.mlir --target cuda --check
func.func @matmul_bias_relu(%A: tensor<1001x513xf32>, %B: tensor<513x257xf32>,
                            %bias: tensor<257xf32>) -> tensor<1001x257xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1001x257xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1001x257xf32>) -> tensor<1001x257xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<1001x513xf32>, tensor<513x257xf32>)
                      outs(%acc : tensor<1001x257xf32>) -> tensor<1001x257xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<1001x257xf32>, tensor<257xf32>) outs(%init : tensor<1001x257xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1001x257xf32>
  return %out : tensor<1001x257xf32>
}
