// RUN: schedir-opt %s --split-input-file -p canonicalize | filecheck %s

// A masked read of what a masked write just wrote, under masks of the same bounds and
// with a poison padding, is the written vector (the masked-off lanes of the read are
// poison, which the written vector's lanes refine); the dims of the write's result are
// those of its destination (DimOfDestStyleOp), a slice of sizes %r x %n, so a mask built
// from them is the write's (as in a fused producer's vectorized tile).
// CHECK-LABEL: func.func @masked_read_after_write(
// CHECK-SAME:  %[[T:[a-z0-9]+]]: tensor<?x?xf32>, %[[V:[a-z0-9]+]]: vector<1x4xf32>, %[[R:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index)
// CHECK-NOT:     vector.transfer_read
// CHECK:         return %[[V]] : vector<1x4xf32>
func.func @masked_read_after_write(%t: tensor<?x?xf32>, %v: vector<1x4xf32>, %r: index, %n: index) -> vector<1x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = ub.poison : f32
  %s = tensor.extract_slice %t[0, 0] [%r, %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %m = vector.create_mask %r, %n : vector<1x4xi1>
  %w = vector.transfer_write %v, %s[%c0, %c0], %m {in_bounds = [true, true]} : vector<1x4xf32>, tensor<?x?xf32>
  %d0 = tensor.dim %w, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %w, %c1 : tensor<?x?xf32>
  %m2 = vector.create_mask %d0, %d1 : vector<1x4xi1>
  %x = vector.transfer_read %w[%c0, %c0], %pad, %m2 {in_bounds = [true, true]} : tensor<?x?xf32>, vector<1x4xf32>
  return %x : vector<1x4xf32>
}

// -----

// With a padding value, or masks of other bounds, the read stays: its masked-off lanes
// hold the padding (or what the tensor held), not the written vector's lanes.
// CHECK-LABEL: func.func @masked_read_after_write_kept(
// CHECK-COUNT-2: vector.transfer_read
func.func @masked_read_after_write_kept(%t: tensor<?xf32>, %v: vector<4xf32>, %n: index, %k: index) -> (vector<4xf32>, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 1.0 : f32
  %poison = ub.poison : f32
  %m = vector.create_mask %n : vector<4xi1>
  %w = vector.transfer_write %v, %t[%c0], %m {in_bounds = [true]} : vector<4xf32>, tensor<?xf32>
  %x = vector.transfer_read %w[%c0], %pad, %m {in_bounds = [true]} : tensor<?xf32>, vector<4xf32>
  %other = vector.create_mask %k : vector<4xi1>
  %y = vector.transfer_read %w[%c0], %poison, %other {in_bounds = [true]} : tensor<?xf32>, vector<4xf32>
  return %x, %y : vector<4xf32>, vector<4xf32>
}
