// RUN: schedir-opt %s -p scf-forall-to-for --split-input-file | filecheck %s

// One scf.for per dimension, the first outermost; the mapping is dropped.
// CHECK-LABEL: func.func @normalized
// CHECK-SAME:    (%[[M:.*]]: memref<4x?xf32>, %[[N:.*]]: index, %[[V:.*]]: f32)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:        memref.store %[[V]], %[[M]][%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     scf.forall
// CHECK-NOT:     mapping
func.func @normalized(%m: memref<4x?xf32>, %n: index, %v: f32) {
  scf.forall (%i, %j) in (4, %n) {
    memref.store %v, %m[%i, %j] : memref<4x?xf32>
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

// CHECK-LABEL: func.func @bounds_and_steps
// CHECK-SAME:    (%[[M:.*]]: memref<16xf32>, %[[LB:.*]]: index, %[[V:.*]]: f32)
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         scf.for %[[I:.*]] = %[[LB]] to %[[C16]] step %[[C3]] {
// CHECK-NEXT:      memref.store %[[V]], %[[M]][%[[I]]]
func.func @bounds_and_steps(%m: memref<16xf32>, %lb: index, %v: f32) {
  scf.forall (%i) = (%lb) to (16) step (3) {
    memref.store %v, %m[%i] : memref<16xf32>
  }
  return
}

// -----

// Nested foralls become a nest of loops.
// CHECK-LABEL: func.func @nested
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      %{{.*}} = arith.constant
// CHECK:           scf.for %[[J:.*]] =
// CHECK-NEXT:        memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
func.func @nested(%m: memref<4x8xf32>, %v: f32) {
  scf.forall (%i) in (4) {
    scf.forall (%j) in (8) {
      memref.store %v, %m[%i, %j] : memref<4x8xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// scf.parallel: the reduction is carried through every loop and combined innermost.
// CHECK-LABEL: func.func @parallel_sum
// CHECK-SAME:    (%[[M:.*]]: memref<8x4xf32>)
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[Z]]) -> (f32) {
// CHECK-NEXT:      %[[R2:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[M]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[B]], %[[X]] : f32
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[R2]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : f32
func.func @parallel_sum(%m: memref<8x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %s = scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) init (%z) -> f32 {
    %v = memref.load %m[%i, %j] : memref<8x4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %a = arith.addf %l, %r : f32
      scf.reduce.return %a : f32
    }
  }
  return %s : f32
}
