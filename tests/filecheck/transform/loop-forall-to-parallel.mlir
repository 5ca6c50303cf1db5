// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A bufferized forall becomes an scf.parallel with the same bounds and steps, then a
// nest of scf.for loops, one per dimension.
// CHECK-LABEL: func.func @forall_to_parallel
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[C0]], %[[C1]]) to (%[[C10]], %[[C7]]) step (%[[C3]], %[[C2]]) {
// CHECK-NEXT:      memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<10x7xf32>
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    } {par}
module attributes {transform.with_named_sequence} {
  func.func @forall_to_parallel(%m: memref<10x7xf32>, %v: f32) {
    scf.forall (%i, %j) = (0, 1) to (10, 7) step (3, 2) {
      memref.store %v, %m[%i, %j] : memref<10x7xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.loop.forall_to_parallel %f : (!transform.any_op) -> !transform.any_op
    transform.annotate %p "par" : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @parallel_to_fors
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<10x7xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    } {outer}
// CHECK-NOT:     scf.parallel
module attributes {transform.with_named_sequence} {
  func.func @parallel_to_fors(%m: memref<10x7xf32>, %v: f32) {
    scf.forall (%i, %j) = (0, 1) to (10, 7) step (3, 2) {
      memref.store %v, %m[%i, %j] : memref<10x7xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.loop.forall_to_parallel %f : (!transform.any_op) -> !transform.any_op
    %n = transform.loop.parallel_for_to_nested_fors %p : (!transform.any_op) -> !transform.any_op
    transform.annotate %n "outer" : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{payload op}}
  func.func @not_parallel(%m: memref<10xf32>) {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected the payload to be scf.parallel}}
    %n = transform.loop.parallel_for_to_nested_fors %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @shared_outs(%t: tensor<10xf32>) -> tensor<10xf32> {
    %r = scf.forall (%i) in (10) shared_outs(%o = %t) -> tensor<10xf32> {
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %o into %o[0] [10] [1] : tensor<10xf32> into tensor<10xf32>
      }
    }
    return %r : tensor<10xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsupported shared outputs (didn't bufferize?)}}
    %p = transform.loop.forall_to_parallel %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @two(%m: memref<10xf32>, %v: f32) {
    scf.forall (%i) in (10) {
      memref.store %v, %m[%i] : memref<10xf32>
    }
    scf.forall (%i) in (10) {
      memref.store %v, %m[%i] : memref<10xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a single payload op}}
    %p = transform.loop.forall_to_parallel %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
