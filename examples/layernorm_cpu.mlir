// Layer normalization over the rows of a 4096x1024 f32 matrix on the CPU:
// y = (x - mean) * rsqrt(var + 1e-5) * gamma + beta, mean and var per row, written as two
// row reductions (sum, sum of squared deviations) and one elementwise generic.
// Run: schedir-run examples/layernorm_cpu.mlir --schedule schedules/layernorm_cpu.mlir --check
#xy = affine_map<(i, j) -> (i, j)>
#x = affine_map<(i, j) -> (i)>
#y = affine_map<(i, j) -> (j)>
func.func @layernorm(%in: tensor<4096x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>)
    -> tensor<4096x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %rows = tensor.empty() : tensor<4096xf32>
  %init = tensor.empty() : tensor<4096x1024xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%rows : tensor<4096xf32>) -> tensor<4096xf32>
  %sum = linalg.generic {indexing_maps = [#xy, #x], iterator_types = ["parallel", "reduction"]}
      ins(%in : tensor<4096x1024xf32>) outs(%sum0 : tensor<4096xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  %sq0 = linalg.fill ins(%zero : f32) outs(%rows : tensor<4096xf32>) -> tensor<4096xf32>
  %sq = linalg.generic {indexing_maps = [#xy, #x, #x], iterator_types = ["parallel", "reduction"]}
      ins(%in, %sum : tensor<4096x1024xf32>, tensor<4096xf32>) outs(%sq0 : tensor<4096xf32>) {
  ^bb0(%v: f32, %s: f32, %acc: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %v, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %acc, %d2 : f32
    linalg.yield %a : f32
  } -> tensor<4096xf32>
  %out = linalg.generic {indexing_maps = [#xy, #x, #x, #y, #y, #xy],
                         iterator_types = ["parallel", "parallel"]}
      ins(%in, %sum, %sq, %gamma, %beta
          : tensor<4096x1024xf32>, tensor<4096xf32>, tensor<4096xf32>, tensor<1024xf32>, tensor<1024xf32>)
      outs(%init : tensor<4096x1024xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32, %g: f32, %b: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %v, %mean : f32
    %nd = arith.mulf %d, %r : f32
    %sc = arith.mulf %nd, %g : f32
    %y = arith.addf %sc, %b : f32
    linalg.yield %y : f32
  } -> tensor<4096x1024xf32>
  return %out : tensor<4096x1024xf32>
}
