// An elementwise chain on the GPU, y = tanh(a * b + c) * exp(-a), written as two
// linalg.generic ops (the schedule fuses the first into the second's tiles).
// Run: schedir-run examples/elementwise_cuda.mlir --schedule schedules/elementwise_cuda.mlir
//          --target cuda --check
#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%a: tensor<1001x777xf32>, %b: tensor<1001x777xf32>, %c: tensor<1001x777xf32>)
    -> tensor<1001x777xf32> {
  %init = tensor.empty() : tensor<1001x777xf32>
  %t = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<1001x777xf32>, tensor<1001x777xf32>, tensor<1001x777xf32>)
      outs(%init : tensor<1001x777xf32>) {
  ^bb0(%x: f32, %w: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %m, %z : f32
    linalg.yield %s : f32
  } -> tensor<1001x777xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %a : tensor<1001x777xf32>, tensor<1001x777xf32>) outs(%init : tensor<1001x777xf32>) {
  ^bb0(%s: f32, %x: f32, %o: f32):
    %th = math.tanh %s : f32
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %r = arith.mulf %th, %e : f32
    linalg.yield %r : f32
  } -> tensor<1001x777xf32>
  return %y : tensor<1001x777xf32>
}
