// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// unroll_and_jam by 2: the step doubles; the ops before the inner loop and the inner
// loop's body each get a copy for iv + 1, the copies of the inner body jammed into one
// inner loop.
// CHECK-LABEL: func.func @jam
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[S:.*]] {
// CHECK-NEXT:      memref.store %{{.*}}, %{{.*}}[%[[I]]]
// CHECK-NEXT:      %[[O1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I1:.*]] = arith.addi %[[I]], %[[O1]] : index
// CHECK-NEXT:      memref.store %{{.*}}, %{{.*}}[%[[I1]]]
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[A:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        memref.store %[[A]], %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        %[[P1:.*]] = arith.constant 1 : index
// CHECK-NEXT:        %[[IJ1:.*]] = arith.addi %[[I]], %[[P1]] : index
// CHECK-NEXT:        %[[B:.*]] = memref.load %{{.*}}[%[[IJ1]], %[[J]]]
// CHECK-NEXT:        memref.store %[[B]], %{{.*}}[%[[IJ1]], %[[J]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @jam(%in: memref<4x5xf32>, %out: memref<4x5xf32>, %v: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %x, %v[%i] : memref<4xf32>
    scf.for %j = %c0 to %c5 step %c1 {
      %a = memref.load %in[%i, %j] : memref<4x5xf32>
      memref.store %a, %out[%i, %j] : memref<4x5xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %st = transform.structured.match ops{["memref.store"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %first, %second = transform.split_handle %st : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %outer = transform.get_parent_op %first <op_name = "scf.for"> : (!transform.any_op) -> !transform.op<"scf.for">
    transform.loop.unroll_and_jam %outer factor = 2 : !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// unroll_full: three iterations become three copies, the loop gone.
// CHECK-LABEL: func.func @full
// CHECK-NOT:     scf.for
// CHECK-COUNT-3: memref.store %
// CHECK-NOT:     memref.store %
func.func @full(%m: memref<9xf32>, %x: f32) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  scf.for %i = %c1 to %c9 step %c3 {
    memref.store %x, %m[%i] : memref<9xf32>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %st = transform.structured.match ops{["memref.store"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %loop = transform.get_parent_op %st <op_name = "scf.for"> : (!transform.any_op) -> !transform.op<"scf.for">
    transform.loop.unroll_full %loop : !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// The inner loop's bounds depend on the outer induction variable: no unroll and jam.
func.func @variant(%m: memref<8x8xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      memref.store %x, %m[%i, %j] : memref<8x8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %st = transform.structured.match ops{["memref.store"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %inner = transform.get_parent_op %st <op_name = "scf.for"> : (!transform.any_op) -> !transform.op<"scf.for">
    %outer = transform.get_parent_op %inner <op_name = "scf.for"> : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    // expected-error @below {{failed to unroll and jam}}
    transform.loop.unroll_and_jam %outer factor = 2 : !transform.op<"scf.for">
    transform.yield
  }
}
