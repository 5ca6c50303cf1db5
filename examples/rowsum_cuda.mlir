// Row sums of a 1000x999 f32 matrix on the GPU (a reduction over the inner dimension).
// Run: schedir-run examples/rowsum_cuda.mlir --schedule schedules/rowsum_cuda.mlir
//          --target cuda --check
#xy = affine_map<(i, j) -> (i, j)>
#x = affine_map<(i, j) -> (i)>
func.func @rowsum(%in: tensor<1000x999xf32>) -> tensor<1000xf32> {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<1000xf32>
  %init = linalg.fill ins(%zero : f32) outs(%rows : tensor<1000xf32>) -> tensor<1000xf32>
  %sum = linalg.generic {indexing_maps = [#xy, #x], iterator_types = ["parallel", "reduction"]}
      ins(%in : tensor<1000x999xf32>) outs(%init : tensor<1000xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  return %sum : tensor<1000xf32>
}
