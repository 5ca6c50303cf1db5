// Differential case from tests/filecheck/transform/structured-fuse.mlir (@param_size_and_cleanup).
// A size from a param; apply_cleanup folds the identity slice of %B away.
module attributes {transform.with_named_sequence} {
  func.func @param_size_and_cleanup(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>) -> tensor<37x53xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<37x53xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%acc : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %mm : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 8 : i64 -> !transform.param<i64>
    %t, %l = transform.structured.fuse %mm tile_sizes [%p, 0] apply_cleanup : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
