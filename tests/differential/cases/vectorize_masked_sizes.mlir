// structured.vectorize with vector_sizes: a dynamic elementwise op with a broadcast
// operand (masks from tensor.dim, one per operand map), a dynamic row reduction (masked
// multi_reduction), a static partial matmul with larger sizes, and a tensor.pad.
module attributes {transform.with_named_sequence} {
  func.func @masked(%a: tensor<?x?xf32>, %b: tensor<?xf32>, %c: tensor<?x?xf32>, %r: tensor<?xf32>,
                    %ma: tensor<5x7xf32>, %mb: tensor<7x3xf32>, %mc: tensor<5x3xf32>, %p: tensor<5x6xf32>)
      -> (tensor<?x?xf32>, tensor<?xf32>, tensor<5x3xf32>, tensor<8x8xf32>) {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%c : tensor<?x?xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<?x?xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<?x?xf32>) outs(%r : tensor<?xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %o : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    %2 = linalg.matmul ins(%ma, %mb : tensor<5x7xf32>, tensor<7x3xf32>) outs(%mc : tensor<5x3xf32>) -> tensor<5x3xf32>
    %cst = arith.constant 1.0 : f32
    %3 = tensor.pad %p low[0, 0] high[3, 2] {
    ^bb0(%i: index, %j: index):
      tensor.yield %cst : f32
    } : tensor<5x6xf32> to tensor<8x8xf32>
    return %0, %1, %2, %3 : tensor<?x?xf32>, tensor<?xf32>, tensor<5x3xf32>, tensor<8x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g vector_sizes [4, 8] : !transform.any_op
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %m vector_sizes [8, 4, 8] : !transform.any_op
    %p = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %p vector_sizes [8, 8] : !transform.any_op
    transform.yield
  }
}
