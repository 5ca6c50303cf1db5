// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A read / write pair of the same buffer place, invariant in the inner loop, becomes
// a loop-carried vector; the outer loop's index keeps it in the outer loop.
// CHECK-LABEL: func.func @pair_double_loop
// CHECK-SAME:  (%[[MEM:.*]]: memref<?x?xf32>, %[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index, %[[V:.*]]: vector<4xf32>)
// CHECK:       scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK:         %[[R:.*]] = vector.transfer_read %[[MEM]][%[[I]], %[[I]]], %{{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK:         %[[L:.*]] = scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:.*]] = %[[R]]) -> (vector<4xf32>) {
// CHECK:           %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : vector<4xf32>
// CHECK:           scf.yield %[[S]] : vector<4xf32>
// CHECK:         }
// CHECK:         vector.transfer_write %[[L]], %[[MEM]][%[[I]], %[[I]]] : vector<4xf32>, memref<?x?xf32>
// CHECK:       }
module attributes {transform.with_named_sequence} {
  func.func @pair_double_loop(%mem: memref<?x?xf32>, %lb: index, %ub: index, %step: index, %v: vector<4xf32>) {
    %pad = arith.constant 0.0 : f32
    scf.for %i = %lb to %ub step %step {
      scf.for %j = %lb to %ub step %step {
        %r = vector.transfer_read %mem[%i, %i], %pad : memref<?x?xf32>, vector<4xf32>
        %s = arith.addf %r, %v : vector<4xf32>
        vector.transfer_write %s, %mem[%i, %i] : vector<4xf32>, memref<?x?xf32>
      }
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Another access of the buffer in the loop (a load) blocks the pair.
// CHECK-LABEL: func.func @negative_other_access
// CHECK:       scf.for
// CHECK-NEXT:    vector.transfer_read
// CHECK-NEXT:    memref.load
// CHECK:         vector.transfer_write
// CHECK:       }
module attributes {transform.with_named_sequence} {
  func.func @negative_other_access(%mem: memref<8x8xf32>, %lb: index, %ub: index, %step: index, %v: vector<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    %pad = arith.constant 0.0 : f32
    %l = scf.for %j = %lb to %ub step %step iter_args(%a = %pad) -> (f32) {
      %r = vector.transfer_read %mem[%c0, %c0], %pad : memref<8x8xf32>, vector<4xf32>
      %x = memref.load %mem[%c7, %c7] : memref<8x8xf32>
      %s = arith.addf %r, %v : vector<4xf32>
      vector.transfer_write %s, %mem[%c0, %c0] : vector<4xf32>, memref<8x8xf32>
      %b = arith.addf %a, %x : f32
      scf.yield %b : f32
    }
    return %l : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Pairs on provably disjoint parts of one buffer are hoisted together; a pair whose
// indices depend on the loop stays.
// CHECK-LABEL: func.func @disjoint_pairs
// CHECK-SAME:  (%[[MEM:.*]]: memref<?x?xf32>, %[[OTHER:.*]]: memref<?x?xf32>,
// CHECK:       vector.transfer_read %[[MEM]]{{.*}} : memref<?x?xf32>, vector<3xf32>
// CHECK:       vector.transfer_read %[[MEM]]{{.*}} : memref<?x?xf32>, vector<3xf32>
// CHECK:       scf.for {{.*}} iter_args({{.*}}) -> (vector<3xf32>, vector<3xf32>) {
// CHECK:         vector.transfer_read %[[OTHER]]
// CHECK:         vector.transfer_write %{{.*}}, %[[OTHER]]
// CHECK:         scf.yield {{.*}} : vector<3xf32>, vector<3xf32>
// CHECK:       }
// CHECK:       vector.transfer_write %{{.*}}, %[[MEM]]{{.*}} : vector<3xf32>, memref<?x?xf32>
// CHECK:       vector.transfer_write %{{.*}}, %[[MEM]]{{.*}} : vector<3xf32>, memref<?x?xf32>
module attributes {transform.with_named_sequence} {
  func.func @disjoint_pairs(%mem: memref<?x?xf32>, %other: memref<?x?xf32>, %lb: index, %ub: index, %step: index, %v: vector<3xf32>) {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %pad = arith.constant 0.0 : f32
    scf.for %j = %lb to %ub step %step {
      %r0 = vector.transfer_read %mem[%c0, %c0], %pad : memref<?x?xf32>, vector<3xf32>
      %r1 = vector.transfer_read %mem[%c0, %c3], %pad : memref<?x?xf32>, vector<3xf32>
      %r2 = vector.transfer_read %other[%j, %j], %pad : memref<?x?xf32>, vector<3xf32>
      %s0 = arith.addf %r0, %v : vector<3xf32>
      %s1 = arith.addf %r1, %v : vector<3xf32>
      %s2 = arith.addf %r2, %v : vector<3xf32>
      vector.transfer_write %s0, %mem[%c0, %c0] : vector<3xf32>, memref<?x?xf32>
      vector.transfer_write %s1, %mem[%c0, %c3] : vector<3xf32>, memref<?x?xf32>
      vector.transfer_write %s2, %other[%j, %j] : vector<3xf32>, memref<?x?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A lone read of a buffer the loop does not write moves out; with verify_non_zero_trip
// only from loops known to run (the second loop has dynamic bounds).
// CHECK-LABEL: func.func @lone_read
// CHECK-SAME:  (%[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[N:.*]]: index)
// CHECK:       %[[R:.*]] = vector.transfer_read %[[A]]
// CHECK:       scf.for
// CHECK-NEXT:    vector.transfer_write %[[R]], %[[B]]
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[N]]
// CHECK-NEXT:    vector.transfer_read %[[A]]
module attributes {transform.with_named_sequence} {
  func.func @lone_read(%a: memref<8xf32>, %b: memref<8xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    scf.for %j = %c0 to %c4 step %c1 {
      %r = vector.transfer_read %a[%c0], %pad : memref<8xf32>, vector<8xf32>
      vector.transfer_write %r, %b[%j] : vector<8xf32>, memref<8xf32>
    }
    scf.for %j = %c0 to %n step %c1 {
      %r = vector.transfer_read %a[%c0], %pad : memref<8xf32>, vector<8xf32>
      vector.transfer_write %r, %b[%j] : vector<8xf32>, memref<8xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f verify_non_zero_trip : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// In a kernel, a transfer of another place of the buffer is disjoint for this thread
// only: another thread's pair writes that place, and across the barrier in the loop this
// thread reads it in the next iteration. The pair stays in the loop that synchronizes
// (first loop) and is carried where no barrier is (second loop).
// CHECK-LABEL: func.func @pair_across_barrier
// CHECK-SAME:  (%[[S:.*]]: memref<129xf32, #gpu.address_space<workgroup>>, %[[O:.*]]: memref<129xf32>, %[[T:.*]]: index)
// CHECK:       scf.for
// CHECK-NEXT:    vector.transfer_read %[[S]][%[[T]]]
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    vector.transfer_write %{{.*}}, %[[S]][%[[T]]]
// CHECK-NEXT:    gpu.barrier
// CHECK:       %[[R:.*]] = vector.transfer_read %[[S]][%[[T]]]
// CHECK:       %[[L:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[R]])
// CHECK-NOT:     %[[S]]
// CHECK:       }
// CHECK-NEXT:  vector.transfer_write %[[L]], %[[S]][%[[T]]]
module attributes {transform.with_named_sequence} {
  func.func @pair_across_barrier(%s: memref<129xf32, #gpu.address_space<workgroup>>, %o: memref<129xf32>, %t: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %t1 = arith.addi %t, %c1 : index
    scf.for %j = %c0 to %c4 step %c1 {
      %v = vector.transfer_read %s[%t], %pad : memref<129xf32, #gpu.address_space<workgroup>>, vector<1xf32>
      %w = arith.addf %v, %v : vector<1xf32>
      vector.transfer_write %w, %s[%t] : vector<1xf32>, memref<129xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = vector.transfer_read %s[%t1], %pad : memref<129xf32, #gpu.address_space<workgroup>>, vector<1xf32>
      vector.transfer_write %x, %o[%t] : vector<1xf32>, memref<129xf32>
    }
    scf.for %j = %c0 to %c4 step %c1 {
      %v = vector.transfer_read %s[%t], %pad : memref<129xf32, #gpu.address_space<workgroup>>, vector<1xf32>
      %w = arith.addf %v, %v : vector<1xf32>
      vector.transfer_write %w, %s[%t] : vector<1xf32>, memref<129xf32, #gpu.address_space<workgroup>>
      %x = vector.transfer_read %s[%t1], %pad : memref<129xf32, #gpu.address_space<workgroup>>, vector<1xf32>
      vector.transfer_write %x, %o[%t] : vector<1xf32>, memref<129xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Transfers on tensors are left alone (that is loop.hoist_loop_invariant_subsets' job).
// CHECK-LABEL: func.func @tensors_untouched
// CHECK:       scf.for
// CHECK-NEXT:    vector.transfer_read
module attributes {transform.with_named_sequence} {
  func.func @tensors_untouched(%t: tensor<8xf32>, %n: index, %v: vector<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f32
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
      %x = vector.transfer_read %a[%c0], %pad : tensor<8xf32>, vector<8xf32>
      %y = arith.addf %x, %v : vector<8xf32>
      %w = vector.transfer_write %y, %a[%c0] : vector<8xf32>, tensor<8xf32>
      scf.yield %w : tensor<8xf32>
    }
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// hoist_redundant_vector_broadcasts: a carried vector only extracted from and
// re-broadcast is carried as the scalar.
// CHECK-LABEL: func.func @broadcast_carried
// CHECK-SAME:  (%[[V:.*]]: vector<4xf32>, %[[N:.*]]: index, %[[S:.*]]: f32)
// CHECK:       %[[E:.*]] = vector.extract %[[V]][0] : f32 from vector<4xf32>
// CHECK:       %[[L:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[E]]) -> (f32) {
// CHECK:         %[[X:.*]] = arith.addf %[[A]], %[[S]] : f32
// CHECK:         scf.yield %[[X]] : f32
// CHECK:       }
// CHECK:       %[[B:.*]] = vector.broadcast %[[L]] : f32 to vector<4xf32>
// CHECK:       return %[[B]]
module attributes {transform.with_named_sequence} {
  func.func @broadcast_carried(%v: vector<4xf32>, %n: index, %s: f32) -> vector<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %j = %c0 to %n step %c1 iter_args(%a = %v) -> (vector<4xf32>) {
      %e = vector.extract %a[0] : f32 from vector<4xf32>
      %x = arith.addf %e, %s : f32
      %b = vector.broadcast %x : f32 to vector<4xf32>
      scf.yield %b : vector<4xf32>
    }
    return %r : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_broadcasts %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_a_func(%mem: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{when applied to this op}}
  scf.for %j = %c0 to %n step %c1 {
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform applied to the wrong op kind}}
    %h = transform.structured.hoist_redundant_vector_transfers %l : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
