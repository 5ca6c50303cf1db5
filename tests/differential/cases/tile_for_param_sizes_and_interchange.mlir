// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@param_sizes_and_interchange).
// A size from a param; interchange [1, 0] makes the n loop the outer one.
module attributes {transform.with_named_sequence} {
  func.func @param_sizes_and_interchange(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 16 : i64 -> !transform.param<i64>
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [8, %p] interchange = [1, 0] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
