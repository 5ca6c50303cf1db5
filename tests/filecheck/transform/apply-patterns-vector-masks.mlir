// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file | filecheck %s

// transform.apply_patterns.vector.lower_masks / lower_create_mask and
// lower_masked_transfers; the expected IR is upstream's (iree-opt's transform interpreter
// gives the same, up to printing).

// lower_masks: n-D create_mask becomes rows of the (n-1)-D mask selected by `i < bound`;
// constant_mask rows of its lower-rank mask, 1-D ones constants.
// CHECK-LABEL: func.func @cm1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.create_mask %n : vector<4xi1>
// CHECK-NEXT:  return %[[V_0]] : vector<4xi1>

// CHECK-LABEL: func.func @cm2(
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<false> : vector<2x4xi1>
// CHECK-NEXT:  %[[V_CST_1:.*]] = arith.constant dense<false> : vector<4xi1>
// CHECK-NEXT:  %[[V_0:.*]] = vector.create_mask %m : vector<4xi1>
// CHECK-NEXT:  %[[V_1:.*]] = arith.cmpi sgt, %n, %[[V_C0]] : index
// CHECK-NEXT:  %[[V_2:.*]] = arith.select %[[V_1]], %[[V_0]], %[[V_CST_1]] : vector<4xi1>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_CST]] [0] : vector<4xi1> into vector<2x4xi1>
// CHECK-NEXT:  %[[V_4:.*]] = arith.cmpi sgt, %n, %[[V_C1]] : index
// CHECK-NEXT:  %[[V_5:.*]] = arith.select %[[V_4]], %[[V_0]], %[[V_CST_1]] : vector<4xi1>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_3]] [1] : vector<4xi1> into vector<2x4xi1>
// CHECK-NEXT:  return %[[V_6]] : vector<2x4xi1>

// CHECK-LABEL: func.func @cm3(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<{{\[\[}}true, true, true, false], [false, false, false, false{{\]\]}}> : vector<2x4xi1>
// CHECK-NEXT:  return %[[V_CST]] : vector<2x4xi1>

// CHECK-LABEL: func.func @cm4(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<[true, true, true, false]> : vector<4xi1>
// CHECK-NEXT:  return %[[V_CST]] : vector<4xi1>

// CHECK-LABEL: func.func @cm5(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<false> : vector<2x3x4xi1>
// CHECK-NEXT:  %[[V_C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_CST_1:.*]] = arith.constant dense<false> : vector<3x4xi1>
// CHECK-NEXT:  %[[V_CST_2:.*]] = arith.constant dense<false> : vector<4xi1>
// CHECK-NEXT:  %[[V_0:.*]] = vector.create_mask %n : vector<4xi1>
// CHECK-NEXT:  %[[V_1:.*]] = arith.cmpi sgt, %n, %[[V_C0]] : index
// CHECK-NEXT:  %[[V_2:.*]] = arith.select %[[V_1]], %[[V_0]], %[[V_CST_2]] : vector<4xi1>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_CST_1]] [0] : vector<4xi1> into vector<3x4xi1>
// CHECK-NEXT:  %[[V_4:.*]] = arith.cmpi sgt, %n, %[[V_C1]] : index
// CHECK-NEXT:  %[[V_5:.*]] = arith.select %[[V_4]], %[[V_0]], %[[V_CST_2]] : vector<4xi1>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_3]] [1] : vector<4xi1> into vector<3x4xi1>
// CHECK-NEXT:  %[[V_7:.*]] = arith.cmpi sgt, %n, %[[V_C2]] : index
// CHECK-NEXT:  %[[V_8:.*]] = arith.select %[[V_7]], %[[V_0]], %[[V_CST_2]] : vector<4xi1>
// CHECK-NEXT:  %[[V_9:.*]] = vector.insert %[[V_8]], %[[V_6]] [2] : vector<4xi1> into vector<3x4xi1>
// CHECK-NEXT:  %[[V_10:.*]] = vector.insert %[[V_9]], %[[V_CST]] [0] : vector<3x4xi1> into vector<2x3x4xi1>
// CHECK-NEXT:  %[[V_11:.*]] = vector.insert %[[V_9]], %[[V_10]] [1] : vector<3x4xi1> into vector<2x3x4xi1>
// CHECK-NEXT:  return %[[V_11]] : vector<2x3x4xi1>
module attributes {transform.with_named_sequence} {
  func.func @cm1(%n: index) -> vector<4xi1> {
    %0 = vector.create_mask %n : vector<4xi1>
    return %0 : vector<4xi1>
  }
  func.func @cm2(%n: index, %m: index) -> vector<2x4xi1> {
    %0 = vector.create_mask %n, %m : vector<2x4xi1>
    return %0 : vector<2x4xi1>
  }
  func.func @cm3() -> vector<2x4xi1> {
    %0 = vector.constant_mask [1, 3] : vector<2x4xi1>
    return %0 : vector<2x4xi1>
  }
  func.func @cm4() -> vector<4xi1> {
    %0 = vector.constant_mask [3] : vector<4xi1>
    return %0 : vector<4xi1>
  }
  func.func @cm5(%n: index) -> vector<2x3x4xi1> {
    %c2 = arith.constant 2 : index
    %0 = vector.create_mask %c2, %n, %n : vector<2x3x4xi1>
    return %0 : vector<2x3x4xi1>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_masks
    } : !transform.any_op
    transform.yield
  }
}

