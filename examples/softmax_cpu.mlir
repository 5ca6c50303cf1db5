// Row softmax of a 4096x1024 f32 matrix on the CPU (linalg.softmax over the rows).
// Run: schedir-run examples/softmax_cpu.mlir --schedule schedules/softmax_cpu.mlir --check
func.func @softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %init = tensor.empty() : tensor<4096x1024xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4096x1024xf32>)
                                   outs(%init : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
