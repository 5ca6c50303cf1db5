// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file -p canonicalize | filecheck %s

// Constant folding, identities and reassociation; constants are de-duplicated and
// hoisted to the function entry (the pass walks top-down).
// CHECK-LABEL: func.func @arith
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:     %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK:         %[[A:.*]] = arith.addi %{{.*}}, %[[C5]] : index
// CHECK-NEXT:    %[[M:.*]] = arith.muli %{{.*}}, %[[C6]] : index
// CHECK-NEXT:    return %[[A]], %[[M]], %[[C12]]
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
// CHECK-NEXT:    %[[OFF:.*]] = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%[[N]]]
// CHECK-NEXT:    return %[[T]], %[[CAST]], %[[C4]], %[[N]], %[[OFF]]
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
// CHECK:         return %[[I]], %{{.*}}, %{{.*}} : tensor<8xf32>, f32, index
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

// -----

// affine.load / affine.store: the access maps compose their affine.apply producers and
// take constant indices in; a load whose result is unused is dead (it only reads).
// (Upstream makes %i and %j symbols, printed `symbol(%i)`; schedir's syntax keeps every
// index a dimension.)
// CHECK-LABEL: func.func @affine_access
// CHECK-SAME:    (%[[M:.*]]: memref<64x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[V:.*]]: f32)
// CHECK-NOT:     affine.load %[[M]][%[[I]], %[[J]]]
// CHECK:         %[[X:.*]] = affine.load %[[M]][%[[I]] * 4 + 1, %[[J]]] : memref<64x8xf32>
// CHECK:         affine.store %[[V]], %[[M]][%[[I]], 1] : memref<64x8xf32>
// CHECK:         affine.for %[[K:.*]] = 0 to 8 {
// CHECK:           %[[Z:.*]] = affine.load %[[M]][%[[K]] + 1, %[[J]]] : memref<64x8xf32>
// CHECK:           affine.store %[[Z]], %[[M]][%[[K]], %[[J]] floordiv 2] : memref<64x8xf32>
// CHECK:         return %[[X]]
func.func @affine_access(%m: memref<64x8xf32>, %i: index, %j: index, %v: f32) -> f32 {
  %c1 = arith.constant 1 : index
  %a = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
  %dead = affine.load %m[%i, %j] : memref<64x8xf32>
  %x = affine.load %m[%a + 1, %j] : memref<64x8xf32>
  affine.store %v, %m[%i, %c1] : memref<64x8xf32>
  affine.for %k = 0 to 8 {
    %z = affine.load %m[%k + %c1, %j] : memref<64x8xf32>
    affine.store %z, %m[%k, %j floordiv 2] : memref<64x8xf32>
  }
  return %x : f32
}

// -----

// tensor element ops: constant from_elements are dense constants, extract of a dense
// constant at a constant index is the element, extract through a cast reads the cast's
// source, inserting a splat's own value is the splat, a reshape to the same 1-D type is
// its source, and a reshape of a reshape reshapes the first source.
// CHECK-LABEL: func.func @tensor_elements
// CHECK-SAME:    (%[[T:.*]]: tensor<4xf32>, %[[A:.*]]: tensor<4x4xf32>, %[[S1:.*]]: tensor<1xindex>, %[[S2:.*]]: tensor<2xindex>, %[[I:.*]]: index)
// CHECK-DAG:     %[[D:.*]] = arith.constant dense<[1, 7, 1]> : tensor<3xindex>
// CHECK-DAG:     %[[SPLAT:.*]] = arith.constant dense<3.000000e+00> : tensor<4xf32>
// CHECK-DAG:     %[[E:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:         %[[X:.*]] = tensor.extract %[[T]][%[[I]]] : tensor<4xf32>
// CHECK:         %[[R:.*]] = tensor.reshape %[[A]](%[[S2]]) : (tensor<4x4xf32>, tensor<2xindex>) -> tensor<2x8xf32>
// CHECK:         return %[[D]], %[[E]], %[[X]], %[[SPLAT]], %[[T]], %[[R]]
func.func @tensor_elements(%t: tensor<4xf32>, %a: tensor<4x4xf32>, %s1: tensor<1xindex>, %s2: tensor<2xindex>, %i: index) -> (tensor<3xindex>, f32, f32, tensor<4xf32>, tensor<4xf32>, tensor<2x8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %u = tensor.from_elements %c1, %c7, %c1 : tensor<3xindex>
  %dense = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = tensor.extract %dense[%c2] : tensor<4xf32>
  %cast = tensor.cast %t : tensor<4xf32> to tensor<?xf32>
  %x = tensor.extract %cast[%i] : tensor<?xf32>
  %splat = arith.constant dense<3.0> : tensor<4xf32>
  %v = arith.constant 3.0 : f32
  %h = tensor.insert %v into %splat[%i] : tensor<4xf32>
  %same = tensor.reshape %t(%s1) : (tensor<4xf32>, tensor<1xindex>) -> tensor<4xf32>
  %r = tensor.reshape %a(%s1) : (tensor<4x4xf32>, tensor<1xindex>) -> tensor<16xf32>
  %r2 = tensor.reshape %r(%s2) : (tensor<16xf32>, tensor<2xindex>) -> tensor<2x8xf32>
  return %u, %y, %x, %h, %same, %r2 : tensor<3xindex>, f32, f32, tensor<4xf32>, tensor<4xf32>, tensor<2x8xf32>
}

// -----

// linalg.fill: a collapse/expand_shape of a fill is a fill of the reshaped init; a pad of
// a fill with the fill's value is a fill of an empty tensor of the padded size.
// CHECK-LABEL: func.func @fill_reshape_pad
// CHECK-SAME:    (%[[F:.*]]: f32, %[[T:.*]]: tensor<?x5xf32>, %[[L:.*]]: index)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x5xf32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[E]] {{\[}}[0, 1]] : tensor<4x5xf32> into tensor<20xf32>
// CHECK:         %[[F1:.*]] = linalg.fill ins(%[[F]] : f32) outs(%[[C]] : tensor<20xf32>) -> tensor<20xf32>
// CHECK:         %[[DIM:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<?x5xf32>
// CHECK:         %[[SIZE:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 1)>()[%[[DIM]], %[[L]]]
// CHECK:         %[[P:.*]] = tensor.empty(%[[SIZE]]) : tensor<?x9xf32>
// CHECK:         %[[F2:.*]] = linalg.fill ins(%[[F]] : f32) outs(%[[P]] : tensor<?x9xf32>) -> tensor<?x9xf32>
// CHECK:         return %[[F1]], %[[F2]]
func.func @fill_reshape_pad(%f: f32, %t: tensor<?x5xf32>, %l: index) -> (tensor<20xf32>, tensor<?x9xf32>) {
  %0 = tensor.empty() : tensor<4x5xf32>
  %1 = linalg.fill ins(%f : f32) outs(%0 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %c = tensor.collapse_shape %1 [[0, 1]] : tensor<4x5xf32> into tensor<20xf32>
  %2 = linalg.fill ins(%f : f32) outs(%t : tensor<?x5xf32>) -> tensor<?x5xf32>
  %p = tensor.pad %2 low[%l, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %f : f32
  } : tensor<?x5xf32> to tensor<?x9xf32>
  return %c, %p : tensor<20xf32>, tensor<?x9xf32>
}
