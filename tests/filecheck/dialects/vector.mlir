// RUN: %roundtrip | filecheck %s

// The vector dialect in upstream MLIR's syntax (LLVM 24git): every op schedir's
// lowerings meet, with the element types vectorized kernels use. Printed back the same
// (in_bounds all false is elided, as upstream prints it).

// CHECK-LABEL: func.func @transfers(
// CHECK-NEXT:    %r0 = vector.transfer_read %m[%i, %i], %pad : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:    %r1 = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true, false]} : memref<8x8xf32>, vector<2x4xf32>
// CHECK-NEXT:    %r2 = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
// CHECK-NEXT:    %r3 = vector.transfer_read %m[%i, %i], %pad {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<8x8xf32>, vector<3x4xf32>
// CHECK-NEXT:    %r4 = vector.transfer_read %m[%i, %i], %pad, %mask : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:    %r5 = vector.transfer_read %t[%i, %i], %pad, %mask2 {in_bounds = [true, true]} : tensor<8x8xf32>, vector<2x4xf32>
// CHECK-NEXT:    %r6 = vector.transfer_read %m[%i, %i], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
// CHECK-NEXT:    vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:    vector.transfer_write %v2, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32>
// CHECK-NEXT:    vector.transfer_write %v, %m[%i, %i], %mask : vector<4xf32>, memref<8x8xf32>
// CHECK-NEXT:    vector.transfer_write %v2, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<2x4xf32>, memref<8x8xf32>
// CHECK-NEXT:    %w = vector.transfer_write %v2, %t[%i, %i] : vector<2x4xf32>, tensor<8x8xf32>
// CHECK-NEXT:    return %r0, %w : vector<4xf32>, tensor<8x8xf32>
func.func @transfers(%m: memref<8x8xf32>, %t: tensor<8x8xf32>, %i: index, %pad: f32, %mask: vector<4xi1>, %mask2: vector<2x4xi1>, %v: vector<4xf32>, %v2: vector<2x4xf32>) -> (vector<4xf32>, tensor<8x8xf32>) {
  %r0 = vector.transfer_read %m[%i, %i], %pad : memref<8x8xf32>, vector<4xf32>
  %r1 = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true, false]} : memref<8x8xf32>, vector<2x4xf32>
  %r2 = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>
  %r3 = vector.transfer_read %m[%i, %i], %pad {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<8x8xf32>, vector<3x4xf32>
  %r4 = vector.transfer_read %m[%i, %i], %pad, %mask : memref<8x8xf32>, vector<4xf32>
  %r5 = vector.transfer_read %t[%i, %i], %pad, %mask2 {in_bounds = [true, true]} : tensor<8x8xf32>, vector<2x4xf32>
  %r6 = vector.transfer_read %m[%i, %i], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
  vector.transfer_write %v, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
  vector.transfer_write %v2, %m[%i, %i] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x8xf32>
  vector.transfer_write %v, %m[%i, %i], %mask {in_bounds = [false]} : vector<4xf32>, memref<8x8xf32>
  vector.transfer_write %v2, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : vector<2x4xf32>, memref<8x8xf32>
  %w = vector.transfer_write %v2, %t[%i, %i] : vector<2x4xf32>, tensor<8x8xf32>
  return %r0, %w : vector<4xf32>, tensor<8x8xf32>
}

