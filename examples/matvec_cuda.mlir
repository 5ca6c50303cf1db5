// Matrix-vector product y = A x of a 1000x999 f32 matrix on the GPU (linalg.matvec: a
// reduction over the rows of A).
// Run: schedir-run examples/matvec_cuda.mlir --schedule schedules/matvec_cuda.mlir
//          --target cuda --check
func.func @matvec(%a: tensor<1000x999xf32>, %x: tensor<999xf32>) -> tensor<1000xf32> {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<1000xf32>
  %init = linalg.fill ins(%zero : f32) outs(%rows : tensor<1000xf32>) -> tensor<1000xf32>
  %y = linalg.matvec ins(%a, %x : tensor<1000x999xf32>, tensor<999xf32>)
                     outs(%init : tensor<1000xf32>) -> tensor<1000xf32>
  return %y : tensor<1000xf32>
}