// -----

// lower_create_mask is the same set.
// CHECK-LABEL: func.func @cm1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.create_mask %n : vector<4xi1>
// CHECK-NEXT:  return %[[V_0]] : vector<4xi1>

// CHECK-LABEL: func.func @cm2(
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<false> : vector<2x4xi1>
// CHECK-NEXT:  %[[V_CST_1:.*]] = arith.constant dense<false> : vector<4xi1>
// CHECK-NEXT:  %[[V_0:.*]] = vector.create_mask %m : vector<4xi1>
// CHECK-NEXT:  %[[V_1:.*]] = arith.cmpi sgt, %n, %[[V_C0]] : index
// CHECK-NEXT:  %[[V_2:.*]] = arith.select %[[V_1]], %[[V_0]], %[[V_CST_1]] : vector<4xi1>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_CST]] [0] : vector<4xi1> into vector<2x4xi1>
// CHECK-NEXT:  %[[V_4:.*]] = arith.cmpi sgt, %n, %[[V_C1]] : index
// CHECK-NEXT:  %[[V_5:.*]] = arith.select %[[V_4]], %[[V_0]], %[[V_CST_1]] : vector<4xi1>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_3]] [1] : vector<4xi1> into vector<2x4xi1>
// CHECK-NEXT:  return %[[V_6]] : vector<2x4xi1>

// CHECK-LABEL: func.func @cm3(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<{{\[\[}}true, true, true, false], [false, false, false, false{{\]\]}}> : vector<2x4xi1>
// CHECK-NEXT:  return %[[V_CST]] : vector<2x4xi1>

// CHECK-LABEL: func.func @cm4(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<[true, true, true, false]> : vector<4xi1>
// CHECK-NEXT:  return %[[V_CST]] : vector<4xi1>

