// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file | filecheck %s

// transform.apply_patterns.vector.transfer_to_scf, with and without full_unroll; the
// expected IR is upstream's (iree-opt's transform interpreter gives the same, up to
// printing).

// full_unroll: one 1-D transfer per row, guarded by an scf.if where the row may be out of
// bounds (the padding splat otherwise); 1-D transfers are left to the LLVM lowering.
// CHECK-LABEL: func.func @r2(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x3xf32>
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.cmpi sge, %i, %[[V_C0]] : index
// CHECK-NEXT:  %[[V_2:.*]] = arith.cmpi slt, %i, %[[V_0]] : index
// CHECK-NEXT:  %[[V_3:.*]] = arith.andi %[[V_1]], %[[V_2]] : i1
// CHECK-NEXT:  %[[V_4:.*]] = scf.if %[[V_3]] -> (vector<2x3xf32>) {
// CHECK-NEXT:  %[[V_5:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_CST]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  scf.yield %[[V_6]] : vector<2x3xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %[[V_CST]] : vector<2x3xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_7:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_8:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_9:.*]] = arith.cmpi sge, %[[V_8]], %[[V_C0]] : index
// CHECK-NEXT:  %[[V_10:.*]] = arith.cmpi slt, %[[V_8]], %[[V_7]] : index
// CHECK-NEXT:  %[[V_11:.*]] = arith.andi %[[V_9]], %[[V_10]] : i1
// CHECK-NEXT:  %[[V_12:.*]] = scf.if %[[V_11]] -> (vector<2x3xf32>) {
// CHECK-NEXT:  %[[V_13:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_14:.*]] = vector.transfer_read %m[%[[V_13]], %i], %[[V_P]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  %[[V_15:.*]] = vector.insert %[[V_14]], %[[V_4]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  scf.yield %[[V_15]] : vector<2x3xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %[[V_4]] : vector<2x3xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[V_12]] : vector<2x3xf32>

// CHECK-LABEL: func.func @r2ib(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x3xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.insert %[[V_0]], %[[V_CST]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_3:.*]] = vector.transfer_read %m[%[[V_2]], %i], %[[V_P]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_3]], %[[V_1]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<2x3xf32>

