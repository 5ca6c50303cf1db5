// Row softmax of a 1000x999 f16 matrix on the GPU, f16 in and out with f32 math: the
// decomposed form of linalg.softmax (row max, exp(x - max), row sum, division) with the
// input widened (arith.extf) where it is read and the result narrowed (arith.truncf)
// where it is written.
// Run: schedir-run examples/softmax_f16_cuda.mlir --schedule schedules/softmax_f16_cuda.mlir
//          --target cuda --check
#xy = affine_map<(i, j) -> (i, j)>
#x = affine_map<(i, j) -> (i)>
func.func @softmax_f16(%in: tensor<1000x999xf16>) -> tensor<1000x999xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<1000xf32>
  %max0 = linalg.fill ins(%ninf : f32) outs(%rows : tensor<1000xf32>) -> tensor<1000xf32>
  %max = linalg.generic {indexing_maps = [#xy, #x], iterator_types = ["parallel", "reduction"]}
      ins(%in : tensor<1000x999xf16>) outs(%max0 : tensor<1000xf32>) {
  ^bb0(%v: f16, %m: f32):
    %w = arith.extf %v : f16 to f32
    %r = arith.maxnumf %m, %w : f32
    linalg.yield %r : f32
  } -> tensor<1000xf32>
  %e0 = tensor.empty() : tensor<1000x999xf32>
  %exp = linalg.generic {indexing_maps = [#xy, #x, #xy], iterator_types = ["parallel", "parallel"]}
      ins(%in, %max : tensor<1000x999xf16>, tensor<1000xf32>) outs(%e0 : tensor<1000x999xf32>) {
  ^bb0(%v: f16, %m: f32, %o: f32):
    %w = arith.extf %v : f16 to f32
    %d = arith.subf %w, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<1000x999xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%rows : tensor<1000xf32>) -> tensor<1000xf32>
  %sum = linalg.generic {indexing_maps = [#xy, #x], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<1000x999xf32>) outs(%sum0 : tensor<1000xf32>) {
  ^bb0(%e: f32, %s: f32):
    %a = arith.addf %s, %e : f32
    linalg.yield %a : f32
  } -> tensor<1000xf32>
  %y0 = tensor.empty() : tensor<1000x999xf16>
  %y = linalg.generic {indexing_maps = [#xy, #x, #xy], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<1000x999xf32>, tensor<1000xf32>) outs(%y0 : tensor<1000x999xf16>) {
  ^bb0(%e: f32, %s: f32, %o: f16):
    %q = arith.divf %e, %s : f32
    %h = arith.truncf %q : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1000x999xf16>
  return %y : tensor<1000x999xf16>
}
