// Differential case from tests/filecheck/transform/structured-tile-using-forall.mlir (@num_threads_every_tile_full).
// 100 rows on 7 threads: tiles of 15, the last one 10; every thread starts inside, so no
// affine.max. Then 8 columns on 4 threads divide exactly: no min either (nested forall).
module attributes {transform.with_named_sequence} {
  func.func @num_threads_every_tile_full(%A: tensor<100x8xf32>, %C: tensor<100x8xf32>) -> tensor<100x8xf32> {
    %r = linalg.copy ins(%A : tensor<100x8xf32>) outs(%C : tensor<100x8xf32>) -> tensor<100x8xf32>
    return %r : tensor<100x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %cp num_threads [7] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %f2 = transform.structured.tile_using_forall %t num_threads [0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
