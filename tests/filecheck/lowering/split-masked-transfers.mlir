// RUN: schedir-opt %s --split-input-file -p split-masked-transfers | filecheck %s

// A masked read and write of one row on a buffer: a branch on the mask's bounds and the
// address's 16-byte alignment, the whole-row vector.load / vector.store where both hold,
// the masked transfer otherwise.
// CHECK-LABEL: func.func @row(
// CHECK-SAME:  %[[M:[a-z0-9]+]]: memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[I:[a-z0-9]+]]: index, %[[R:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index)
// CHECK:         %[[MASK:.*]] = vector.create_mask %[[R]], %[[N]] : vector<1x4xi1>
// CHECK:         %[[ROWS:.*]] = arith.cmpi sge, %[[R]], %{{.*}} : index
// CHECK:         %[[LANES:.*]] = arith.cmpi sge, %[[N]], %{{.*}} : index
// CHECK:         %[[FULL:.*]] = arith.andi %[[ROWS]], %[[LANES]] : i1
// CHECK:         memref.extract_strided_metadata %[[M]]
// CHECK:         "memref.extract_aligned_pointer_as_index"(%[[M]])
// CHECK:         %[[ALIGNED:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:         %[[BOTH:.*]] = arith.andi %[[FULL]], %[[ALIGNED]] : i1
// CHECK:         %[[V:.*]] = scf.if %[[BOTH]] -> (vector<1x4xf32>) {
// CHECK-NEXT:      %[[L:.*]] = vector.load %[[M]][%[[I]], %[[I]]] alignment = 16 : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<1x4xf32>
// CHECK-NEXT:      scf.yield %[[L]] : vector<1x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[T:.*]] = vector.transfer_read %[[M]][%[[I]], %[[I]]], %{{.*}}, %[[MASK]] {in_bounds = [true, true]}
// CHECK-NEXT:      scf.yield %[[T]] : vector<1x4xf32>
// CHECK-NEXT:    }
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      vector.store %[[V]], %[[M]][%[[I]], %[[I]]] alignment = 16
// CHECK-NEXT:    } else {
// CHECK-NEXT:      vector.transfer_write %[[V]], %[[M]][%[[I]], %[[I]]], %[[MASK]] {in_bounds = [true, true]}
// CHECK-NEXT:    }
func.func @row(%m: memref<?x?xf32, strided<[?, 1], offset: ?>>, %i: index, %r: index, %n: index) {
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %r, %n : vector<1x4xi1>
  %v = vector.transfer_read %m[%i, %i], %pad, %mask {in_bounds = [true, true]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<1x4xf32>
  vector.transfer_write %v, %m[%i, %i], %mask {in_bounds = [true, true]} : vector<1x4xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>>
  return
}

// -----

// Two rows (or a last dimension of unknown stride): no whole-row access claims an
// alignment; the fast path is the unmasked transfer. A constant bound that reaches the
// size needs no check.
// CHECK-LABEL: func.func @rows(
// CHECK:         %[[FULL:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : index
// CHECK-NOT:     extract_aligned_pointer
// CHECK:         scf.if %[[FULL]] -> (vector<2x4xf32>) {
// CHECK-NEXT:      vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
// CHECK:         } else {
// CHECK-NEXT:      vector.transfer_read %{{.*}}, %{{.*}} {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
func.func @rows(%m: memref<8x8xf32>, %i: index, %n: index) -> vector<2x4xf32> {
  %c2 = arith.constant 2 : index
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %c2, %n : vector<2x4xi1>
  %v = vector.transfer_read %m[%i, %i], %pad, %mask {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
  return %v : vector<2x4xf32>
}
