// loop.forall_to_for on a bufferized forall with mixed static/dynamic bounds.
module attributes {transform.with_named_sequence} {
func.func @g(%m: memref<8x16xf32>, %v: f32, %n: index) {
  scf.forall (%i, %j) = (0, 1) to (%n, 16) step (2, 3) {
    memref.store %v, %m[%i, %j] : memref<8x16xf32>
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  return
}
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.loop.forall_to_for %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %a "outer" : !transform.any_op

    transform.yield
  }
}