// CHECK-LABEL: func.func @w2(
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.cmpi sge, %i, %[[V_C0]] : index
// CHECK-NEXT:  %[[V_2:.*]] = arith.cmpi slt, %i, %[[V_0]] : index
// CHECK-NEXT:  %[[V_3:.*]] = arith.andi %[[V_1]], %[[V_2]] : i1
// CHECK-NEXT:  scf.if %[[V_3]] {
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %v[0] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  vector.transfer_write %[[V_4]], %m[%i, %i] : vector<3xf32>, memref<?x?xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_5:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_6:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_7:.*]] = arith.cmpi sge, %[[V_6]], %[[V_C0]] : index
// CHECK-NEXT:  %[[V_8:.*]] = arith.cmpi slt, %[[V_6]], %[[V_5]] : index
// CHECK-NEXT:  %[[V_9:.*]] = arith.andi %[[V_7]], %[[V_8]] : i1
// CHECK-NEXT:  scf.if %[[V_9]] {
// CHECK-NEXT:  %[[V_10:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_11:.*]] = vector.extract %v[1] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  vector.transfer_write %[[V_11]], %m[%[[V_10]], %i] : vector<3xf32>, memref<?x?xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  }
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @r2m(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x3xf32>
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.cmpi sge, %i, %[[V_C0]] : index
// CHECK-NEXT:  %[[V_2:.*]] = arith.cmpi slt, %i, %[[V_0]] : index
// CHECK-NEXT:  %[[V_3:.*]] = arith.andi %[[V_1]], %[[V_2]] : i1
// CHECK-NEXT:  %[[V_4:.*]] = scf.if %[[V_3]] -> (vector<2x3xf32>) {
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %mask[0] : vector<3xi1> from vector<2x3xi1>
// CHECK-NEXT:  %[[V_6:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]], %[[V_5]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.insert %[[V_6]], %[[V_CST]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  scf.yield %[[V_7]] : vector<2x3xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %[[V_CST]] : vector<2x3xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_8:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_9:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_10:.*]] = arith.cmpi sge, %[[V_9]], %[[V_C0]] : index
// CHECK-NEXT:  %[[V_11:.*]] = arith.cmpi slt, %[[V_9]], %[[V_8]] : index
// CHECK-NEXT:  %[[V_12:.*]] = arith.andi %[[V_10]], %[[V_11]] : i1
// CHECK-NEXT:  %[[V_13:.*]] = scf.if %[[V_12]] -> (vector<2x3xf32>) {
// CHECK-NEXT:  %[[V_14:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_15:.*]] = vector.extract %mask[1] : vector<3xi1> from vector<2x3xi1>
// CHECK-NEXT:  %[[V_16:.*]] = vector.transfer_read %m[%[[V_14]], %i], %[[V_P]], %[[V_15]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  %[[V_17:.*]] = vector.insert %[[V_16]], %[[V_4]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  scf.yield %[[V_17]] : vector<2x3xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %[[V_4]] : vector<2x3xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[V_13]] : vector<2x3xf32>

// CHECK-LABEL: func.func @r1(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<3xf32>
module attributes {transform.with_named_sequence} {
  func.func @r2(%m: memref<?x?xf32>, %i: index) -> vector<2x3xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p : memref<?x?xf32>, vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @r2ib(%m: memref<?x?xf32>, %i: index) -> vector<2x3xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, false]} : memref<?x?xf32>, vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @w2(%m: memref<?x?xf32>, %i: index, %v: vector<2x3xf32>) {
    vector.transfer_write %v, %m[%i, %i] : vector<2x3xf32>, memref<?x?xf32>
    return
  }
  func.func @r2m(%m: memref<?x?xf32>, %i: index, %mask: vector<2x3xi1>) -> vector<2x3xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mask : memref<?x?xf32>, vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @r1(%m: memref<?x?xf32>, %i: index) -> vector<3xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p : memref<?x?xf32>, vector<3xf32>
    return %0 : vector<3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.transfer_to_scf full_unroll = true
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Without full_unroll: an scf.for over the rows through a stack buffer (memref.alloca of
// the vector type and vector.type_cast).
// CHECK-LABEL: func.func @r2(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<3xf32>
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = memref.alloca() : memref<vector<2x3xf32>>
// CHECK-NEXT:  %[[V_1:.*]] = vector.type_cast %[[V_0]] : memref<vector<2x3xf32>> to memref<2xvector<3xf32>>
// CHECK-NEXT:  scf.for %[[V_2:.*]] = %[[V_C0]] to %[[V_C2]] step %[[V_C1]] {
// CHECK-NEXT:  %[[V_3:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_4:.*]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%[[V_2]])[%i]
// CHECK-NEXT:  %[[V_5:.*]] = arith.cmpi sge, %[[V_4]], %[[V_C0]] : index
// CHECK-NEXT:  %[[V_6:.*]] = arith.cmpi slt, %[[V_4]], %[[V_3]] : index
// CHECK-NEXT:  %[[V_7:.*]] = arith.andi %[[V_5]], %[[V_6]] : i1
// CHECK-NEXT:  scf.if %[[V_7]] {
// CHECK-NEXT:  %[[V_8:.*]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%[[V_2]])[%i]
// CHECK-NEXT:  %[[V_9:.*]] = vector.transfer_read %m[%[[V_8]], %i], %[[V_P]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  memref.store %[[V_9]], %[[V_1]][%[[V_2]]] : memref<2xvector<3xf32>>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  memref.store %[[V_CST]], %[[V_1]][%[[V_2]]] : memref<2xvector<3xf32>>
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_10:.*]] = memref.load %[[V_0]][] : memref<vector<2x3xf32>>
// CHECK-NEXT:  return %[[V_10]] : vector<2x3xf32>

// CHECK-LABEL: func.func @r2ib(
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = memref.alloca() : memref<vector<2x3xf32>>
// CHECK-NEXT:  %[[V_1:.*]] = vector.type_cast %[[V_0]] : memref<vector<2x3xf32>> to memref<2xvector<3xf32>>
// CHECK-NEXT:  scf.for %[[V_2:.*]] = %[[V_C0]] to %[[V_C2]] step %[[V_C1]] {
// CHECK-NEXT:  %[[V_3:.*]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%[[V_2]])[%i]
// CHECK-NEXT:  %[[V_4:.*]] = vector.transfer_read %m[%[[V_3]], %i], %[[V_P]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  memref.store %[[V_4]], %[[V_1]][%[[V_2]]] : memref<2xvector<3xf32>>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_5:.*]] = memref.load %[[V_0]][] : memref<vector<2x3xf32>>
// CHECK-NEXT:  return %[[V_5]] : vector<2x3xf32>

