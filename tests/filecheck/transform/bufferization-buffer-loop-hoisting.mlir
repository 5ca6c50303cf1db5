// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Allocations leave the sequential loops they do not depend on (upstream's
// transform-ops.mlir case, plus allocs): out of both loops when the sizes are defined
// outside them, only out of the inner one when a size is the outer induction variable.
// CHECK-LABEL: func.func @buffer_loop_hoisting
// CHECK-SAME:  (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index, %[[F:.*]]: f32, %[[POS:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG:   %[[A:.*]] = memref.alloca() : memref<5xf32>
// CHECK-DAG:   %[[B:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK:       scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK:         %[[C:.*]] = memref.alloc(%[[I]]) : memref<?xf32>
// CHECK:         scf.for
// CHECK:           memref.store %[[F]], %[[A]][%[[POS]]]
// CHECK:           memref.store %[[F]], %[[B]][%[[POS]]]
// CHECK:           memref.store %[[F]], %[[C]][%[[POS]]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.bufferization.buffer_loop_hoisting %0 : !transform.any_op
    transform.yield
  }
  func.func @buffer_loop_hoisting(%lb: index, %ub: index, %step: index, %f: f32, %pos: index, %n: index) {
    scf.for %iv = %lb to %ub step %step {
      scf.for %iv2 = %lb to %ub step %step {
        %0 = memref.alloca() : memref<5xf32>
        memref.store %f, %0[%pos] : memref<5xf32>
        %1 = memref.alloc(%n) : memref<?xf32>
        memref.store %f, %1[%pos] : memref<?xf32>
        %2 = memref.alloc(%iv) : memref<?xf32>
        memref.store %f, %2[%pos] : memref<?xf32>
      }
    }
    return
  }
}

// -----

// A parallel loop (each iteration needs its own buffer), a branch, and a buffer carried
// around the loop's back edge keep their allocations in place.
// CHECK-LABEL: func.func @not_hoisted
// CHECK:       scf.forall
// CHECK-NEXT:    memref.alloc() : memref<5xf32>
// CHECK:       scf.for
// CHECK:         scf.if
// CHECK-NEXT:      memref.alloc() : memref<5xf32>
// CHECK:       scf.for
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() : memref<5xf32>
// CHECK:         scf.yield %[[Y]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.bufferization.buffer_loop_hoisting %0 : !transform.any_op
    transform.yield
  }
  func.func @not_hoisted(%lb: index, %ub: index, %step: index, %f: f32, %pos: index, %c: i1, %init: memref<5xf32>) -> memref<5xf32> {
    scf.forall (%i) in (4) {
      %0 = memref.alloc() : memref<5xf32>
      memref.store %f, %0[%pos] : memref<5xf32>
    }
    scf.for %iv = %lb to %ub step %step {
      scf.if %c {
        %1 = memref.alloc() : memref<5xf32>
        memref.store %f, %1[%pos] : memref<5xf32>
      }
    }
    %r = scf.for %iv = %lb to %ub step %step iter_args(%it = %init) -> (memref<5xf32>) {
      %2 = memref.alloc() : memref<5xf32>
      memref.store %f, %2[%pos] : memref<5xf32>
      scf.yield %2 : memref<5xf32>
    }
    return %r : memref<5xf32>
  }
}

// -----

// After One-Shot Bufferize the per-iteration buffer is freed in the loop; hoisting moves
// its dealloc after the loop with it (freed once, after the last iteration).
// CHECK-LABEL: func.func @with_dealloc
// CHECK:       %[[A:.*]] = memref.alloc() {{.*}}: memref<4xf32>
// CHECK-NEXT:  scf.for
// CHECK-NOT:     memref.dealloc
// CHECK:       }
// CHECK-NEXT:  memref.dealloc %[[A]] : memref<4xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.bufferization.buffer_loop_hoisting %0 : !transform.any_op
    transform.yield
  }
  func.func @with_dealloc(%lb: index, %ub: index, %step: index, %f: f32, %out: memref<4xf32>) {
    scf.for %iv = %lb to %ub step %step {
      %0 = memref.alloc() alignment = 64 : memref<4xf32>
      linalg.fill ins(%f : f32) outs(%0 : memref<4xf32>)
      memref.copy %0, %out : memref<4xf32> to memref<4xf32>
      memref.dealloc %0 : memref<4xf32>
    }
    return
  }
}
