// RUN: %roundtrip | filecheck %s

// CHECK: memref.global "private" constant @cst : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
memref.global "private" constant @cst : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
// CHECK: memref.global @g : memref<2x2xf64> = uninitialized
memref.global @g : memref<2x2xf64> = uninitialized
// CHECK: memref.global "private" @ga : memref<8xi32> = dense<0> alignment = 64
memref.global "private" @ga : memref<8xi32> = dense<0> alignment = 64

// CHECK-LABEL: func.func @memref_ops
func.func @memref_ops(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %d: memref<?x?xf32>, %i: index, %j: index, %f: f32,
                      %s: memref<64xf32, #gpu.address_space<workgroup>>) {
  // CHECK: memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  // CHECK: %c = memref.cast %a : memref<4x8xf32> to memref<?x?xf32>
  %c = memref.cast %a : memref<4x8xf32> to memref<?x?xf32>
  // CHECK: %g = memref.get_global @cst : memref<4xf32>
  %g = memref.get_global @cst : memref<4xf32>
  // CHECK: %m = memref.memory_space_cast %s : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
  %m = memref.memory_space_cast %s : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
  // CHECK: %al = memref.alloc() : memref<4xf32>
  %al = memref.alloc() : memref<4xf32>
  // CHECK: %al2 = memref.alloc(%i) alignment = 64 : memref<?x4xf32>
  %al2 = memref.alloc(%i) alignment = 64 : memref<?x4xf32>
  // CHECK: %al4 = memref.alloc()[%i] : memref<4xf32, strided<[1], offset: ?>>
  %al4 = memref.alloc()[%i] : memref<4xf32, strided<[1], offset: ?>>
  // CHECK: %sh = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
  %sh = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
  // CHECK: %aa = memref.alloca() : memref<4xi64>
  %aa = memref.alloca() : memref<4xi64>
  // CHECK: %aa2 = memref.alloca(%i, %j) alignment = 16 : memref<?x?xbf16>
  %aa2 = memref.alloca(%i, %j) alignment = 16 : memref<?x?xbf16>
  // CHECK: memref.dealloc %al : memref<4xf32>
  memref.dealloc %al : memref<4xf32>
  // CHECK: %sv = memref.subview %a[0, %i] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: ?>>
  %sv = memref.subview %a[0, %i] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: ?>>
  // CHECK: %sv2 = memref.subview %d[%i, %j] [1, %j] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %sv2 = memref.subview %d[%i, %j] [1, %j] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
  // CHECK: %l = memref.load %a[%i, %j] : memref<4x8xf32>
  %l = memref.load %a[%i, %j] : memref<4x8xf32>
  // CHECK: %l2 = memref.load %a[%i, %j] nontemporal(true) : memref<4x8xf32>
  %l2 = memref.load %a[%i, %j] nontemporal(true) : memref<4x8xf32>
  // CHECK: %l3 = memref.load %a[%i, %j] : memref<4x8xf32>
  %l3 = memref.load %a[%i, %j] nontemporal(false) : memref<4x8xf32>
  // CHECK: memref.store %f, %a[%i, %j] : memref<4x8xf32>
  memref.store %f, %a[%i, %j] : memref<4x8xf32>
  // CHECK: memref.store %f, %a[%i, %j] nontemporal(true) : memref<4x8xf32>
  memref.store %f, %a[%i, %j] nontemporal(true) : memref<4x8xf32>
  // CHECK: %dim = memref.dim %d, %i : memref<?x?xf32>
  %dim = memref.dim %d, %i : memref<?x?xf32>
  // CHECK: %rc = memref.reinterpret_cast %a to offset: [0], sizes: [32], strides: [1] : memref<4x8xf32> to memref<32xf32>
  %rc = memref.reinterpret_cast %a to offset: [0], sizes: [32], strides: [1] : memref<4x8xf32> to memref<32xf32>
  // CHECK: %rc2 = memref.reinterpret_cast %d to offset: [%i], sizes: [%j, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[4, 1], offset: ?>>
  %rc2 = memref.reinterpret_cast %d to offset: [%i], sizes: [%j, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[4, 1], offset: ?>>
  // CHECK: %cs = memref.collapse_shape %a {{\[\[}}0, 1]] : memref<4x8xf32> into memref<32xf32>
  %cs = memref.collapse_shape %a [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  // CHECK: %es = memref.expand_shape %a {{\[\[}}0, 1], [2]] output_shape [2, 2, 8] : memref<4x8xf32> into memref<2x2x8xf32>
  %es = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 8] : memref<4x8xf32> into memref<2x2x8xf32>
  return
}

// CHECK-LABEL: func.func @element_types
func.func @element_types(%f16: memref<4xf16>, %i1: memref<4xi1>, %i8: memref<4xi8>, %f64: memref<4xf64>, %i: index) {
  // CHECK: memref.copy %f16, %{{.*}} : memref<4xf16> to memref<4xf16>
  %0 = memref.alloc() : memref<4xf16>
  memref.copy %f16, %0 : memref<4xf16> to memref<4xf16>
  // CHECK: memref.load %i1[%i] : memref<4xi1>
  %1 = memref.load %i1[%i] : memref<4xi1>
  // CHECK: memref.store %{{.*}}, %i8[%i] : memref<4xi8>
  %2 = memref.load %i8[%i] : memref<4xi8>
  memref.store %2, %i8[%i] : memref<4xi8>
  // CHECK: memref.cast %f64 : memref<4xf64> to memref<?xf64>
  %3 = memref.cast %f64 : memref<4xf64> to memref<?xf64>
  return
}