// CHECK-LABEL: func.func @memory(
// CHECK-NEXT:    %l0 = vector.load %m[%i, %i] : memref<?x8xf16>, vector<8xf16>
// CHECK-NEXT:    %l1 = vector.load %m[%i, %i] alignment = 16 : memref<?x8xf16>, vector<8xf16>
// CHECK-NEXT:    %l2 = vector.load %m[%i, %i] nontemporal = true : memref<?x8xf16>, vector<8xf16>
// CHECK-NEXT:    %l3 = vector.load %m[%i, %i] : memref<?x8xf16>, vector<2x8xf16>
// CHECK-NEXT:    vector.store %v, %m[%i, %i] : memref<?x8xf16>, vector<8xf16>
// CHECK-NEXT:    vector.store %v, %m[%i, %i] alignment = 16 nontemporal = true : memref<?x8xf16>, vector<8xf16>
// CHECK-NEXT:    %ml = vector.maskedload %m[%i, %i], %mask, %pt : memref<?x8xf16>, vector<8xi1>, vector<8xf16> into vector<8xf16>
// CHECK-NEXT:    vector.maskedstore %m[%i, %i], %mask, %ml : memref<?x8xf16>, vector<8xi1>, vector<8xf16>
// CHECK-NEXT:    %vl = memref.load %vm[%i] : memref<4xvector<8xf16>>
// CHECK-NEXT:    return %l0 : vector<8xf16>
func.func @memory(%m: memref<?x8xf16>, %i: index, %mask: vector<8xi1>, %pt: vector<8xf16>, %v: vector<8xf16>, %vm: memref<4xvector<8xf16>>) -> vector<8xf16> {
  %l0 = vector.load %m[%i, %i] : memref<?x8xf16>, vector<8xf16>
  %l1 = vector.load %m[%i, %i] alignment = 16 : memref<?x8xf16>, vector<8xf16>
  %l2 = vector.load %m[%i, %i] nontemporal = true : memref<?x8xf16>, vector<8xf16>
  %l3 = vector.load %m[%i, %i] : memref<?x8xf16>, vector<2x8xf16>
  vector.store %v, %m[%i, %i] : memref<?x8xf16>, vector<8xf16>
  vector.store %v, %m[%i, %i] alignment = 16 nontemporal = true : memref<?x8xf16>, vector<8xf16>
  %ml = vector.maskedload %m[%i, %i], %mask, %pt : memref<?x8xf16>, vector<8xi1>, vector<8xf16> into vector<8xf16>
  vector.maskedstore %m[%i, %i], %mask, %ml : memref<?x8xf16>, vector<8xi1>, vector<8xf16>
  %vl = memref.load %vm[%i] : memref<4xvector<8xf16>>
  return %l0 : vector<8xf16>
}

