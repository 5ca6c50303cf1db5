// RUN: schedir-opt %s --split-input-file -p canonicalize | filecheck %s

// Constant folding, identities and reassociation; constants are de-duplicated and
// hoisted to the function entry (the pass walks top-down).
// CHECK-LABEL: func.func @arith
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK:         %[[A:.*]] = arith.addi %{{.*}}, %[[C5]] : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %{{.*}}, %[[C6]] : index
// CHECK-NEXT:    func.return %[[A]], %[[M]], %[[C12]]
func.func @arith(%x: index) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = arith.addi %x, %c0 : index
  %b = arith.addi %a, %c2 : index
  %d = arith.addi %b, %c3 : index
  %m0 = arith.muli %c2, %x : index
  %m = arith.muli %m0, %c3 : index
  %p = arith.muli %c2, %c3 : index
  %q = arith.addi %p, %p : index
  return %d, %m, %q : index, index, index
}

// -----

// Tensor and affine clean-up after tiling: static sizes, full slices, dims, min of
// constants, composed applies.
// CHECK-LABEL: func.func @tensor
// CHECK-SAME:    (%[[T:.*]]: tensor<8x16xf32>, %[[D:.*]]: tensor<?x?xf32>, %[[N:.*]]: index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[D]][0, %[[N]]] [4, 8] [1, 1] : tensor<?x?xf32> to tensor<4x8xf32>
// CHECK-NEXT:    %[[CAST:.*]] = tensor.cast %[[S]] : tensor<4x8xf32> to tensor<?x?xf32>
// CHECK-NEXT:    %[[OFF:.*]] = affine.apply affine_map<()[s0] -> ((s0 * 4))>()[%[[N]]]
// CHECK-NEXT:    func.return %[[T]], %[[CAST]], %[[C4]], %[[N]], %[[OFF]]
func.func @tensor(%t: tensor<8x16xf32>, %d: tensor<?x?xf32>, %n: index) -> (tensor<8x16xf32>, tensor<?x?xf32>, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %full = tensor.extract_slice %t[0, 0] [8, 16] [1, 1] : tensor<8x16xf32> to tensor<8x16xf32>
  %e = tensor.empty(%c4, %n) : tensor<?x?xf32>
  %dim0 = tensor.dim %e, %c0 : tensor<?x?xf32>
  %dim1 = tensor.dim %e, %c1 : tensor<?x?xf32>
  %s = tensor.extract_slice %d[%c0, %n] [%c4, %c8] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %m = affine.min affine_map<(d0, d1) -> (d0, d1)>(%dim0, %c8)
  %a = affine.apply affine_map<(d0) -> (d0 * 2)>(%n)
  %b = affine.apply affine_map<(d0) -> (d0 * 2)>(%a)
  return %full, %s, %m, %dim1, %b : tensor<8x16xf32>, tensor<?x?xf32>, index, index, index
}

// -----

// scf: zero- and one-trip loops, forwarded iter_args, constant conditions, single
// iteration foralls (unmapped) become straight-line code with insert_slice.
// CHECK-LABEL: func.func @scf
// CHECK-NOT:     scf.
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK-NEXT:    %[[I:.*]] = tensor.insert_slice %[[F]] into %{{.*}}[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
// CHECK-NOT:     scf.
// CHECK:         func.return %[[I]], %{{.*}}, %{{.*}} : tensor<8xf32>, f32, index
func.func @scf(%t: tensor<8xf32>, %v: f32) -> (tensor<8xf32>, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %true = arith.constant true
  %r0 = scf.for %i = %c0 to %c0 step %c1 iter_args(%a = %v) -> (f32) {
    %x = arith.addf %a, %a : f32
    scf.yield %x : f32
  }
  %r2 = scf.if %true -> (index) {
    scf.yield %c1 : index
  } else {
    scf.yield %c8 : index
  }
  %r4 = scf.forall (%i) in (1) shared_outs(%o = %t) -> (tensor<8xf32>) {
    %e = tensor.extract_slice %o[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i] [4] [1] : tensor<4xf32> into tensor<8xf32>
    }
  }
  return %r4, %r0, %r2 : tensor<8xf32>, f32, index
}

// -----

