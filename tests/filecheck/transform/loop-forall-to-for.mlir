// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One scf.for per dimension, outermost first, with the forall's bounds and steps
// (constants materialized before the nest); the mapping is dropped.
// CHECK-LABEL: func.func @bufferized
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[N:.*]] step %[[C2]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C1]] to %[[C16]] step %[[C3]] {
// CHECK-NEXT:        memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<8x16xf32>
// CHECK-NEXT:      } {inner}
// CHECK-NEXT:    } {outer}
module attributes {transform.with_named_sequence} {
  func.func @bufferized(%m: memref<8x16xf32>, %v: f32, %n: index) {
    scf.forall (%i, %j) = (0, 1) to (%n, 16) step (2, 3) {
      memref.store %v, %m[%i, %j] : memref<8x16xf32>
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.loop.forall_to_for %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %a "outer" : !transform.any_op
    transform.annotate %b "inner" : !transform.any_op
    transform.yield
  }
}

// -----

// A forall with shared outputs is refused, as upstream does.
module attributes {transform.with_named_sequence} {
  func.func @tensors(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
    %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
      %e = tensor.extract_slice %o[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %f into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
      }
    }
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsupported shared outputs (didn't bufferize?)}}
    %a = transform.loop.forall_to_for %l : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @rank_mismatch(%m: memref<8x16xf32>, %v: f32) {
    // expected-note @below {{payload op}}
    scf.forall (%i, %j) in (8, 16) {
      memref.store %v, %m[%i, %j] : memref<8x16xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{op expects as many results (1) as payload has induction variables (2)}}
    %a = transform.loop.forall_to_for %l : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{payload op}}
  func.func @not_a_forall() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected the payload to be scf.forall}}
    %a = transform.loop.forall_to_for %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @two(%m: memref<8xf32>, %v: f32) {
    scf.forall (%i) in (8) {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    scf.forall (%i) in (8) {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a single payload op}}
    %a = transform.loop.forall_to_for %l : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
