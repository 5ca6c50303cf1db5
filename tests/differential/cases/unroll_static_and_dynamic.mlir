// loop.unroll by 4: static trip count 10 (remainder loop) and dynamic bounds.
module attributes {transform.with_named_sequence} {
func.func @f(%m: memref<?xf32>, %lb: index, %ub: index, %v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %s = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %v) -> (f32) {
    %x = memref.load %m[%i] : memref<?xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  scf.for %i = %lb to %ub step %c1 {
    memref.store %s, %m[%i] : memref<?xf32>
  }
  return %s : f32
}
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %l factor = 4 : !transform.any_op
    transform.yield
  }
}
