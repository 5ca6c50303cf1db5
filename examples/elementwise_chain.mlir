// A fused elementwise chain, y = tanh(a * b + c) * exp(-a), written with linalg.map.
func.func @chain(%a: tensor<129x67xf32>, %b: tensor<129x67xf32>, %c: tensor<129x67xf32>)
    -> tensor<129x67xf32> {
  %init = tensor.empty() : tensor<129x67xf32>
  %y = linalg.map ins(%a, %b, %c : tensor<129x67xf32>, tensor<129x67xf32>, tensor<129x67xf32>)
                  outs(%init : tensor<129x67xf32>)
    (%x: f32, %w: f32, %z: f32, %o: f32) {
      %m = arith.mulf %x, %w : f32
      %s = arith.addf %m, %z : f32
      %t = math.tanh %s : f32
      %n = arith.negf %x : f32
      %e = math.exp %n : f32
      %r = arith.mulf %t, %e : f32
      linalg.yield %r : f32
    }
  return %y : tensor<129x67xf32>
}
