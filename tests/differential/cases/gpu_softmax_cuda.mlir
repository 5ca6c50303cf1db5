// Row softmax of a 1000x999 f32 matrix on the GPU (linalg.softmax over the rows).
// Run: schedir-run examples/softmax_cuda.mlir --schedule schedules/softmax_cuda.mlir
//          --target cuda --check
func.func @softmax(%x: tensor<1000x999xf32>) -> tensor<1000x999xf32> {
  %init = tensor.empty() : tensor<1000x999xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<1000x999xf32>)
                                   outs(%init : tensor<1000x999xf32>) -> tensor<1000x999xf32>
  return %y : tensor<1000x999xf32>
}