// CHECK-LABEL: func.func @contractions(
// CHECK-NEXT:    %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
// CHECK-NEXT:    %1 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxnumf>} %x, %y, %s : vector<4xbf16>, vector<4xbf16> into f32
// CHECK-NEXT:    %2 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ia, %ib, %ic : vector<2x3xi8>, vector<3x4xi8> into vector<2x4xi32>
// CHECK-NEXT:    %3 = vector.contract {fastmath = #arith.fastmath<reassoc>, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
// CHECK-NEXT:    %4 = vector.mask %m { vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32> } : vector<2x4x3xi1> -> vector<2x4xf32>
// CHECK-NEXT:    %o0 = vector.outerproduct %x, %y : vector<4xbf16>, vector<4xbf16>
// CHECK-NEXT:    %o1 = vector.outerproduct %x, %y, %o0 {kind = #vector.kind<maxnumf>} : vector<4xbf16>, vector<4xbf16>
// CHECK-NEXT:    %v4 = vector.broadcast %s : f32 to vector<4xf32>
// CHECK-NEXT:    %o2 = vector.outerproduct %v4, %s : vector<4xf32>, f32
// CHECK-NEXT:    %f = vector.fma %v4, %v4, %o2 : vector<4xf32>
// CHECK-NEXT:    return %0 : vector<2x4xf32>
func.func @contractions(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>, %x: vector<4xbf16>, %y: vector<4xbf16>, %s: f32, %ia: vector<2x3xi8>, %ib: vector<3x4xi8>, %ic: vector<2x4xi32>, %m: vector<2x4x3xi1>) -> vector<2x4xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %1 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxnumf>} %x, %y, %s : vector<4xbf16>, vector<4xbf16> into f32
  %2 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ia, %ib, %ic : vector<2x3xi8>, vector<3x4xi8> into vector<2x4xi32>
  %3 = vector.contract {fastmath = #arith.fastmath<reassoc>, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %4 = vector.mask %m { vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32> } : vector<2x4x3xi1> -> vector<2x4xf32>
  %o0 = vector.outerproduct %x, %y : vector<4xbf16>, vector<4xbf16>
  %o1 = vector.outerproduct %x, %y, %o0 {kind = #vector.kind<maxnumf>} : vector<4xbf16>, vector<4xbf16>
  %v4 = vector.broadcast %s : f32 to vector<4xf32>
  %o2 = vector.outerproduct %v4, %s : vector<4xf32>, f32
  %f = vector.fma %v4, %v4, %o2 : vector<4xf32>
  return %0 : vector<2x4xf32>
}

// CHECK-LABEL: func.func @reductions(
// CHECK-NEXT:    %0 = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
// CHECK-NEXT:    %s0 = vector.extract %v[0, 0, 0] : f32 from vector<2x3x4xf32>
// CHECK-NEXT:    %1 = vector.multi_reduction <maximumf>, %v, %s0 [0, 1, 2] : vector<2x3x4xf32> to f32
// CHECK-NEXT:    %2 = vector.reduction <xor>, %w : vector<16xi64> into i64
// CHECK-NEXT:    %3 = vector.reduction <minui>, %w, %wi : vector<16xi64> into i64
// CHECK-NEXT:    %4 = vector.reduction <mul>, %f, %fa fastmath<reassoc,nnan> : vector<8xf64> into f64
// CHECK-NEXT:    %5 = vector.mask %m { vector.reduction <add>, %f : vector<8xf64> into f64 } : vector<8xi1> -> f64
// CHECK-NEXT:    return %0 : vector<3xf32>
func.func @reductions(%v: vector<2x3x4xf32>, %acc: vector<3xf32>, %w: vector<16xi64>, %wi: i64, %f: vector<8xf64>, %fa: f64, %m: vector<8xi1>) -> vector<3xf32> {
  %0 = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
  %s0 = vector.extract %v[0, 0, 0] : f32 from vector<2x3x4xf32>
  %1 = vector.multi_reduction <maximumf>, %v, %s0 [0, 1, 2] : vector<2x3x4xf32> to f32
  %2 = vector.reduction <xor>, %w : vector<16xi64> into i64
  %3 = vector.reduction <minui>, %w, %wi : vector<16xi64> into i64
  %4 = vector.reduction <mul>, %f, %fa fastmath<reassoc,nnan> : vector<8xf64> into f64
  %5 = vector.mask %m { vector.reduction <add>, %f : vector<8xf64> into f64 } : vector<8xi1> -> f64
  return %0 : vector<3xf32>
}

// CHECK-LABEL: func.func @shapes(
// CHECK-NEXT:    %0 = vector.shape_cast %v : vector<2x3x4xf32> to vector<4x6xf32>
// CHECK-NEXT:    %1 = vector.transpose %v, [2, 0, 1] : vector<2x3x4xf32> to vector<4x2x3xf32>
// CHECK-NEXT:    %2 = vector.broadcast %s : f32 to vector<2x3xf32>
// CHECK-NEXT:    %3 = vector.broadcast %u : vector<3x4xf32> to vector<2x3x4xf32>
// CHECK-NEXT:    %4 = vector.extract %v[1] : vector<3x4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:    %5 = vector.extract %v[1, %i] : vector<4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:    %6 = vector.extract %v[1, 2, 3] : f32 from vector<2x3x4xf32>
// CHECK-NEXT:    %7 = vector.extract %v[-1, 0] : vector<4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:    %8 = vector.insert %s, %v [0, 1, 2] : f32 into vector<2x3x4xf32>
// CHECK-NEXT:    %9 = vector.insert %4, %v [%i] : vector<3x4xf32> into vector<2x3x4xf32>
// CHECK-NEXT:    %10 = vector.extract_strided_slice %v offsets = [0, 1], sizes = [2, 2], strides = [1, 1] : vector<2x3x4xf32> to vector<2x2x4xf32>
// CHECK-NEXT:    %11 = vector.insert_strided_slice %u, %v offsets = [1, 0, 0], strides = [1, 1] : vector<3x4xf32> into vector<2x3x4xf32>
// CHECK-NEXT:    %12 = vector.shuffle %w, %w [0, 4, 1, 5] : vector<4xi32>, vector<4xi32>
// CHECK-NEXT:    %13 = vector.shuffle %u, %u [0, 5, 2] : vector<3x4xf32>, vector<3x4xf32>
// CHECK-NEXT:    %14 = vector.bitcast %w : vector<4xi32> to vector<16xi8>
// CHECK-NEXT:    %15 = vector.interleave %w, %w : vector<4xi32> -> vector<8xi32>
// CHECK-NEXT:    %16, %17 = vector.deinterleave %15 : vector<8xi32> -> vector<4xi32>
// CHECK-NEXT:    %18 = vector.from_elements %s, %s, %s : vector<3xf32>
// CHECK-NEXT:    %19:3 = vector.to_elements %18 : vector<3xf32>
// CHECK-NEXT:    %20 = vector.step : vector<4xindex>
// CHECK-NEXT:    %21 = vector.extract %q[] : f32 from vector<f32>
// CHECK-NEXT:    %22 = vector.broadcast %p : vector<4xi8> to vector<2x4xi8>
// CHECK-NEXT:    %23 = vector.extract %v[%i, %i, %i] : f32 from vector<2x3x4xf32>
// CHECK-NEXT:    return %0 : vector<4x6xf32>
func.func @shapes(%v: vector<2x3x4xf32>, %s: f32, %i: index, %w: vector<4xi32>, %u: vector<3x4xf32>, %p: vector<4xi8>, %q: vector<f32>) -> vector<4x6xf32> {
  %0 = vector.shape_cast %v : vector<2x3x4xf32> to vector<4x6xf32>
  %1 = vector.transpose %v, [2, 0, 1] : vector<2x3x4xf32> to vector<4x2x3xf32>
  %2 = vector.broadcast %s : f32 to vector<2x3xf32>
  %3 = vector.broadcast %u : vector<3x4xf32> to vector<2x3x4xf32>
  %4 = vector.extract %v[1] : vector<3x4xf32> from vector<2x3x4xf32>
  %5 = vector.extract %v[1, %i] : vector<4xf32> from vector<2x3x4xf32>
  %6 = vector.extract %v[1, 2, 3] : f32 from vector<2x3x4xf32>
  %7 = vector.extract %v[-1, 0] : vector<4xf32> from vector<2x3x4xf32>
  %8 = vector.insert %s, %v [0, 1, 2] : f32 into vector<2x3x4xf32>
  %9 = vector.insert %4, %v [%i] : vector<3x4xf32> into vector<2x3x4xf32>
  %10 = vector.extract_strided_slice %v offsets = [0, 1], sizes = [2, 2], strides = [1, 1] : vector<2x3x4xf32> to vector<2x2x4xf32>
  %11 = vector.insert_strided_slice %u, %v offsets = [1, 0, 0], strides = [1, 1] : vector<3x4xf32> into vector<2x3x4xf32>
  %12 = vector.shuffle %w, %w [0, 4, 1, 5] : vector<4xi32>, vector<4xi32>
  %13 = vector.shuffle %u, %u [0, 5, 2] : vector<3x4xf32>, vector<3x4xf32>
  %14 = vector.bitcast %w : vector<4xi32> to vector<16xi8>
  %15 = vector.interleave %w, %w : vector<4xi32> -> vector<8xi32>
  %16, %17 = vector.deinterleave %15 : vector<8xi32> -> vector<4xi32>
  %18 = vector.from_elements %s, %s, %s : vector<3xf32>
  %19:3 = vector.to_elements %18 : vector<3xf32>
  %20 = vector.step : vector<4xindex>
  %21 = vector.extract %q[] : f32 from vector<f32>
  %22 = vector.broadcast %p : vector<4xi8> to vector<2x4xi8>
  %23 = vector.extract %v[%i, %i, %i] : f32 from vector<2x3x4xf32>
  return %0 : vector<4x6xf32>
}

// CHECK-LABEL: func.func @masks(
// CHECK-NEXT:    %0 = vector.create_mask %n, %m : vector<2x4xi1>
// CHECK-NEXT:    %1 = vector.constant_mask [1, 3] : vector<2x4xi1>
// CHECK-NEXT:    %2 = vector.create_mask %n : vector<4xi1>
// CHECK-NEXT:    %3 = vector.mask %2, %v { vector.transfer_read %mem[%n], %pad : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
// CHECK-NEXT:    vector.mask %mk { vector.transfer_write %3, %mem[%n] : vector<4xf32>, memref<?xf32> } : vector<4xi1>
// CHECK-NEXT:    %4 = vector.constant_mask [0] : vector<4xi1>
// CHECK-NEXT:    return %3 : vector<4xf32>
func.func @masks(%n: index, %m: index, %v: vector<4xf32>, %mem: memref<?xf32>, %pad: f32, %mk: vector<4xi1>) -> vector<4xf32> {
  %0 = vector.create_mask %n, %m : vector<2x4xi1>
  %1 = vector.constant_mask [1, 3] : vector<2x4xi1>
  %2 = vector.create_mask %n : vector<4xi1>
  %3 = vector.mask %2, %v { vector.transfer_read %mem[%n], %pad : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.mask %mk { vector.transfer_write %3, %mem[%n] : vector<4xf32>, memref<?xf32> } : vector<4xi1>
  %4 = vector.constant_mask [0] : vector<4xi1>
  return %3 : vector<4xf32>
}

// CHECK-LABEL: func.func @type_cast(
// CHECK-NEXT:    %0 = vector.type_cast %m : memref<4x8xf32> to memref<vector<4x8xf32>>
// CHECK-NEXT:    return %0 : memref<vector<4x8xf32>>
func.func @type_cast(%m: memref<4x8xf32>) -> memref<vector<4x8xf32>> {
  %0 = vector.type_cast %m : memref<4x8xf32> to memref<vector<4x8xf32>>
  return %0 : memref<vector<4x8xf32>>
}

// CHECK-LABEL: func.func @element_types(
// CHECK-NEXT:    %0 = vector.fma %a, %a, %a : vector<4xf64>
// CHECK-NEXT:    %1 = vector.reduction <add>, %b : vector<4xf16> into f16
// CHECK-NEXT:    %2 = vector.reduction <maxnumf>, %c : vector<4xbf16> into bf16
// CHECK-NEXT:    %3 = vector.reduction <and>, %d : vector<4xi1> into i1
// CHECK-NEXT:    %4 = vector.reduction <maxsi>, %e : vector<4xi8> into i8
// CHECK-NEXT:    %5 = vector.reduction <add>, %h : vector<4xindex> into index
// CHECK-NEXT:    %6 = vector.shuffle %g, %g [7, 0] : vector<4xi64>, vector<4xi64>
// CHECK-NEXT:    %7 = vector.broadcast %5 : index to vector<4xindex>
// CHECK-NEXT:    %8 = vector.extract %f[0] : i32 from vector<4xi32>
// CHECK-NEXT:    return %7 : vector<4xindex>
func.func @element_types(%a: vector<4xf64>, %b: vector<4xf16>, %c: vector<4xbf16>, %d: vector<4xi1>, %e: vector<4xi8>, %f: vector<4xi32>, %g: vector<4xi64>, %h: vector<4xindex>) -> vector<4xindex> {
  %0 = vector.fma %a, %a, %a : vector<4xf64>
  %1 = vector.reduction <add>, %b : vector<4xf16> into f16
  %2 = vector.reduction <maxnumf>, %c : vector<4xbf16> into bf16
  %3 = vector.reduction <and>, %d : vector<4xi1> into i1
  %4 = vector.reduction <maxsi>, %e : vector<4xi8> into i8
  %5 = vector.reduction <add>, %h : vector<4xindex> into index
  %6 = vector.shuffle %g, %g [7, 0] : vector<4xi64>, vector<4xi64>
  %7 = vector.broadcast %5 : index to vector<4xindex>
  %8 = vector.extract %f[0] : i32 from vector<4xi32>
  return %7 : vector<4xindex>
}
