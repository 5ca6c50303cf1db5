// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file | filecheck %s

// transform.apply_patterns.vector.lower_transfer, transfer_permutation_patterns and
// rank_reducing_subview_patterns; the expected IR is upstream's (iree-opt's transform
// interpreter gives the same, up to printing).

// lower_transfer (max_transfer_rank = 1): in-bounds 1-D minor-identity transfers on unit-stride
// memrefs become vector.load/store (masked: maskedload with a splat of the padding /
// maskedstore); broadcast maps add a vector.broadcast; others are left alone.
// CHECK-LABEL: func.func @r1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r2(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r3(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x4xf32>

// CHECK-LABEL: func.func @r4(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r5(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<8x8xf32>, vector<1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<1xf32> to vector<4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4xf32>

// CHECK-LABEL: func.func @r7(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.maskedload %m[%i, %i], %mask, %[[V_CST]] : memref<8x8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r8(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r9(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<?x?xf32>, vector<1xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<1xf32>

// CHECK-LABEL: func.func @r10(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %t[%i, %i], %[[V_P]] {in_bounds = [true]} : tensor<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @w1(
// CHECK-NEXT:  vector.store %v, %m[%i, %i] : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w2(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w3(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<4x2xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w4(
// CHECK-NEXT:  vector.maskedstore %m[%i, %i], %mask, %v : memref<8x8xf32>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w5(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w6(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @r11(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i, %i], %[[V_P]] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : memref<8x8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r12(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r13(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]], %mask {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>
module attributes {transform.with_named_sequence} {
  func.func @r1(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r2(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r3(%m: memref<8x8xf32>, %i: index) -> vector<2x4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
  func.func @r4(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r5(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r6(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r7(%m: memref<8x8xf32>, %i: index, %mask: vector<4xi1>) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mask {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r8(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r9(%m: memref<?x?xf32>, %i: index) -> vector<1xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true]} : memref<?x?xf32>, vector<1xf32>
    return %0 : vector<1xf32>
  }
  func.func @r10(%t: tensor<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %t[%i, %i], %p {in_bounds = [true]} : tensor<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @w1(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w2(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w3(%m: memref<8x8xf32>, %i: index, %v: vector<4x2xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<4x2xf32>, memref<8x8xf32>
    return
  }
  func.func @w4(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>) {
    vector.transfer_write %v, %m[%i, %i], %mask {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w5(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w6(%m: memref<8x8xf32>, %i: index, %v: vector<2x4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32>
    return
  }
  func.func @r11(%m: memref<8x8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : memref<8x8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r12(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r13(%m: memref<8x8xf32>, %i: index, %mask: vector<2x4xi1>) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mask {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_transfer
    } : !transform.any_op
    transform.yield
  }
}

// -----

// max_transfer_rank = 2: 2-D in-bounds transfers become n-D vector.load/store too.
// CHECK-LABEL: func.func @r1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r2(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<8x8xf32>, vector<2x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x4xf32>

// CHECK-LABEL: func.func @r4(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<8x8xf32>, vector<1x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<1x2xf32> to vector<4x2xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<8x8xf32>, vector<1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<1xf32> to vector<4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4xf32>

// CHECK-LABEL: func.func @r7(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.maskedload %m[%i, %i], %mask, %[[V_CST]] : memref<8x8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r8(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r9(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<?x?xf32>, vector<1xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<1xf32>

// CHECK-LABEL: func.func @r10(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %t[%i, %i], %[[V_P]] {in_bounds = [true]} : tensor<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @w1(
// CHECK-NEXT:  vector.store %v, %m[%i, %i] : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w2(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w3(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<4x2xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w4(
// CHECK-NEXT:  vector.maskedstore %m[%i, %i], %mask, %v : memref<8x8xf32>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w5(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w6(
// CHECK-NEXT:  vector.store %v, %m[%i, %i] : memref<8x8xf32>, vector<2x4xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @r11(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i, %i], %[[V_P]] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : memref<8x8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r12(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r13(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]], %mask {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>
module attributes {transform.with_named_sequence} {
  func.func @r1(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r2(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r3(%m: memref<8x8xf32>, %i: index) -> vector<2x4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
  func.func @r4(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r5(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r6(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r7(%m: memref<8x8xf32>, %i: index, %mask: vector<4xi1>) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mask {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r8(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r9(%m: memref<?x?xf32>, %i: index) -> vector<1xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true]} : memref<?x?xf32>, vector<1xf32>
    return %0 : vector<1xf32>
  }
  func.func @r10(%t: tensor<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %t[%i, %i], %p {in_bounds = [true]} : tensor<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @w1(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w2(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w3(%m: memref<8x8xf32>, %i: index, %v: vector<4x2xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<4x2xf32>, memref<8x8xf32>
    return
  }
  func.func @w4(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>) {
    vector.transfer_write %v, %m[%i, %i], %mask {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w5(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w6(%m: memref<8x8xf32>, %i: index, %v: vector<2x4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32>
    return
  }
  func.func @r11(%m: memref<8x8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : memref<8x8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r12(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r13(%m: memref<8x8xf32>, %i: index, %mask: vector<2x4xi1>) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mask {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 2
    } : !transform.any_op
    transform.yield
  }
}

// -----

// transfer_permutation_patterns: permuted maps become a minor identity plus vector.transpose;
// broadcast dims become vector.broadcast; maps that are not a minor identity of the
// trailing dims are widened to one.
// CHECK-LABEL: func.func @r1(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r2(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r3(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x4xf32>

// CHECK-LABEL: func.func @r4(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.transpose %[[V_0]], [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r5(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true]} : memref<8x8xf32>, vector<2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<2xf32> to vector<4x2xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r6(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<8x8xf32>, vector<f32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<f32> to vector<4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4xf32>

// CHECK-LABEL: func.func @r7(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]], %mask {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r8(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @r9(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true]} : memref<?x?xf32>, vector<1xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<1xf32>

// CHECK-LABEL: func.func @r10(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %t[%i, %i], %[[V_P]] {in_bounds = [true]} : tensor<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @w1(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w2(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [1, 0] : vector<4x2xf32> to vector<2x4xf32>
// CHECK-NEXT:  vector.transfer_write %[[V_0]], %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w4(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i], %mask {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.broadcast %v : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.transpose %[[V_0]], [1, 0] : vector<1x4xf32> to vector<4x1xf32>
// CHECK-NEXT:  vector.transfer_write %[[V_1]], %m[%i, %i] {in_bounds = [true, true]} : vector<4x1xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @w6(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @r11(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i, %i], %[[V_P]] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : memref<8x8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r12(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<4xf32> to vector<2x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.transpose %[[V_1]], [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<4x2xf32>

// CHECK-LABEL: func.func @r13(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]], %mask : memref<8x8xf32>, vector<2x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.transpose %[[V_0]], [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4x2xf32>
module attributes {transform.with_named_sequence} {
  func.func @r1(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r2(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r3(%m: memref<8x8xf32>, %i: index) -> vector<2x4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
  func.func @r4(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r5(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r6(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r7(%m: memref<8x8xf32>, %i: index, %mask: vector<4xi1>) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mask {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r8(%m: memref<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @r9(%m: memref<?x?xf32>, %i: index) -> vector<1xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true]} : memref<?x?xf32>, vector<1xf32>
    return %0 : vector<1xf32>
  }
  func.func @r10(%t: tensor<8x8xf32>, %i: index) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %t[%i, %i], %p {in_bounds = [true]} : tensor<8x8xf32>, vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @w1(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w2(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w3(%m: memref<8x8xf32>, %i: index, %v: vector<4x2xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<4x2xf32>, memref<8x8xf32>
    return
  }
  func.func @w4(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>) {
    vector.transfer_write %v, %m[%i, %i], %mask {in_bounds = [true]} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w5(%m: memref<8x8xf32>, %i: index, %v: vector<4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<8x8xf32>
    return
  }
  func.func @w6(%m: memref<8x8xf32>, %i: index, %v: vector<2x4xf32>) {
    vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32>
    return
  }
  func.func @r11(%m: memref<8x8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : memref<8x8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r12(%m: memref<8x8xf32>, %i: index) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (d1, 0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  func.func @r13(%m: memref<8x8xf32>, %i: index, %mask: vector<2x4xi1>) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mask {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.transfer_permutation_patterns
    } : !transform.any_op
    transform.yield
  }
}

// -----

// rank_reducing_subview_patterns: unit dims of the memref are dropped with a rank-reducing
// memref.subview, the vector follows with vector.shape_cast.
// CHECK-LABEL: func.func @r1(
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = memref.subview %m[0, 0] [1, 8] [1, 1] : memref<1x8xf32> to memref<8xf32, strided<[1]>>
// CHECK-NEXT:  %[[V_1:.*]] = vector.transfer_read %[[V_0]][%[[V_C0]]], %[[V_P]] {in_bounds = [true]} : memref<8xf32, strided<[1]>>, vector<8xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.shape_cast %[[V_1]] : vector<8xf32> to vector<1x8xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<1x8xf32>

// CHECK-LABEL: func.func @r2(
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = memref.subview %m[0, 0] [1, 8] [1, 1] : memref<1x8xf32> to memref<8xf32, strided<[1]>>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %v : vector<1x8xf32> to vector<8xf32>
// CHECK-NEXT:  vector.transfer_write %[[V_1]], %[[V_0]][%[[V_C0]]] {in_bounds = [true]} : vector<8xf32>, memref<8xf32, strided<[1]>>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @r3(
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_0:.*]] = memref.dim %m, %[[V_C1]] : memref<1x?x1xf32, strided<[?, 1, 1], offset: ?>>
// CHECK-NEXT:  %[[V_1:.*]] = memref.subview %m[0, 0, 0] [1, %[[V_0]], 1] [1, 1, 1] : memref<1x?x1xf32, strided<[?, 1, 1], offset: ?>> to memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
// CHECK-NEXT:  %[[V_2:.*]] = vector.transfer_read %[[V_1]][%[[V_C0]]], %[[V_P]] {in_bounds = [true]} : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>, vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.shape_cast %[[V_2]] : vector<4xf32> to vector<1x4x1xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x4x1xf32>

// CHECK-LABEL: func.func @r4(
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = memref.subview %m[0, 0, 0] [2, 1, 8] [1, 1, 1] : memref<2x1x8xf32> to memref<2x8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.transfer_read %[[V_0]][%[[V_C0]], %[[V_C0]]], %[[V_P]] {in_bounds = [true, true]} : memref<2x8xf32>, vector<2x8xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.shape_cast %[[V_1]] : vector<2x8xf32> to vector<2x1x8xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<2x1x8xf32>
module attributes {transform.with_named_sequence} {
  func.func @r1(%m: memref<1x8xf32>) -> vector<1x8xf32> {
    %p = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %0 = vector.transfer_read %m[%c0, %c0], %p {in_bounds = [true, true]} : memref<1x8xf32>, vector<1x8xf32>
    return %0 : vector<1x8xf32>
  }
  func.func @r2(%m: memref<1x8xf32>, %v: vector<1x8xf32>) {
    %c0 = arith.constant 0 : index
    vector.transfer_write %v, %m[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf32>, memref<1x8xf32>
    return
  }
  func.func @r3(%m: memref<1x?x1xf32, strided<[?, 1, 1], offset: ?>>) -> vector<1x4x1xf32> {
    %p = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %0 = vector.transfer_read %m[%c0, %c0, %c0], %p {in_bounds = [true, true, true]} : memref<1x?x1xf32, strided<[?, 1, 1], offset: ?>>, vector<1x4x1xf32>
    return %0 : vector<1x4x1xf32>
  }
  func.func @r4(%m: memref<2x1x8xf32>) -> vector<2x1x8xf32> {
    %p = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %0 = vector.transfer_read %m[%c0, %c0, %c0], %p {in_bounds = [true, true, true]} : memref<2x1x8xf32>, vector<2x1x8xf32>
    return %0 : vector<2x1x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.rank_reducing_subview_patterns
    } : !transform.any_op
    transform.yield
  }
}
