// Differential case: num_threads [6, 64] on 10 rows (affine.max guard for the last threads) and [7, 0] on 100 rows of a dynamic tensor.
module attributes {transform.with_named_sequence} {
  func.func @f(%A: tensor<10x64xf32>, %C: tensor<10x64xf32>) -> tensor<10x64xf32> {
    %r = linalg.copy ins(%A : tensor<10x64xf32>) outs(%C : tensor<10x64xf32>) -> tensor<10x64xf32>
    return %r : tensor<10x64xf32>
  }
  func.func @g(%A: tensor<100x?xf32>, %C: tensor<100x?xf32>) -> tensor<100x?xf32> {
    %r = linalg.copy {tag} ins(%A : tensor<100x?xf32>) outs(%C : tensor<100x?xf32>) -> tensor<100x?xf32>
    return %r : tensor<100x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %f1, %f2 = transform.split_handle %f : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm1 = transform.structured.match ops{["linalg.copy"]} in %f1 : (!transform.any_op) -> !transform.any_op
    %mm2 = transform.structured.match ops{["linalg.copy"]} in %f2 : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %mm1 num_threads [6, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %l2 = transform.structured.tile_using_forall %mm2 num_threads [7, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
