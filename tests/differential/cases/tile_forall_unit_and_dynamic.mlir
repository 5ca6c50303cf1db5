// Differential case: tile_using_forall with a tile of 1 (no normalization of that dim) and on a dynamic dimension (trip count affine.apply).
module attributes {transform.with_named_sequence} {
  func.func @f(%A: tensor<10x64xf32>, %C: tensor<10x64xf32>) -> tensor<10x64xf32> {
    %r = linalg.copy ins(%A : tensor<10x64xf32>) outs(%C : tensor<10x64xf32>) -> tensor<10x64xf32>
    return %r : tensor<10x64xf32>
  }
  func.func @g(%A: tensor<?x?xf32>, %C: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %r = linalg.copy {tag} ins(%A : tensor<?x?xf32>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %f1, %f2 = transform.split_handle %f : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm1 = transform.structured.match ops{["linalg.copy"]} in %f1 : (!transform.any_op) -> !transform.any_op
    %mm2 = transform.structured.match ops{["linalg.copy"]} in %f2 : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %mm1 tile_sizes [1, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %l2 = transform.structured.tile_using_forall %mm2 tile_sizes [0, 7] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
