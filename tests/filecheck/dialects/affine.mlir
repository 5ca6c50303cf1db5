// RUN: %roundtrip | filecheck %s

// CHECK-LABEL: func.func @affine_ops
func.func @affine_ops(%i: index, %j: index, %n: index, %m: memref<16xf32>) -> (index, index, index, index, index) {
  // Dimensions only.
  // CHECK: %a = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
  %a = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
  // Dimensions and symbols.
  // CHECK: %b = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%i)[%n]
  %b = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%i)[%n]
  // Symbols only.
  // CHECK: %c = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%i, %j]
  %c = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%i, %j]
  // CHECK: %d = affine.min affine_map<(d0)[s0] -> (16, s0 - d0)>(%i)[%n]
  %d = affine.min affine_map<(d0)[s0] -> (16, s0 - d0)>(%i)[%n]
  // CHECK: %e = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>(%i, %j)
  %e = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>(%i, %j)
  // CHECK: %f = affine.max affine_map<()[s0] -> (s0, 0)>()[%n]
  %f = affine.max affine_map<()[s0] -> (s0, 0)>()[%n]
  // CHECK: affine.for %k = 0 to 16 {
  affine.for %k = 0 to 16 {
    %v = affine.load %m[%k] : memref<16xf32>
    affine.store %v, %m[%k] : memref<16xf32>
  }
  return %a, %b, %c, %d, %e : index, index, index, index, index
}

// Access maps with expressions; the indices are map dimensions as upstream parses them.

// CHECK-LABEL: func.func @accesses
func.func @accesses(%m: memref<64x8xf16>, %i: index, %j: index) {
  // CHECK: %v = affine.load %m[%i * 4 + 1, %j] : memref<64x8xf16>
  %v = affine.load %m[%i * 4 + 1, %j] : memref<64x8xf16>
  // CHECK: affine.store %v, %m[%i, %j floordiv 2] : memref<64x8xf16>
  affine.store %v, %m[%i, %j floordiv 2] : memref<64x8xf16>
  return
}
