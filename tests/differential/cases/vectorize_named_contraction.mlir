// structured.vectorize create_named_contraction: a matmul becomes one vector.contract on
// reads in the operands' own shapes (zero padding), masked for larger vector sizes.
module attributes {transform.with_named_sequence} {
  func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  func.func @mmp(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>, %c: tensor<5x3xf32>) -> tensor<5x3xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%c : tensor<5x3xf32>) -> tensor<5x3xf32>
    return %r : tensor<5x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %m1, %m2 = transform.split_handle %m : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %m1 create_named_contraction : !transform.any_op
    transform.structured.vectorize %m2 vector_sizes [8, 4, 8] create_named_contraction : !transform.any_op
    transform.yield
  }
}