// CHECK-LABEL: func.func @w2(
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = memref.alloca() : memref<vector<2x3xf32>>
// CHECK-NEXT:  memref.store %v, %[[V_0]][] : memref<vector<2x3xf32>>
// CHECK-NEXT:  %[[V_1:.*]] = vector.type_cast %[[V_0]] : memref<vector<2x3xf32>> to memref<2xvector<3xf32>>
// CHECK-NEXT:  scf.for %[[V_2:.*]] = %[[V_C0]] to %[[V_C2]] step %[[V_C1]] {
// CHECK-NEXT:  %[[V_3:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_4:.*]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%[[V_2]])[%i]
// CHECK-NEXT:  %[[V_5:.*]] = arith.cmpi sge, %[[V_4]], %[[V_C0]] : index
// CHECK-NEXT:  %[[V_6:.*]] = arith.cmpi slt, %[[V_4]], %[[V_3]] : index
// CHECK-NEXT:  %[[V_7:.*]] = arith.andi %[[V_5]], %[[V_6]] : i1
// CHECK-NEXT:  scf.if %[[V_7]] {
// CHECK-NEXT:  %[[V_8:.*]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%[[V_2]])[%i]
// CHECK-NEXT:  %[[V_9:.*]] = memref.load %[[V_1]][%[[V_2]]] : memref<2xvector<3xf32>>
// CHECK-NEXT:  vector.transfer_write %[[V_9]], %m[%[[V_8]], %i] : vector<3xf32>, memref<?x?xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @r2m(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<3xf32>
// CHECK-NEXT:  %[[V_C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[V_C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = memref.alloca() : memref<vector<2x3xf32>>
// CHECK-NEXT:  %[[V_1:.*]] = memref.alloca() : memref<vector<2x3xi1>>
// CHECK-NEXT:  memref.store %mask, %[[V_1]][] : memref<vector<2x3xi1>>
// CHECK-NEXT:  %[[V_2:.*]] = vector.type_cast %[[V_0]] : memref<vector<2x3xf32>> to memref<2xvector<3xf32>>
// CHECK-NEXT:  %[[V_3:.*]] = vector.type_cast %[[V_1]] : memref<vector<2x3xi1>> to memref<2xvector<3xi1>>
// CHECK-NEXT:  scf.for %[[V_4:.*]] = %[[V_C0]] to %[[V_C2]] step %[[V_C1]] {
// CHECK-NEXT:  %[[V_5:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_6:.*]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%[[V_4]])[%i]
// CHECK-NEXT:  %[[V_7:.*]] = arith.cmpi sge, %[[V_6]], %[[V_C0]] : index
// CHECK-NEXT:  %[[V_8:.*]] = arith.cmpi slt, %[[V_6]], %[[V_5]] : index
// CHECK-NEXT:  %[[V_9:.*]] = arith.andi %[[V_7]], %[[V_8]] : i1
// CHECK-NEXT:  scf.if %[[V_9]] {
// CHECK-NEXT:  %[[V_10:.*]] = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%[[V_4]])[%i]
// CHECK-NEXT:  %[[V_11:.*]] = memref.load %[[V_3]][%[[V_4]]] : memref<2xvector<3xi1>>
// CHECK-NEXT:  %[[V_12:.*]] = vector.transfer_read %m[%[[V_10]], %i], %[[V_P]], %[[V_11]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  memref.store %[[V_12]], %[[V_2]][%[[V_4]]] : memref<2xvector<3xf32>>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  memref.store %[[V_CST]], %[[V_2]][%[[V_4]]] : memref<2xvector<3xf32>>
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_13:.*]] = memref.load %[[V_0]][] : memref<vector<2x3xf32>>
// CHECK-NEXT:  return %[[V_13]] : vector<2x3xf32>

// CHECK-LABEL: func.func @r1(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<?x?xf32>, vector<3xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<3xf32>
module attributes {transform.with_named_sequence} {
  func.func @r2(%m: memref<?x?xf32>, %i: index) -> vector<2x3xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p : memref<?x?xf32>, vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @r2ib(%m: memref<?x?xf32>, %i: index) -> vector<2x3xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, false]} : memref<?x?xf32>, vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @w2(%m: memref<?x?xf32>, %i: index, %v: vector<2x3xf32>) {
    vector.transfer_write %v, %m[%i, %i] : vector<2x3xf32>, memref<?x?xf32>
    return
  }
  func.func @r2m(%m: memref<?x?xf32>, %i: index, %mask: vector<2x3xi1>) -> vector<2x3xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mask : memref<?x?xf32>, vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @r1(%m: memref<?x?xf32>, %i: index) -> vector<3xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p : memref<?x?xf32>, vector<3xf32>
    return %0 : vector<3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.transfer_to_scf
    } : !transform.any_op
    transform.yield
  }
}
