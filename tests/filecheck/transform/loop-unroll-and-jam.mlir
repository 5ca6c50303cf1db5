// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Jam by 2: the step doubles, each run of non-loop ops is repeated in place with
// iv + 1, and the reduction loop carries one accumulator per copy.
// CHECK-LABEL: func.func @jam
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[TWO:.*]] {
// CHECK-NEXT:      %[[X0:.*]] = memref.load %{{.*}}[%[[I]], %{{.*}}]
// CHECK-NEXT:      %[[K:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I1:.*]] = arith.addi %[[I]], %[[K]] : index
// CHECK-NEXT:      %[[X1:.*]] = memref.load %{{.*}}[%[[I1]], %{{.*}}]
// CHECK-NEXT:      %[[S:.*]], %[[S1:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[A0:.*]] = %[[X0]], %[[A1:.*]] = %[[X1]]) -> (f32, f32) {
// CHECK-NEXT:        memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        %[[T0:.*]] = arith.addf %[[A0]]
// CHECK:             arith.addi %[[I]]
// CHECK-NEXT:        memref.load
// CHECK-NEXT:        %[[T1:.*]] = arith.addf %[[A1]]
// CHECK-NEXT:        scf.yield %[[T0]], %[[T1]] : f32, f32
// CHECK:           memref.store %[[S]], %{{.*}}[%[[I]], %{{.*}}]
// CHECK:           memref.store %[[S1]]
module attributes {transform.with_named_sequence} {
  func.func @jam(%A: memref<8x5xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %x = memref.load %A[%i, %c0] : memref<8x5xf32>
      %s = scf.for %j = %c0 to %c5 step %c1 iter_args(%acc = %x) -> (f32) {
        %y = memref.load %A[%i, %j] : memref<8x5xf32>
        %t = arith.addf %acc, %y : f32
        scf.yield %t : f32
      }
      memref.store %s, %A[%i, %c1] : memref<8x5xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %st = transform.structured.match ops{["memref.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.get_parent_op %st <op_name = "scf.for"> : (!transform.any_op) -> !transform.op<"scf.for">
    transform.loop.unroll_and_jam %l factor = 2 : !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A factor above the trip count (3) is clamped to it: the loop runs once and is inlined.
// CHECK-LABEL: func.func @clamped
// CHECK-NOT:     scf.for
// CHECK-COUNT-3: memref.store
// CHECK-NOT:     memref.store
module attributes {transform.with_named_sequence} {
  func.func @clamped(%A: memref<3xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    scf.for %i = %c0 to %c3 step %c1 {
      memref.store %v, %A[%i] : memref<3xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll_and_jam %l factor = 8 : !transform.any_op
    transform.yield
  }
}

// -----

// An inner loop whose bound is computed inside the loop cannot be jammed.
module attributes {transform.with_named_sequence} {
  func.func @variant_inner_bound(%A: memref<4x4xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %i step %c1 {
        memref.store %v, %A[%i, %j] : memref<4x4xf32>
      }
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %st = transform.structured.match ops{["memref.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %inner = transform.get_parent_op %st <op_name = "scf.for"> : (!transform.any_op) -> !transform.any_op
    %outer = transform.get_parent_op %inner <op_name = "scf.for"> : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to unroll and jam}}
    transform.loop.unroll_and_jam %outer factor = 2 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_a_loop(%v: f32) -> f32 {
    %0 = arith.addf %v, %v : f32
    return %0 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to unroll and jam, incorrect type of payload}}
    transform.loop.unroll_and_jam %a factor = 2 : !transform.any_op
    transform.yield
  }
}
