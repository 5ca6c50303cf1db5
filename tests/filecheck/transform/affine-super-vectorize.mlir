// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// Two parallel loops vectorized [4, 8]: the load invariant along the outer loop broadcast
// (its permutation map), constants as splats, and the stores masked by the remaining
// iterations (7 and 13 are not multiples of 4 and 8).
// CHECK-LABEL: func.func @scale_rows
// CHECK:       affine.for %[[I:.*]] = 0 to 7 step 4 {
// CHECK:         affine.for %[[J:.*]] = 0 to 13 step 8 {
// CHECK:           %[[X:.*]] = vector.transfer_read %{{.*}}[%[[I]], %[[J]]], %{{.*}} : memref<7x13xf32>, vector<4x8xf32>
// CHECK:           %[[Y:.*]] = vector.transfer_read %{{.*}}[%[[J]]], %{{.*}} {in_bounds = [true, false], permutation_map = affine_map<(d0) -> (0, d0)>} : memref<13xf32>, vector<4x8xf32>
// CHECK:           %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : vector<4x8xf32>
// CHECK:           %[[C:.*]] = arith.constant dense<1.500000e+00> : vector<4x8xf32>
// CHECK:           %[[Q:.*]] = arith.addf %[[P]], %[[C]] : vector<4x8xf32>
// CHECK:           %[[RI:.*]] = affine.apply affine_map<(d0) -> (-d0 + 7)>(%[[I]])
// CHECK:           %[[RJ:.*]] = affine.apply affine_map<(d0) -> (-d0 + 13)>(%[[J]])
// CHECK:           %[[M:.*]] = vector.create_mask %[[RI]], %[[RJ]] : vector<4x8xi1>
// CHECK:           vector.transfer_write %[[Q]], %{{.*}}[%[[I]], %[[J]]], %[[M]] : vector<4x8xf32>, memref<7x13xf32>
func.func @scale_rows(%a: memref<7x13xf32>, %b: memref<13xf32>, %o: memref<7x13xf32>) {
  %c = arith.constant 1.5 : f32
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 13 {
      %x = affine.load %a[%i, %j] : memref<7x13xf32>
      %y = affine.load %b[%j] : memref<13xf32>
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %p, %c : f32
      affine.store %q, %o[%i, %j] : memref<7x13xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["affine.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.affine.super_vectorize %0 [4, 8] : !transform.any_op
    transform.yield
  }
}

// -----

// A reduction (vectorize_reductions): the accumulator starts at the neutral element,
// lanes past the trip count (37) keep it (select on the mask), the vector is reduced after
// the loop and combined with the initial value.
// CHECK-LABEL: func.func @row_sum
// CHECK:       %[[INIT:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:       affine.for %[[I:.*]] = 0 to 5 {
// CHECK:         %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK:         %[[R:.*]] = affine.for %[[J:.*]] = 0 to 37 step 8 iter_args(%[[ACC:.*]] = %[[Z]]) -> (vector<8xf32>) {
// CHECK:           %[[X:.*]] = vector.transfer_read %{{.*}}[%[[I]], %[[J]]], %{{.*}} : memref<5x37xf32>, vector<8xf32>
// CHECK:           %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : vector<8xf32>
// CHECK:           %[[M:.*]] = vector.create_mask %{{.*}} : vector<8xi1>
// CHECK:           %[[SEL:.*]] = arith.select %[[M]], %[[S]], %[[ACC]] : vector<8xi1>, vector<8xf32>
// CHECK:           affine.yield %[[SEL]] : vector<8xf32>
// CHECK:         %[[RED:.*]] = vector.reduction <add>, %[[R]] : vector<8xf32> into f32
// CHECK:         %[[T:.*]] = arith.addf %[[RED]], %[[INIT]] : f32
// CHECK:         affine.store %[[T]], %{{.*}}[%[[I]]] : memref<5xf32>
func.func @row_sum(%a: memref<5x37xf32>, %o: memref<5xf32>) {
  %init = arith.constant 0.5 : f32
  affine.for %i = 0 to 5 {
    %r = affine.for %j = 0 to 37 iter_args(%acc = %init) -> (f32) {
      %x = affine.load %a[%i, %j] : memref<5x37xf32>
      %v = arith.addf %acc, %x : f32
      affine.yield %v : f32
    }
    affine.store %r, %o[%i] : memref<5xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["affine.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.affine.super_vectorize %0 [8] vectorize_reductions=true : !transform.any_op
    transform.yield
  }
}

// -----

// Left scalar: a loop-carried dependence through memory (o[i + 1] reads what iteration
// i wrote), an access moving by two elements per iteration, and a reduction without
// vectorize_reductions.
// CHECK-LABEL: func.func @not_vectorized
// CHECK-NOT:   vector.
func.func @not_vectorized(%a: memref<64xf32>, %o: memref<65xf32>, %s: memref<128xf32>) {
  affine.for %i = 0 to 64 {
    %x = affine.load %o[%i] : memref<65xf32>
    affine.store %x, %o[%i + 1] : memref<65xf32>
  }
  affine.for %i = 0 to 64 {
    %x = affine.load %s[%i * 2] : memref<128xf32>
    affine.store %x, %a[%i] : memref<64xf32>
  }
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 64 iter_args(%acc = %z) -> (f32) {
    %x = affine.load %a[%i] : memref<64xf32>
    %v = arith.addf %acc, %x : f32
    affine.yield %v : f32
  }
  affine.store %r, %o[0] : memref<65xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["affine.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.affine.super_vectorize %0 [8] : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{varying pattern specified with different size than the vector size}}
    transform.affine.super_vectorize %root [8, 4] fastest_varying_pattern=[0] : !transform.any_op
    transform.yield
  }
}
