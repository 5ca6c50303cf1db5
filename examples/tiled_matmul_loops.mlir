// A matmul tiled by hand in the payload: an scf.for over row blocks of 16 carries the
// result tensor, extracts a (possibly partial) block of rows with affine.min, multiplies
// it and inserts it back: what a tile_using_for schedule produces.
#rows = affine_map<(i) -> (16, 50 - i)>
func.func @tiled(%A: tensor<50x23xf32>, %B: tensor<23x31xf32>, %C: tensor<50x31xf32>)
    -> tensor<50x31xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c50 = arith.constant 50 : index
  %r = scf.for %i = %c0 to %c50 step %c16 iter_args(%acc = %C) -> (tensor<50x31xf32>) {
    %n = affine.min #rows(%i)
    %a = tensor.extract_slice %A[%i, 0] [%n, 23] [1, 1] : tensor<50x23xf32> to tensor<?x23xf32>
    %c = tensor.extract_slice %acc[%i, 0] [%n, 31] [1, 1] : tensor<50x31xf32> to tensor<?x31xf32>
    %p = linalg.matmul ins(%a, %B : tensor<?x23xf32>, tensor<23x31xf32>)
                       outs(%c : tensor<?x31xf32>) -> tensor<?x31xf32>
    %u = tensor.insert_slice %p into %acc[%i, 0] [%n, 31] [1, 1] : tensor<?x31xf32> into tensor<50x31xf32>
    scf.yield %u : tensor<50x31xf32>
  }
  return %r : tensor<50x31xf32>
}
