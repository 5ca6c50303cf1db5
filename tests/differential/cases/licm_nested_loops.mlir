// apply_licm on a loop nest (inner loop first): pure speculatable ops move out.
module attributes {transform.with_named_sequence} {
  func.func @licm(%m: memref<?xf32>, %n: index, %x: f32, %y: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %n step %c1 {
      %a = arith.addf %x, %x : f32
      %b = arith.mulf %a, %x : f32
      %d = arith.divui %y, %c2 : index
      %e = arith.divui %c2, %y : index
      %l = memref.load %m[%d] : memref<?xf32>
      %s = arith.addf %b, %l : f32
      %k = arith.addi %i, %e : index
      memref.store %s, %m[%k] : memref<?xf32>
      scf.for %j = %c0 to %n step %c1 {
        %z = arith.mulf %x, %x : f32
        memref.store %z, %m[%j] : memref<?xf32>
      }
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_licm to %l : !transform.any_op
    transform.yield
  }
}
