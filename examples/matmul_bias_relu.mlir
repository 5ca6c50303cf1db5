// relu(A * B + bias): a matmul followed by an elementwise epilogue that broadcasts the bias
// along the rows (the payload of schedules a, b and d in shared/reference/schedules).
func.func @matmul_bias_relu(%A: tensor<61x47xf32>, %B: tensor<47x35xf32>,
                            %bias: tensor<35xf32>) -> tensor<61x35xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<61x35xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<61x35xf32>) -> tensor<61x35xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<61x47xf32>, tensor<47x35xf32>)
                      outs(%acc : tensor<61x35xf32>) -> tensor<61x35xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<61x35xf32>, tensor<35xf32>) outs(%init : tensor<61x35xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<61x35xf32>
  return %out : tensor<61x35xf32>
}
