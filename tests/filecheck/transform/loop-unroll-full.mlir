// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A constant trip count (3): three copies of the body chained through the iter_arg, no loop.
// CHECK-LABEL: func.func @full
// CHECK-NOT:     scf.for
// CHECK:         %[[A:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[B:.*]] = arith.addf %[[A]], %{{.*}} : f32
// CHECK:         %[[C:.*]] = arith.addf %[[B]], %{{.*}} : f32
// CHECK:         return %[[C]] : f32
module attributes {transform.with_named_sequence} {
  func.func @full(%A: memref<3xf32>, %v: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %v) -> (f32) {
      %x = memref.load %A[%i] : memref<3xf32>
      %y = arith.addf %acc, %x : f32
      scf.yield %y : f32
    }
    return %s : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll_full %l : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @dynamic(%A: memref<?xf32>, %n: index, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      memref.store %v, %A[%i] : memref<?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to fully unroll}}
    transform.loop.unroll_full %l : !transform.any_op
    transform.yield
  }
}
