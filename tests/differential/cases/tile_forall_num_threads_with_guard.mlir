// Differential case from tests/filecheck/transform/structured-tile-using-forall.mlir (@num_threads_with_guard).
// num_threads: 10 rows on 6 threads, tile ceildiv(10, 6) = 2; thread 5 starts at 10, so
// the size is clamped with affine.max (upstream's guard for the last threads). A 0 entry
// gives no forall dimension, so the mapping has one entry.
module attributes {transform.with_named_sequence} {
  func.func @num_threads_with_guard(%A: tensor<10x64xf32>, %C: tensor<10x64xf32>) -> tensor<10x64xf32> {
    %r = linalg.copy ins(%A : tensor<10x64xf32>) outs(%C : tensor<10x64xf32>) -> tensor<10x64xf32>
    return %r : tensor<10x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %cp num_threads [6, 0] (mapping = [#gpu.thread<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
