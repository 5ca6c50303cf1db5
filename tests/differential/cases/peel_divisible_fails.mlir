// transform.loop.peel on a loop whose step divides its range fails silenceably.
module attributes {transform.with_named_sequence} {
  func.func @divisible(%m: memref<?xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c12 = arith.constant 12 : index
    scf.for %i = %c0 to %c12 step %c4 {
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %main, %partial = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