// CHECK-LABEL: func.func @cm5(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<false> : vector<2x3x4xi1>
// CHECK-NEXT:  %[[V_C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_CST_1:.*]] = arith.constant dense<false> : vector<3x4xi1>
// CHECK-NEXT:  %[[V_CST_2:.*]] = arith.constant dense<false> : vector<4xi1>
// CHECK-NEXT:  %[[V_0:.*]] = vector.create_mask %n : vector<4xi1>
// CHECK-NEXT:  %[[V_1:.*]] = arith.cmpi sgt, %n, %[[V_C0]] : index
// CHECK-NEXT:  %[[V_2:.*]] = arith.select %[[V_1]], %[[V_0]], %[[V_CST_2]] : vector<4xi1>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_CST_1]] [0] : vector<4xi1> into vector<3x4xi1>
// CHECK-NEXT:  %[[V_4:.*]] = arith.cmpi sgt, %n, %[[V_C1]] : index
// CHECK-NEXT:  %[[V_5:.*]] = arith.select %[[V_4]], %[[V_0]], %[[V_CST_2]] : vector<4xi1>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_3]] [1] : vector<4xi1> into vector<3x4xi1>
// CHECK-NEXT:  %[[V_7:.*]] = arith.cmpi sgt, %n, %[[V_C2]] : index
// CHECK-NEXT:  %[[V_8:.*]] = arith.select %[[V_7]], %[[V_0]], %[[V_CST_2]] : vector<4xi1>
// CHECK-NEXT:  %[[V_9:.*]] = vector.insert %[[V_8]], %[[V_6]] [2] : vector<4xi1> into vector<3x4xi1>
// CHECK-NEXT:  %[[V_10:.*]] = vector.insert %[[V_9]], %[[V_CST]] [0] : vector<3x4xi1> into vector<2x3x4xi1>
// CHECK-NEXT:  %[[V_11:.*]] = vector.insert %[[V_9]], %[[V_10]] [1] : vector<3x4xi1> into vector<2x3x4xi1>
// CHECK-NEXT:  return %[[V_11]] : vector<2x3x4xi1>
module attributes {transform.with_named_sequence} {
  func.func @cm1(%n: index) -> vector<4xi1> {
    %0 = vector.create_mask %n : vector<4xi1>
    return %0 : vector<4xi1>
  }
  func.func @cm2(%n: index, %m: index) -> vector<2x4xi1> {
    %0 = vector.create_mask %n, %m : vector<2x4xi1>
    return %0 : vector<2x4xi1>
  }
  func.func @cm3() -> vector<2x4xi1> {
    %0 = vector.constant_mask [1, 3] : vector<2x4xi1>
    return %0 : vector<2x4xi1>
  }
  func.func @cm4() -> vector<4xi1> {
    %0 = vector.constant_mask [3] : vector<4xi1>
    return %0 : vector<4xi1>
  }
  func.func @cm5(%n: index) -> vector<2x3x4xi1> {
    %c2 = arith.constant 2 : index
    %0 = vector.create_mask %c2, %n, %n : vector<2x3x4xi1>
    return %0 : vector<2x3x4xi1>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_create_mask
    } : !transform.any_op
    transform.yield
  }
}

// -----

// lower_masked_transfers: vector.mask around a transfer becomes the transfer's mask operand
// (not with a pass-through value, nor for other ops).
// CHECK-LABEL: func.func @mt1(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i], %[[V_P]], %mask : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @mt2(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i], %mask : vector<4xf32>, memref<?xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @mt3(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.mask %mask, %pt { vector.transfer_read %m[%i], %[[V_P]] : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @mt4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_write %v, %t[%i], %mask : vector<4xf32>, tensor<?xf32>
// CHECK-NEXT:  return %[[V_0]] : tensor<?xf32>

// CHECK-LABEL: func.func @mt5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.mask %mask { vector.reduction <add>, %v : vector<4xf32> into f32 } : vector<4xi1> -> f32
// CHECK-NEXT:  return %[[V_0]] : f32

// CHECK-LABEL: func.func @mt6(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]], %mask {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x2xf32>
module attributes {transform.with_named_sequence} {
  func.func @mt1(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.mask %mask { vector.transfer_read %m[%i], %p : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @mt2(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>, %v: vector<4xf32>) {
    vector.mask %mask { vector.transfer_write %v, %m[%i] : vector<4xf32>, memref<?xf32> } : vector<4xi1>
    return
  }
  func.func @mt3(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>, %pt: vector<4xf32>) -> vector<4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.mask %mask, %pt { vector.transfer_read %m[%i], %p : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @mt4(%t: tensor<?xf32>, %i: index, %mask: vector<4xi1>, %v: vector<4xf32>) -> tensor<?xf32> {
    %0 = vector.mask %mask { vector.transfer_write %v, %t[%i] : vector<4xf32>, tensor<?xf32> } : vector<4xi1> -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
  func.func @mt5(%v: vector<4xf32>, %mask: vector<4xi1>) -> f32 {
    %0 = vector.mask %mask { vector.reduction <add>, %v : vector<4xf32> into f32 } : vector<4xi1> -> f32
    return %0 : f32
  }
  func.func @mt6(%m: memref<?x?xf32>, %i: index, %mask: vector<2x4xi1>) -> vector<4x2xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.mask %mask { vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x2xf32> } : vector<2x4xi1> -> vector<4x2xf32>
    return %0 : vector<4x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_masked_transfers
    } : !transform.any_op
    transform.yield
  }
}
