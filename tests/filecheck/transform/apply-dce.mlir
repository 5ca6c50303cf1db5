// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Trivially dead ops go (reads, pure ops, allocations nobody uses, loops without effects
// and unused results, dead tensor ops), producers that die with them too; ops with
// effects stay. Handles to erased ops silently lose them (annotating %mul is a no-op).
// CHECK-LABEL: func.func @dce
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT:    memref.store %{{.*}}, %[[A]][%[[C0]]] : memref<?xf32>
// CHECK-NEXT:    return
module attributes {transform.with_named_sequence} {
  func.func @dce(%m: memref<?xf32>, %n: index, %x: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = arith.addf %x, %x : f32
    %b = arith.mulf %a, %x : f32
    %l = memref.load %m[%c0] : memref<?xf32>
    %al = memref.alloc(%n) : memref<?xf32>
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
      %q = arith.addf %acc, %x : f32
      scf.yield %q : f32
    }
    %al2 = memref.alloc(%n) : memref<?xf32>
    memref.store %x, %al2[%c0] : memref<?xf32>
    return %x : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %mul = transform.structured.match ops{["arith.mulf"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_dce to %f : !transform.any_op
    transform.annotate %mul "gone" : !transform.any_op
    transform.yield
  }
}

// -----

// A forall whose results are unused is dead (its parallel inserts alone are not).
// CHECK-LABEL: func.func @dead_forall
// CHECK-NOT:     scf.forall
// CHECK:         return
module attributes {transform.with_named_sequence} {
  func.func @dead_forall(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
    %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
      %e = tensor.extract_slice %o[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %f into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
      }
    }
    return %t : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_dce to %f : !transform.any_op
    transform.yield
  }
}

// -----

// expected-note @below {{target payload op}}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{cannot apply transform to itself (or one of its ancestors)}}
    transform.apply_dce to %root : !transform.any_op
    transform.yield
  }
}
