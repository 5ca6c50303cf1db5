// apply_dce: dead ops go; a handle to an erased op becomes empty (annotate is a no-op).
module attributes {transform.with_named_sequence} {
  func.func @dce(%m: memref<?xf32>, %n: index, %x: f32, %t: tensor<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = arith.addf %x, %x : f32
    %b = arith.mulf %a, %x : f32
    %l = memref.load %m[%c0] : memref<?xf32>
    %al = memref.alloc(%n) : memref<?xf32>
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
      %q = arith.addf %acc, %x : f32
      scf.yield %q : f32
    }
    %al2 = memref.alloc(%n) : memref<?xf32>
    memref.store %x, %al2[%c0] : memref<?xf32>
    return %x : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.structured.match ops{["arith.mulf"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_dce to %f : !transform.any_op
    transform.annotate %m "kept" : !transform.any_op
    transform.yield
  }
}
