// f32 matmul + bias + relu on the CPU, 1024x1024x1024: relu(A * B + bias), the bias
// broadcast along the rows (see schedules/matmul_bias_relu_cpu.mlir).
// Run: schedir-run examples/matmul_bias_relu_cpu.mlir
//          --schedule schedules/matmul_bias_relu_cpu.mlir --check
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @matmul_bias_relu(%A: tensor<1024x1024xf32>, %B: tensor<1024x1024xf32>, %bias: tensor<1024xf32>)
    -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %acc_init = tensor.empty() : tensor<1024x1024xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc_init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                      outs(%acc : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %init = tensor.empty() : tensor<1024x1024xf32>
  %out = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<1024x1024xf32>, tensor<1024xf32>) outs(%init : tensor<1024x1024xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1024x1024xf32>
  return %out : tensor<1024x1024xf32>
}
