// Differential case: tile_using_forall with a tile size and a thread count from handles to
// payload index values.
module attributes {transform.with_named_sequence} {
  func.func @f(%A: tensor<37x53xf32>, %C: tensor<37x53xf32>, %D: tensor<37x53xf32>) -> (tensor<37x53xf32>, tensor<37x53xf32>) {
    %c8 = arith.constant {size} 8 : index
    %c3 = arith.constant {threads} 3 : index
    %r = linalg.copy ins(%A : tensor<37x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    %s = linalg.copy {second} ins(%A : tensor<37x53xf32>) outs(%D : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r, %s : tensor<37x53xf32>, tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %first, %second = transform.split_handle %cp : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %size = transform.structured.match ops{["arith.constant"]} attributes{size} in %root : (!transform.any_op) -> !transform.any_op
    %threads = transform.structured.match ops{["arith.constant"]} attributes{threads} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %first tile_sizes [%size, 16] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %f2 = transform.structured.tile_using_forall %second num_threads [0, %threads] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
