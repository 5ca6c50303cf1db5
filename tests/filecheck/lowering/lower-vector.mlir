// RUN: schedir-opt %s --mlir-print-local-scope -p lower-vector | filecheck %s

// lower-vector (schedir's pass): the default lowering of the vector IR a schedule left,
// to the 1-D ops convert-vector-to-llvm converts.

// A contraction becomes outer products (lhs transposed element by element), then rows
// of fma with a splat of the lhs element.
// CHECK-LABEL: func.func @contract(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x3xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %b[0] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %a[0, 0] : f32 from vector<2x2xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.broadcast %[[V_1]] : f32 to vector<3xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %c[0] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.fma %[[V_2]], %[[V_0]], %[[V_3]] : vector<3xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %a[1, 0] : f32 from vector<2x2xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.broadcast %[[V_5]] : f32 to vector<3xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %c[1] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.fma %[[V_6]], %[[V_0]], %[[V_7]] : vector<3xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %b[1] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_10:.*]] = vector.extract %a[0, 1] : f32 from vector<2x2xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.broadcast %[[V_10]] : f32 to vector<3xf32>
// CHECK-NEXT:  %[[V_12:.*]] = vector.fma %[[V_11]], %[[V_9]], %[[V_4]] : vector<3xf32>
// CHECK-NEXT:  %[[V_13:.*]] = vector.insert %[[V_12]], %[[V_CST]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_14:.*]] = vector.extract %a[1, 1] : f32 from vector<2x2xf32>
// CHECK-NEXT:  %[[V_15:.*]] = vector.broadcast %[[V_14]] : f32 to vector<3xf32>
// CHECK-NEXT:  %[[V_16:.*]] = vector.fma %[[V_15]], %[[V_9]], %[[V_8]] : vector<3xf32>
// CHECK-NEXT:  %[[V_17:.*]] = vector.insert %[[V_16]], %[[V_13]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  return %[[V_17]] : vector<2x3xf32>
func.func @contract(%a: vector<2x2xf32>, %b: vector<2x3xf32>, %c: vector<2x3xf32>) -> vector<2x3xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x2xf32>, vector<2x3xf32> into vector<2x3xf32>
  return %0 : vector<2x3xf32>
}
// A multi-reduction over the innermost dimension becomes one vector.reduction per row
// (innerreduction): no transposition of the source.

// CHECK-LABEL: func.func @multi_reduction(
// CHECK-NEXT:  %[[CST:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK-NEXT:  %[[R0:.*]] = vector.extract %v[0] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[A0:.*]] = vector.extract %acc[0] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[S0:.*]] = vector.reduction <add>, %[[R0]], %[[A0]] : vector<4xf32> into f32
// CHECK-NEXT:  %[[I0:.*]] = vector.insert %[[S0]], %[[CST]] [0] : f32 into vector<2xf32>
// CHECK-NEXT:  %[[R1:.*]] = vector.extract %v[1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[A1:.*]] = vector.extract %acc[1] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[S1:.*]] = vector.reduction <add>, %[[R1]], %[[A1]] : vector<4xf32> into f32
// CHECK-NEXT:  %[[I1:.*]] = vector.insert %[[S1]], %[[I0]] [1] : f32 into vector<2xf32>
// CHECK-NEXT:  return %[[I1]] : vector<2xf32>
func.func @multi_reduction(%v: vector<2x4xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
  %0 = vector.multi_reduction <add>, %v, %acc [1] : vector<2x4xf32> to vector<2xf32>
  return %0 : vector<2xf32>
}
// n-D transfers become rows of 1-D ones, a row that may be out of bounds under an scf.if.

// CHECK-LABEL: func.func @transfer_2d(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x4xf32>
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.cmpi sge, %i, %[[V_C0]] : index
// CHECK-NEXT:  %[[V_2:.*]] = arith.cmpi slt, %i, %[[V_0]] : index
// CHECK-NEXT:  %[[V_3:.*]] = arith.andi %[[V_1]], %[[V_2]] : i1
// CHECK-NEXT:  %[[V_4:.*]] = scf.if %[[V_3]] -> (vector<2x4xf32>) {
// CHECK-NEXT:  %[[V_5:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_CST]] [0] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:  scf.yield %[[V_6]] : vector<2x4xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %[[V_CST]] : vector<2x4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_7:.*]] = memref.dim %m, %[[V_C0]] : memref<?x?xf32>
// CHECK-NEXT:  %[[V_8:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_9:.*]] = arith.cmpi sge, %[[V_8]], %[[V_C0]] : index
// CHECK-NEXT:  %[[V_10:.*]] = arith.cmpi slt, %[[V_8]], %[[V_7]] : index
// CHECK-NEXT:  %[[V_11:.*]] = arith.andi %[[V_9]], %[[V_10]] : i1
// CHECK-NEXT:  %[[V_12:.*]] = scf.if %[[V_11]] -> (vector<2x4xf32>) {
// CHECK-NEXT:  %[[V_13:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_14:.*]] = vector.transfer_read %m[%[[V_13]], %i], %[[V_P]] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_15:.*]] = vector.insert %[[V_14]], %[[V_4]] [1] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:  scf.yield %[[V_15]] : vector<2x4xf32>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %[[V_4]] : vector<2x4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[V_16:.*]] = vector.extract %[[V_12]][0] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  vector.store %[[V_16]], %m[%i, %i] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_17:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_18:.*]] = vector.extract %[[V_12]][1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  vector.store %[[V_18]], %m[%[[V_17]], %i] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:  return
func.func @transfer_2d(%m: memref<?x?xf32>, %i: index) {
  %p = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %i], %p : memref<?x?xf32>, vector<2x4xf32>
  vector.transfer_write %0, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<?x?xf32>
  return
}
// Permuted transfers become minor-identity ones and a transpose.

// CHECK-LABEL: func.func @transposed_read(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<2x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.load %m[%i, %i] : memref<8x8xf32>, vector<2xf32>
// CHECK-NEXT:  %[[V_2:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[V_3:.*]] = vector.load %m[%[[V_2]], %i] : memref<8x8xf32>, vector<2xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %[[V_1]][0] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.insert %[[V_4]], %[[V_0]] [0, 0] : f32 into vector<2x2xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.extract %[[V_1]][1] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.insert %[[V_6]], %[[V_5]] [1, 0] : f32 into vector<2x2xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.extract %[[V_3]][0] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.insert %[[V_8]], %[[V_7]] [0, 1] : f32 into vector<2x2xf32>
// CHECK-NEXT:  %[[V_10:.*]] = vector.extract %[[V_3]][1] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.insert %[[V_10]], %[[V_9]] [1, 1] : f32 into vector<2x2xf32>
// CHECK-NEXT:  return %[[V_11]] : vector<2x2xf32>
func.func @transposed_read(%m: memref<8x8xf32>, %i: index) -> vector<2x2xf32> {
  %p = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<2x2xf32>
  return %0 : vector<2x2xf32>
}
// Ops convert-vector-to-llvm converts directly are left alone.

// CHECK-LABEL: func.func @left_alone(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i] : memref<?xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.reduction <add>, %[[V_0]], %s : vector<4xf32> into f32
// CHECK-NEXT:  return %[[V_1]] : f32
func.func @left_alone(%m: memref<?xf32>, %i: index, %s: f32) -> f32 {
  %0 = vector.load %m[%i] : memref<?xf32>, vector<4xf32>
  %1 = vector.reduction <add>, %0, %s : vector<4xf32> into f32
  return %1 : f32
}
