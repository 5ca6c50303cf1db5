// RUN: %roundtrip | filecheck %s

// Spellings upstream MLIR no longer accepts but older IR uses: `vector.splat` (removed;
// it is a broadcast of a scalar), strided-slice lists and alignment / nontemporal in the
// attribute dictionary. schedir reads them and prints the current syntax.

// CHECK-LABEL: func.func @legacy(
// CHECK-NEXT:    %0 = vector.broadcast %s : f32 to vector<4xf32>
// CHECK-NEXT:    %1 = vector.extract_strided_slice %v offsets = [2], sizes = [4], strides = [1] : vector<8xf32> to vector<4xf32>
// CHECK-NEXT:    %2 = vector.insert_strided_slice %u, %v offsets = [4], strides = [1] : vector<4xf32> into vector<8xf32>
// CHECK-NEXT:    %3 = vector.load %m[%i] alignment = 16 : memref<?xf32>, vector<8xf32>
// CHECK-NEXT:    vector.store %3, %m[%i] nontemporal = true : memref<?xf32>, vector<8xf32>
// CHECK-NEXT:    %4 = vector.maskedload %m[%i], %mk, %pt alignment = 32 : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK-NEXT:    return %0 : vector<4xf32>
func.func @legacy(%s: f32, %v: vector<8xf32>, %u: vector<4xf32>, %m: memref<?xf32>, %i: index, %mk: vector<8xi1>, %pt: vector<8xf32>) -> vector<4xf32> {
  %0 = vector.splat %s : vector<4xf32>
  %1 = vector.extract_strided_slice %v {offsets = [2], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %2 = vector.insert_strided_slice %u, %v {offsets = [4], strides = [1]} : vector<4xf32> into vector<8xf32>
  %3 = vector.load %m[%i] {alignment = 16 : i64} : memref<?xf32>, vector<8xf32>
  vector.store %3, %m[%i] {nontemporal = true} : memref<?xf32>, vector<8xf32>
  %4 = vector.maskedload %m[%i], %mk, %pt {alignment = 32 : i64} : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %0 : vector<4xf32>
}
