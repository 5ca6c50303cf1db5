// An elementwise chain on the CPU, y = swish(a * b + c) = t / (1 + exp(-t)) with
// t = a * b + c, written as two linalg.generic ops (the schedule fuses the first into the
// second's tiles).
// Run: schedir-run examples/elementwise_cpu.mlir --schedule schedules/elementwise_cpu.mlir --check
#id = affine_map<(i, j) -> (i, j)>
func.func @swish(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>)
    -> tensor<2048x2048xf32> {
  %tmp = tensor.empty() : tensor<2048x2048xf32>
  %init = tensor.empty() : tensor<2048x2048xf32>
  %t = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<2048x2048xf32>, tensor<2048x2048xf32>, tensor<2048x2048xf32>)
      outs(%tmp : tensor<2048x2048xf32>) {
  ^bb0(%x: f32, %w: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %m, %z : f32
    linalg.yield %s : f32
  } -> tensor<2048x2048xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<2048x2048xf32>) outs(%init : tensor<2048x2048xf32>) {
  ^bb0(%s: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %s : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %s, %d : f32
    linalg.yield %r : f32
  } -> tensor<2048x2048xf32>
  return %y : tensor<2048x2048xf32>
}
