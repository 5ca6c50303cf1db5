// The maximum of every row with linalg.reduce, starting from -inf.
func.func @row_max(%x: tensor<45x77xf32>) -> tensor<45xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %init = tensor.empty() : tensor<45xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%init : tensor<45xf32>) -> tensor<45xf32>
  %m = linalg.reduce ins(%x : tensor<45x77xf32>) outs(%acc : tensor<45xf32>) dimensions = [1]
    (%in: f32, %cur: f32) {
      %r = arith.maximumf %in, %cur : f32
      linalg.yield %r : f32
    }
  return %m : tensor<45xf32>
}
