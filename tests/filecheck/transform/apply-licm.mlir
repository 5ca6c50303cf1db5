// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Loop-invariant, side-effect free, speculatable ops move out; a division by a value
// that may be zero and reads of memory stay. Inner loops come first in the handle
// (post-order), so an op hoisted from the inner loop is hoisted again from the outer.
// CHECK-LABEL: func.func @licm
// CHECK:         %[[A:.*]] = arith.addf
// CHECK-NEXT:    %[[B:.*]] = arith.mulf %[[A]]
// CHECK-NEXT:    %[[D:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[Z:.*]] = arith.mulf
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.divui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      memref.load %{{.*}}[%[[D]]]
// CHECK:           scf.for
// CHECK-NEXT:        memref.store %[[Z]]
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

// -----

// scf.forall is loop-like too.
// CHECK-LABEL: func.func @forall
// CHECK:         arith.mulf
// CHECK-NEXT:    scf.forall
module attributes {transform.with_named_sequence} {
  func.func @forall(%m: memref<8xf32>, %x: f32) {
    scf.forall (%i) in (8) {
      %z = arith.mulf %x, %x : f32
      memref.store %z, %m[%i] : memref<8xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_licm to %l : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{when applied to this op}}
  func.func @not_a_loop() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform applied to the wrong op kind}}
    transform.apply_licm to %f : !transform.any_op
    transform.yield
  }
}
