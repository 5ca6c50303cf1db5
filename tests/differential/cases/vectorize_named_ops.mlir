// structured.vectorize on named ops through their generic form: matmul (broadcasting
// reads, mulf, multi_reduction), reduce, transpose, fill, copy, map, and a generic with
// linalg.index and a 0-d init.
module attributes {transform.with_named_sequence} {
  func.func @named(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %v: tensor<8xf32>,
                   %s: f32, %t: tensor<8x4xf32>, %e: tensor<4x8xf32>, %z: tensor<f32>)
      -> (tensor<4x16xf32>, tensor<8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = linalg.reduce { arith.maximumf } ins(%a : tensor<4x8xf32>) outs(%v : tensor<8xf32>) dimensions = [0]
    %2 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]
    %3 = linalg.fill ins(%s : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = linalg.copy ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %5 = linalg.map { math.exp } ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
    %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%z : tensor<f32>) {
    ^bb0(%x: f32, %o: f32):
      %i = linalg.index 1 : index
      %c2 = arith.constant 2 : index
      %j = arith.muli %i, %c2 : index
      %f = arith.constant 2.0 : f32
      %m = arith.mulf %x, %f : f32
      %r = arith.addf %m, %o : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    return %0, %1, %2, %3, %4, %5, %6 : tensor<4x16xf32>, tensor<8xf32>, tensor<8x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops : !transform.any_op
    transform.yield
  }
}
