// Differential case from tests/filecheck/transform/structured-fuse.mlir (@through_iter_args).
// The matmul's init slice is a slice of the loops' iter_args: followed back to the fill,
// which is computed in the iter_arg's tile; the loops start from the fill's destination
// and the fill, now unused, is erased.
module attributes {transform.with_named_sequence} {
  func.func @through_iter_args(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>) -> tensor<37x53xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<37x53xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%acc : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %mm : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.fuse %mm tile_sizes [8, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
