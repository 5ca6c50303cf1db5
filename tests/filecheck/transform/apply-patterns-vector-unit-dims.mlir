// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file | filecheck %s

// transform.apply_patterns.vector.cast_away_vector_leading_one_dim; the expected IR is
// upstream's (iree-opt's transform interpreter gives the same, up to printing).

// Transfers, elementwise ops, insert, contract, fma and masks: leading unit dims go
// (transfer_read -> broadcast back; writes, insert and contract -> shape_cast; elementwise
// ops -> extract [0] + broadcast); multi_reduction, extract and broadcast are left alone.
// CHECK-LABEL: func.func @u1(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%[[V_C0]], %i], %[[V_P]] {in_bounds = [true]} : memref<1x8xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<1x4xf32>

// CHECK-LABEL: func.func @u2(
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  vector.transfer_write %[[V_0]], %m[%[[V_C0]], %i] {in_bounds = [true]} : vector<4xf32>, memref<1x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @u3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %b[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = arith.addf %[[V_0]], %[[V_1]] : vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.broadcast %[[V_2]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x4xf32>

// CHECK-LABEL: func.func @u4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.broadcast %s : vector<4xf32> to vector<1x1x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<1x1x4xf32>

// CHECK-LABEL: func.func @u5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %v[0, 2] : f32 from vector<1x4xf32>
// CHECK-NEXT:  return %[[V_0]] : f32

// CHECK-LABEL: func.func @u6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.insert %s, %[[V_0]] [2] : f32 into vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.shape_cast %[[V_1]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<1x4xf32>

// CHECK-LABEL: func.func @u7(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %a : vector<1x8xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %c : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %[[V_0]], %b, %[[V_1]] : vector<8xf32>, vector<8x4xf32> into vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.shape_cast %[[V_2]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x4xf32>

// CHECK-LABEL: func.func @u8(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {in_bounds = [true]} : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<1x4xf32>

// CHECK-LABEL: func.func @u9(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [1] : vector<1x4xf32> to vector<1xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<1xf32>

// CHECK-LABEL: func.func @u10(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %b[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %c[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.fma %[[V_0]], %[[V_1]], %[[V_2]] : vector<4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.broadcast %[[V_3]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<1x4xf32>

// CHECK-LABEL: func.func @s3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %d : vector<1x3x1x4xf32> to vector<3x1x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert %[[V_0]], %[[V_1]] [1, 0] : vector<4xf32> into vector<3x1x4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.shape_cast %[[V_2]] : vector<3x1x4xf32> to vector<1x3x1x4xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x3x1x4xf32>

// CHECK-LABEL: func.func @s4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %a : vector<1x8xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %c : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %[[V_0]], %b, %[[V_1]] : vector<8xf32>, vector<4x8xf32> into vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.shape_cast %[[V_2]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x4xf32>

// CHECK-LABEL: func.func @s5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %a : vector<8x1xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %c : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %[[V_0]], %b, %[[V_1]] : vector<8xf32>, vector<8x4xf32> into vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.shape_cast %[[V_2]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x4xf32>

// CHECK-LABEL: func.func @s6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<1xf32> from vector<1x1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %b[0] : vector<1xf32> from vector<1x1xf32>
// CHECK-NEXT:  %[[V_2:.*]] = arith.mulf %[[V_0]], %[[V_1]] : vector<1xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.broadcast %[[V_2]] : vector<1xf32> to vector<1x1xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x1xf32>

// CHECK-LABEL: func.func @s8(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<4xf16> from vector<1x4xf16>
// CHECK-NEXT:  %[[V_1:.*]] = arith.extf %[[V_0]] : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.broadcast %[[V_1]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<1x4xf32>

// CHECK-LABEL: func.func @s9(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<4x8xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<1x4xf32>

// CHECK-LABEL: func.func @s12(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = math.exp %[[V_0]] : vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.broadcast %[[V_1]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<1x4xf32>

// CHECK-LABEL: func.func @s13(
// CHECK-NEXT:  return %v : vector<1x4xf32>

// CHECK-LABEL: func.func @s14(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %d : vector<1x1xf32> to vector<1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.insert %v, %[[V_0]] [0] : f32 into vector<1xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.shape_cast %[[V_1]] : vector<1xf32> to vector<1x1xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<1x1xf32>

// CHECK-LABEL: func.func @s15(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<4x1xf32> from vector<1x4x1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %b[0] : vector<4x1xf32> from vector<1x4x1xf32>
// CHECK-NEXT:  %[[V_2:.*]] = arith.addf %[[V_0]], %[[V_1]] fastmath<fast> : vector<4x1xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.broadcast %[[V_2]] : vector<4x1xf32> to vector<1x4x1xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x4x1xf32>

// CHECK-LABEL: func.func @t1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %mk : vector<1x4xi1> to vector<4xi1>
// CHECK-NEXT:  vector.transfer_write %[[V_0]], %m[%i, %i], %[[V_1]] : vector<4xf32>, memref<4x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @t2(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.mask %mk { vector.transfer_read %m[%i, %i], %[[V_P]] : memref<4x8xf32>, vector<1x4xf32> } : vector<1x4xi1> -> vector<1x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<1x4xf32>

// CHECK-LABEL: func.func @t3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %a : vector<1x8xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %c : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.shape_cast %mk : vector<1x4x8xi1> to vector<4x8xi1>
// CHECK-NEXT:  %[[V_3:.*]] = vector.mask %[[V_2]] { vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %[[V_0]], %b, %[[V_1]] : vector<8xf32>, vector<8x4xf32> into vector<4xf32> } : vector<4x8xi1> -> vector<4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.shape_cast %[[V_3]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<1x4xf32>

// CHECK-LABEL: func.func @t4(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %a : vector<1x1x8xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %b : vector<1x8xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %[[V_0]], %[[V_1]], %[[V_CST]] : vector<8xf32>, vector<8xf32> into f32
// CHECK-NEXT:  %[[V_3:.*]] = vector.broadcast %[[V_2]] : f32 to vector<1xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.shape_cast %[[V_3]] : vector<1xf32> to vector<1x1xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<1x1xf32>

// CHECK-LABEL: func.func @t5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.constant_mask [3] : vector<4xi1>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<4xi1> to vector<1x4xi1>
// CHECK-NEXT:  return %[[V_1]] : vector<1x4xi1>

// CHECK-LABEL: func.func @t7(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.addf %[[V_0]], %[[V_CST]] : vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.broadcast %[[V_1]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<1x4xf32>

// CHECK-LABEL: func.func @t8(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %a, [1, 0] : vector<1x4xf32> to vector<4x1xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x1xf32>

// CHECK-LABEL: func.func @t9(
// CHECK-NEXT:  %[[V_0:.*]] = arith.addf %a, %b : vector<2x1x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x1x4xf32>

// CHECK-LABEL: func.func @t10(
// CHECK-NEXT:  vector.transfer_write %v, %m[%i, %i] : vector<1xf32>, memref<4x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @l1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %v[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  vector.store %[[V_0]], %m[%i, %i] : memref<4x8xf32>, vector<4xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @l4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0, 0] : vector<4xf32> from vector<1x1x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %b[0, 0] : vector<4xf32> from vector<1x1x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %c[0, 0] : vector<4xf32> from vector<1x1x4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = math.fma %[[V_0]], %[[V_1]], %[[V_2]] : vector<4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.broadcast %[[V_3]] : vector<4xf32> to vector<1x1x4xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<1x1x4xf32>

// CHECK-LABEL: func.func @l6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.broadcast %s : f32 to vector<1x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %a[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %[[V_0]][0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = arith.mulf %[[V_1]], %[[V_2]] : vector<4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.broadcast %[[V_3]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<1x4xf32>
module attributes {transform.with_named_sequence} {
  func.func @u1(%m: memref<1x8xf32>, %i: index) -> vector<1x4xf32> {
    %p = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %0 = vector.transfer_read %m[%c0, %i], %p {in_bounds = [true, true]} : memref<1x8xf32>, vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @u2(%m: memref<1x8xf32>, %i: index, %v: vector<1x4xf32>) {
    %c0 = arith.constant 0 : index
    vector.transfer_write %v, %m[%c0, %i] {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x8xf32>
    return
  }
  func.func @u3(%a: vector<1x4xf32>, %b: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = arith.addf %a, %b : vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @u4(%s: vector<4xf32>) -> vector<1x1x4xf32> {
    %0 = vector.broadcast %s : vector<4xf32> to vector<1x1x4xf32>
    return %0 : vector<1x1x4xf32>
  }
  func.func @u5(%v: vector<1x4xf32>) -> f32 {
    %0 = vector.extract %v[0, 2] : f32 from vector<1x4xf32>
    return %0 : f32
  }
  func.func @u6(%v: vector<1x4xf32>, %s: f32) -> vector<1x4xf32> {
    %0 = vector.insert %s, %v[0, 2] : f32 into vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @u7(%a: vector<1x8xf32>, %b: vector<8x4xf32>, %c: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i,j,k)->(i,k)>, affine_map<(i,j,k)->(k,j)>, affine_map<(i,j,k)->(i,j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<1x8xf32>, vector<8x4xf32> into vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @u8(%m: memref<8x8xf32>, %i: index) -> vector<1x4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true]} : memref<8x8xf32>, vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @u9(%v: vector<1x4xf32>, %acc: vector<1xf32>) -> vector<1xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [1] : vector<1x4xf32> to vector<1xf32>
    return %0 : vector<1xf32>
  }
  func.func @u10(%a: vector<1x4xf32>, %b: vector<1x4xf32>, %c: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = vector.fma %a, %b, %c : vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @s3(%v: vector<1x4xf32>, %d: vector<1x3x1x4xf32>) -> vector<1x3x1x4xf32> {
    %0 = vector.insert %v, %d[0, 1] : vector<1x4xf32> into vector<1x3x1x4xf32>
    return %0 : vector<1x3x1x4xf32>
  }
  func.func @s4(%a: vector<1x8xf32>, %b: vector<4x8xf32>, %c: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i,j,k)->(i,k)>, affine_map<(i,j,k)->(j,k)>, affine_map<(i,j,k)->(i,j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<1x8xf32>, vector<4x8xf32> into vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @s5(%a: vector<8x1xf32>, %b: vector<8x4xf32>, %c: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i,j,k)->(k,i)>, affine_map<(i,j,k)->(k,j)>, affine_map<(i,j,k)->(i,j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<8x1xf32>, vector<8x4xf32> into vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @s6(%a: vector<1x1xf32>, %b: vector<1x1xf32>) -> vector<1x1xf32> {
    %0 = arith.mulf %a, %b : vector<1x1xf32>
    return %0 : vector<1x1xf32>
  }
  func.func @s8(%a: vector<1x4xf16>) -> vector<1x4xf32> {
    %0 = arith.extf %a : vector<1x4xf16> to vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @s9(%m: memref<4x8xf32>, %i: index) -> vector<1x4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x8xf32>, vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @s12(%a: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = math.exp %a : vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @s13(%v: vector<1x4xf32>, %d: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = vector.insert %v, %d[] : vector<1x4xf32> into vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @s14(%v: f32, %d: vector<1x1xf32>) -> vector<1x1xf32> {
    %0 = vector.insert %v, %d[0, 0] : f32 into vector<1x1xf32>
    return %0 : vector<1x1xf32>
  }
  func.func @s15(%a: vector<1x4x1xf32>, %b: vector<1x4x1xf32>) -> vector<1x4x1xf32> {
    %0 = arith.addf %a, %b fastmath<fast> : vector<1x4x1xf32>
    return %0 : vector<1x4x1xf32>
  }
  func.func @t1(%m: memref<4x8xf32>, %i: index, %v: vector<1x4xf32>, %mk: vector<1x4xi1>) {
    vector.transfer_write %v, %m[%i, %i], %mk : vector<1x4xf32>, memref<4x8xf32>
    return
  }
  func.func @t2(%m: memref<4x8xf32>, %i: index, %mk: vector<1x4xi1>) -> vector<1x4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.mask %mk { vector.transfer_read %m[%i, %i], %p : memref<4x8xf32>, vector<1x4xf32> } : vector<1x4xi1> -> vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @t3(%a: vector<1x8xf32>, %b: vector<8x4xf32>, %c: vector<1x4xf32>, %mk: vector<1x4x8xi1>) -> vector<1x4xf32> {
    %0 = vector.mask %mk { vector.contract {indexing_maps = [affine_map<(i,j,k)->(i,k)>, affine_map<(i,j,k)->(k,j)>, affine_map<(i,j,k)->(i,j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<1x8xf32>, vector<8x4xf32> into vector<1x4xf32> } : vector<1x4x8xi1> -> vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @t4(%a: vector<1x1x8xf32>, %b: vector<1x8xf32>) -> vector<1x1xf32> {
    %c = arith.constant dense<0.0> : vector<1x1xf32>
    %0 = vector.contract {indexing_maps = [affine_map<(i,j,k)->(i,j,k)>, affine_map<(i,j,k)->(j,k)>, affine_map<(i,j,k)->(i,j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<1x1x8xf32>, vector<1x8xf32> into vector<1x1xf32>
    return %0 : vector<1x1xf32>
  }
  func.func @t5() -> vector<1x4xi1> {
    %0 = vector.constant_mask [1, 3] : vector<1x4xi1>
    return %0 : vector<1x4xi1>
  }
  func.func @t7(%a: vector<1x4xf32>, %b: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = arith.constant dense<1.0> : vector<1x4xf32>
    %1 = arith.addf %a, %0 : vector<1x4xf32>
    return %1 : vector<1x4xf32>
  }
  func.func @t8(%a: vector<1x4xf32>) -> vector<4x1xf32> {
    %0 = vector.transpose %a, [1, 0] : vector<1x4xf32> to vector<4x1xf32>
    return %0 : vector<4x1xf32>
  }
  func.func @t9(%a: vector<2x1x4xf32>, %b: vector<2x1x4xf32>) -> vector<2x1x4xf32> {
    %0 = arith.addf %a, %b : vector<2x1x4xf32>
    return %0 : vector<2x1x4xf32>
  }
  func.func @t10(%m: memref<4x8xf32>, %i: index, %v: vector<1xf32>) {
    vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<1xf32>, memref<4x8xf32>
    return
  }
  func.func @l1(%m: memref<4x8xf32>, %i: index, %v: vector<1x4xf32>) {
    vector.store %v, %m[%i, %i] : memref<4x8xf32>, vector<1x4xf32>
    return
  }
  func.func @l4(%a: vector<1x1x4xf32>, %b: vector<1x1x4xf32>, %c: vector<1x1x4xf32>) -> vector<1x1x4xf32> {
    %0 = math.fma %a, %b, %c : vector<1x1x4xf32>
    return %0 : vector<1x1x4xf32>
  }
  func.func @l6(%a: vector<1x4xf32>, %s: f32) -> vector<1x4xf32> {
    %0 = vector.broadcast %s : f32 to vector<1x4xf32>
    %1 = arith.mulf %a, %0 : vector<1x4xf32>
    return %1 : vector<1x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Strided slices, masked transfers, tensors, loads and stores.
// CHECK-LABEL: func.func @s1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x1x8xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract_strided_slice %[[V_0]] offsets = [2], sizes = [4], strides = [1] : vector<8xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.shape_cast %[[V_1]] : vector<4xf32> to vector<1x1x4xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<1x1x4xf32>

// CHECK-LABEL: func.func @s2(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shape_cast %d : vector<1x8xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert_strided_slice %[[V_0]], %[[V_1]] offsets = [2], strides = [1] : vector<4xf32> into vector<8xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.shape_cast %[[V_2]] : vector<8xf32> to vector<1x8xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x8xf32>

// CHECK-LABEL: func.func @s10(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x1x4xf32> to vector<4xf32>
// CHECK-NEXT:  vector.transfer_write %[[V_0]], %m[%i, %i, %i] : vector<4xf32>, memref<2x4x8xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @s11(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %mk : vector<1x4xi1> to vector<4xi1>
// CHECK-NEXT:  %[[V_1:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]], %[[V_0]] : memref<4x8xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.broadcast %[[V_1]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<1x4xf32>

// CHECK-LABEL: func.func @s16(
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x4xf32> to vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.transfer_write %[[V_0]], %t[%[[V_C0]], %i] {in_bounds = [true]} : vector<4xf32>, tensor<1x8xf32>
// CHECK-NEXT:  return %[[V_1]] : tensor<1x8xf32>

// CHECK-LABEL: func.func @t6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.load %m[%i, %i] : memref<4x8xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<1x4xf32>

// CHECK-LABEL: func.func @l2(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %mk[0] : vector<4xi1> from vector<1x4xi1>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %pt[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.maskedload %m[%i, %i], %[[V_0]], %[[V_1]] : memref<4x8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.broadcast %[[V_2]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_3]] : vector<1x4xf32>

// CHECK-LABEL: func.func @l3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %mk[0] : vector<4xi1> from vector<1x4xi1>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  vector.maskedstore %m[%i, %i], %[[V_0]], %[[V_1]] : memref<4x8xf32>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT:  return

// CHECK-LABEL: func.func @l7(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<1x8xf32>, vector<1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<1xf32> to vector<1x1xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<1x1xf32>

// CHECK-LABEL: func.func @l8(
// CHECK-NEXT:  %[[V_P:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = vector.transfer_read %m[%i, %i], %[[V_P]] : memref<4x8xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : vector<4xf32> to vector<1x4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<1x4xf32>
module attributes {transform.with_named_sequence} {
  func.func @s1(%v: vector<1x1x8xf32>) -> vector<1x1x4xf32> {
    %0 = vector.extract_strided_slice %v offsets = [0, 0, 2], sizes = [1, 1, 4], strides = [1, 1, 1] : vector<1x1x8xf32> to vector<1x1x4xf32>
    return %0 : vector<1x1x4xf32>
  }
  func.func @s2(%v: vector<1x4xf32>, %d: vector<1x8xf32>) -> vector<1x8xf32> {
    %0 = vector.insert_strided_slice %v, %d offsets = [0, 2], strides = [1, 1] : vector<1x4xf32> into vector<1x8xf32>
    return %0 : vector<1x8xf32>
  }
  func.func @s10(%m: memref<2x4x8xf32>, %i: index, %v: vector<1x1x4xf32>) {
    vector.transfer_write %v, %m[%i, %i, %i] {in_bounds = [true, true, false]} : vector<1x1x4xf32>, memref<2x4x8xf32>
    return
  }
  func.func @s11(%m: memref<4x8xf32>, %i: index, %mk: vector<1x4xi1>) -> vector<1x4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p, %mk : memref<4x8xf32>, vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @s16(%t: tensor<1x8xf32>, %v: vector<1x4xf32>, %i: index) -> tensor<1x8xf32> {
    %c0 = arith.constant 0 : index
    %0 = vector.transfer_write %v, %t[%c0, %i] {in_bounds = [true, true]} : vector<1x4xf32>, tensor<1x8xf32>
    return %0 : tensor<1x8xf32>
  }
  func.func @t6(%m: memref<4x8xf32>, %i: index) -> vector<1x4xf32> {
    %0 = vector.load %m[%i, %i] : memref<4x8xf32>, vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @l2(%m: memref<4x8xf32>, %i: index, %mk: vector<1x4xi1>, %pt: vector<1x4xf32>) -> vector<1x4xf32> {
    %0 = vector.maskedload %m[%i, %i], %mk, %pt : memref<4x8xf32>, vector<1x4xi1>, vector<1x4xf32> into vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  func.func @l3(%m: memref<4x8xf32>, %i: index, %mk: vector<1x4xi1>, %v: vector<1x4xf32>) {
    vector.maskedstore %m[%i, %i], %mk, %v : memref<4x8xf32>, vector<1x4xi1>, vector<1x4xf32>
    return
  }
  func.func @l7(%m: memref<1x8xf32>, %i: index) -> vector<1x1xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p : memref<1x8xf32>, vector<1x1xf32>
    return %0 : vector<1x1xf32>
  }
  func.func @l8(%m: memref<4x8xf32>, %i: index) -> vector<1x4xf32> {
    %p = arith.constant 0.0 : f32
    %0 = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x8xf32>, vector<1x4xf32>
    return %0 : vector<1x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
    } : !transform.any_op
    transform.yield
  }
}
