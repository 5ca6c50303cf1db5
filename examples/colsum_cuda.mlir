// Column sums of a 999x1000 f32 matrix on the GPU (a reduction over the outer dimension).
// Run: schedir-run examples/colsum_cuda.mlir --schedule schedules/colsum_cuda.mlir
//          --target cuda --check
#xy = affine_map<(i, j) -> (i, j)>
#y = affine_map<(i, j) -> (j)>
func.func @colsum(%in: tensor<999x1000xf32>) -> tensor<1000xf32> {
  %zero = arith.constant 0.0 : f32
  %cols = tensor.empty() : tensor<1000xf32>
  %init = linalg.fill ins(%zero : f32) outs(%cols : tensor<1000xf32>) -> tensor<1000xf32>
  %sum = linalg.generic {indexing_maps = [#xy, #y], iterator_types = ["reduction", "parallel"]}
      ins(%in : tensor<999x1000xf32>) outs(%init : tensor<1000xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  return %sum : tensor<1000xf32>
}
