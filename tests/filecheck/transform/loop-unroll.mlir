// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A trip count (10) that the factor (4) does not divide: the unrolled loop covers
// 0..8 with step 4 and chains the iter_arg through the copies; the remainder loop runs
// 8..10 with the original step, starting from the unrolled loop's result.
// CHECK-LABEL: func.func @static_remainder
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[MAIN:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C8]] step %[[C4]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:      %[[L0:.*]] = memref.load %{{.*}}[%[[I]]]
// CHECK-NEXT:      %[[S0:.*]] = arith.addf %[[ACC]], %[[L0]] : f32
// CHECK-NEXT:      %[[K1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[O1:.*]] = arith.muli %[[C1]], %[[K1]] : index
// CHECK-NEXT:      %[[I1:.*]] = arith.addi %[[I]], %[[O1]] : index
// CHECK-NEXT:      %[[L1:.*]] = memref.load %{{.*}}[%[[I1]]]
// CHECK-NEXT:      %[[S1:.*]] = arith.addf %[[S0]], %[[L1]] : f32
// CHECK:           %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} : f32
// CHECK:           %[[S3:.*]] = arith.addf %[[S2]], %{{.*}} : f32
// CHECK-NEXT:      scf.yield %[[S3]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[REM:.*]] = scf.for %{{.*}} = %[[C8]] to %[[C10]] step %[[C1]] iter_args(%{{.*}} = %[[MAIN]]) -> (f32) {
// CHECK:         return %[[REM]] : f32
module attributes {transform.with_named_sequence} {
  func.func @static_remainder(%m: memref<?xf32>, %v: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %s = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %v) -> (f32) {
      %x = memref.load %m[%i] : memref<?xf32>
      %y = arith.addf %acc, %x : f32
      scf.yield %y : f32
    }
    return %s : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %l factor = 4 : !transform.any_op
    transform.yield
  }
}

// -----

// Dynamic bounds: the unrolled upper bound is lb + (n - n mod 4) * step, computed with
// arith ops before the loop, and a remainder loop follows.
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[DIFF:.*]] = arith.subi %[[UB:.*]], %[[LB:.*]] : index
// CHECK:         %[[N:.*]] = arith.divui
// CHECK:         %[[R:.*]] = arith.remsi %[[N]], %[[F:.*]] : index
// CHECK:         %[[E:.*]] = arith.subi %[[N]], %[[R]] : index
// CHECK:         %[[SC:.*]] = arith.muli %[[E]], %{{.*}} : index
// CHECK:         %[[UBU:.*]] = arith.addi %[[LB]], %[[SC]] : index
// CHECK:         %[[ST:.*]] = arith.muli %{{.*}}, %[[F]] : index
// CHECK:         scf.for %{{.*}} = %[[LB]] to %[[UBU]] step %[[ST]] {
// CHECK-COUNT-4:   memref.store
// CHECK:         scf.for %{{.*}} = %[[UBU]] to %[[UB]] step %{{.*}} {
// CHECK-NEXT:      memref.store
module attributes {transform.with_named_sequence} {
  func.func @dynamic(%m: memref<?xf32>, %lb: index, %ub: index, %v: f32) {
    %c1 = arith.constant 1 : index
    scf.for %i = %lb to %ub step %c1 {
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %l factor = 4 : !transform.any_op
    transform.yield
  }
}

// -----

// A factor that divides the trip count needs no remainder; an unrolled loop left with
// one iteration is inlined (6 iterations, factor 6).
// CHECK-LABEL: func.func @divisible_and_full
// CHECK-NOT:     scf.for
// CHECK-COUNT-6: memref.store
// CHECK-NOT:     scf.for
// CHECK:         return
module attributes {transform.with_named_sequence} {
  func.func @divisible_and_full(%m: memref<?xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c12 = arith.constant 12 : index
    scf.for %i = %c0 to %c12 step %c2 {
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %l factor = 6 : !transform.any_op
    transform.yield
  }
}

// -----

// The handle is consumed.
module attributes {transform.with_named_sequence} {
  func.func @consumed(%m: memref<?xf32>, %v: f32, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @below {{ancestor payload op}}
    // expected-note @below {{nested payload op}}
    scf.for %i = %c0 to %n step %c1 {
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0}}
    transform.loop.unroll %l factor = 2 : !transform.any_op
    // expected-error @below {{op uses a handle invalidated by a previously executed transform op}}
    transform.annotate %l "x" : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_a_loop() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to unroll, incorrect type of payload}}
    transform.loop.unroll %f factor = 2 : !transform.any_op
    transform.yield
  }
}