// memref: constant subview arguments become static (cast back), a self copy and an
// allocation only stored to disappear, loads look through casts.
// CHECK-LABEL: func.func @memref
// CHECK:         %[[S:.*]] = memref.subview %{{.*}}[2, 0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 32>>
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.alloc
// CHECK:         memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x16xf32>
func.func @memref(%a: memref<16x16xf32>, %v: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %s = memref.subview %a[%c2, 0] [%c4, 4] [1, 1] : memref<16x16xf32> to memref<?x4xf32, strided<[16, 1], offset: ?>>
  %ld = memref.load %s[%c0, %c0] : memref<?x4xf32, strided<[16, 1], offset: ?>>
  memref.copy %a, %a : memref<16x16xf32> to memref<16x16xf32>
  %dead = memref.alloc() : memref<8xf32>
  memref.store %v, %dead[%c0] : memref<8xf32>
  memref.dealloc %dead : memref<8xf32>
  %cast = memref.cast %a : memref<16x16xf32> to memref<?x?xf32>
  %ld2 = memref.load %cast[%c0, %c0] : memref<?x?xf32>
  return %ld, %ld2 : f32, f32
}

// -----

// memref.subview: a subview of an information-erasing cast takes the cast's source and
// the cast moves after it (after constant arguments became static); a subview of the
// whole source is a cast of it; a subview re-taking a whole subview is that subview.
// CHECK-LABEL: func.func @subviews
// CHECK-SAME:    (%[[M:.*]]: memref<16x16xf32>, %[[I:.*]]: index)
// CHECK:         %[[S0:.*]] = memref.subview %[[M]][%[[I]], %[[I]]] [3, 4] [1, 1] : memref<16x16xf32> to memref<3x4xf32, strided<[16, 1], offset: ?>>
// CHECK:         %[[C0:.*]] = memref.cast %[[S0]] : memref<3x4xf32, strided<[16, 1], offset: ?>> to memref<3x4xf32, strided<[?, 1], offset: ?>>
// CHECK:         %[[S1:.*]] = memref.subview %[[M]][1, 0] [3, 4] [1, 1] : memref<16x16xf32> to memref<3x4xf32, strided<[16, 1], offset: 16>>
// CHECK:         %[[C1:.*]] = memref.cast %[[S1]] : memref<3x4xf32, strided<[16, 1], offset: 16>> to memref<3x4xf32, strided<[?, 1], offset: ?>>
// CHECK:         %[[S2:.*]] = memref.subview %[[M]][%[[I]], %[[I]]] [1, 4] [1, 1] : memref<16x16xf32> to memref<4xf32, strided<[1], offset: ?>>
// CHECK:         %[[C3:.*]] = memref.cast %[[M]] : memref<16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
// CHECK:         %[[S4:.*]] = memref.subview %[[M]][%[[I]], 0] [4, 4] [1, 1]
// CHECK:         return %[[C0]], %[[C1]], %[[S2]], %[[C3]], %[[S4]]
func.func @subviews(%m: memref<16x16xf32>, %i: index) -> (memref<3x4xf32, strided<[?, 1], offset: ?>>, memref<3x4xf32, strided<[?, 1], offset: ?>>, memref<4xf32, strided<[1], offset: ?>>, memref<16x16xf32, strided<[16, 1]>>, memref<4x4xf32, strided<[16, 1], offset: ?>>) {
  %c1 = arith.constant 1 : index
  %0 = memref.cast %m : memref<16x16xf32> to memref<?x?xf32>
  %1 = memref.subview %0[%i, %i] [3, 4] [1, 1] : memref<?x?xf32> to memref<3x4xf32, strided<[?, 1], offset: ?>>
  %2 = memref.subview %0[%c1, 0] [3, 4] [1, 1] : memref<?x?xf32> to memref<3x4xf32, strided<[?, 1], offset: ?>>
  %3 = memref.cast %m : memref<16x16xf32> to memref<?x16xf32>
  %4 = memref.subview %3[%i, %i] [1, 4] [1, 1] : memref<?x16xf32> to memref<4xf32, strided<[1], offset: ?>>
  %5 = memref.subview %m[0, 0] [16, 16] [1, 1] : memref<16x16xf32> to memref<16x16xf32, strided<[16, 1]>>
  %6 = memref.subview %m[%i, 0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1], offset: ?>>
  %7 = memref.subview %6[0, 0] [4, 4] [1, 1] : memref<4x4xf32, strided<[16, 1], offset: ?>> to memref<4x4xf32, strided<[16, 1], offset: ?>>
  return %1, %2, %4, %5, %7 : memref<3x4xf32, strided<[?, 1], offset: ?>>, memref<3x4xf32, strided<[?, 1], offset: ?>>, memref<4xf32, strided<[1], offset: ?>>, memref<16x16xf32, strided<[16, 1]>>, memref<4x4xf32, strided<[16, 1], offset: ?>>
}
