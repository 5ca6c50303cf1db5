// RUN: schedir-opt %s --split-input-file -p canonicalize | filecheck %s

// memref.dim folds through memref.cast (upstream's foldMemRefCast in DimOp::fold) and
// reads the size of a subview; the dims of the cast of a subview become the subview's
// size operand and its static size.
// CHECK-LABEL: func.func @dim_of_cast_of_subview
// CHECK-SAME:    (%{{.*}}: memref<9x8xf32>, %{{.*}}: index, %[[N:.*]]: index)
// CHECK-NOT:     memref.dim
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         return %[[N]], %[[C8]], %[[N]]
func.func @dim_of_cast_of_subview(%m: memref<9x8xf32>, %i: index, %n: index) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.subview %m[%i, 0] [%n, 8] [1, 1] : memref<9x8xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
  %c = memref.cast %s : memref<?x8xf32, strided<[8, 1], offset: ?>> to memref<?x?xf32, strided<[8, 1], offset: ?>>
  %d0 = memref.dim %c, %c0 : memref<?x?xf32, strided<[8, 1], offset: ?>>
  %d1 = memref.dim %c, %c1 : memref<?x?xf32, strided<[8, 1], offset: ?>>
  %d2 = memref.dim %s, %c0 : memref<?x8xf32, strided<[8, 1], offset: ?>>
  return %d0, %d1, %d2 : index, index, index
}

// -----

// A rank-reducing subview: the dims of its result are the kept sizes.
// CHECK-LABEL: func.func @dim_of_rank_reducing_subview
// CHECK-SAME:    (%{{.*}}: memref<9x1x8xf32>, %[[N:.*]]: index)
// CHECK:         return %[[N]]
func.func @dim_of_rank_reducing_subview(%m: memref<9x1x8xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[0, 0, 0] [%n, 1, 8] [1, 1, 1] : memref<9x1x8xf32> to memref<?x8xf32, strided<[8, 1]>>
  %d = memref.dim %s, %c0 : memref<?x8xf32, strided<[8, 1]>>
  return %d : index
}
