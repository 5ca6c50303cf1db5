// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// An scf.for nest: the outer loop is normalized (trip count (n - 1) ceildiv 3, clamped at
// 0), the coalesced loop runs count * 2 times and the body recovers both indices.
// CHECK-LABEL: func.func @scf_nest
// CHECK:       %[[D:.*]] = affine.apply affine_map<()[s0] -> (s0 - 1)>()[%{{.*}}]
// CHECK:       %[[T:.*]] = affine.apply affine_map<()[s0] -> (s0 ceildiv 3)>()[%[[D]]]
// CHECK:       %[[P:.*]] = affine.max affine_map<()[s0] -> (0, s0)>()[%[[T]]]
// CHECK:       %[[N:.*]] = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%[[P]]]
// CHECK:       scf.for %[[X:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:    %[[JM:.*]] = affine.apply affine_map<(d0) -> (d0 mod 2)>(%[[X]])
// CHECK-NEXT:    %[[JS:.*]] = affine.apply affine_map<(d0) -> (d0 * 3)>(%[[JM]])
// CHECK-NEXT:    %[[J:.*]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[JS]])
// CHECK-NEXT:    %[[IM:.*]] = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%[[X]])
// CHECK-NEXT:    %[[IS:.*]] = affine.apply affine_map<(d0) -> (d0 * 3)>(%[[IM]])
// CHECK-NEXT:    %[[I:.*]] = affine.apply affine_map<(d0) -> (d0 + 1)>(%[[IS]])
// CHECK-NEXT:    memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NOT:   scf.for
func.func @scf_nest(%A: memref<?x?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  scf.for %i = %c1 to %n step %c3 {
    scf.for %j = %c1 to %c7 step %c3 {
      %v = memref.load %A[%i, %j] : memref<?x?xf32>
      memref.store %v, %A[%j, %i] : memref<?x?xf32>
    }
  } {coalesce}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["scf.for"]} attributes {coalesce} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.loop.coalesce %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Normalized affine.for loops: the product of the upper bounds; constants fold.
// CHECK-LABEL: func.func @affine_nest
// CHECK:       %[[N:.*]] = affine.apply affine_map<()[s0] -> (s0 * 7)>
// CHECK:       affine.for %[[X:.*]] = 0 to %[[N]] {
// CHECK-NEXT:    %[[J:.*]] = affine.apply affine_map<(d0) -> (d0 mod 7)>(%[[X]])
// CHECK-NEXT:    %[[I:.*]] = affine.apply affine_map<(d0) -> (d0 floordiv 7)>(%[[X]])
// CHECK-NEXT:    affine.load %{{.*}}[%[[I]], %[[J]]]
func.func @affine_nest(%A: memref<?x?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 7 {
      %v = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %v, %A[%j, %i] : memref<?x?xf32>
    }
  } {coalesce}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["affine.for"]} attributes {coalesce} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.loop.coalesce %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Only the inner band is coalesced: the innermost loop's bounds use the outer index.
// CHECK-LABEL: func.func @inner_band
// CHECK:       scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:       scf.for
func.func @inner_band(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %v = memref.load %A[%k] : memref<?xf32>
        memref.store %v, %A[%j] : memref<?xf32>
      }
    }
  } {coalesce}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["scf.for"]} attributes {coalesce} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.loop.coalesce %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An affine loop that is not normalized (step 2) cannot be coalesced.
func.func @not_normalized(%A: memref<?xf32>) {
  affine.for %i = 0 to 8 step 2 {
    affine.for %j = 0 to 4 {
      %v = affine.load %A[%j] : memref<?xf32>
      affine.store %v, %A[%i] : memref<?xf32>
    }
  } {coalesce}
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["affine.for"]} attributes {coalesce} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to coalesce}}
    %1 = transform.loop.coalesce %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
