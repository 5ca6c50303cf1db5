// RUN: schedir-opt %s --mlir-print-local-scope -p 'one-shot-bufferize{bufferize-function-boundaries=true}' --split-input-file | filecheck %s
// RUN: schedir-opt %s --mlir-print-local-scope -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' --split-input-file | filecheck %s --check-prefix=ANALYSIS

// A DPS chain into a tensor.empty is in place: one allocation, no copy.
// CHECK-LABEL: func.func @matmul_fill_empty
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x5xf32>) -> memref<4x5xf32>
// CHECK-NOT:     memref.copy
// CHECK:         %[[BUF:.*]] = memref.alloc() alignment = 64 : memref<4x5xf32>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[BUF]] : memref<4x5xf32>)
// CHECK-NEXT:    linalg.matmul ins(%[[A]], %[[B]] : memref<4x8xf32>, memref<8x5xf32>) outs(%[[BUF]] : memref<4x5xf32>)
// CHECK-NEXT:    return %[[BUF]] : memref<4x5xf32>
// ANALYSIS-LABEL: func.func @matmul_fill_empty
// ANALYSIS:       linalg.fill {__inplace_operands_attr__ = ["none", "true"]}
// ANALYSIS:       linalg.matmul {__inplace_operands_attr__ = ["true", "true", "true"]}
func.func @matmul_fill_empty(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%z : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// An argument marked read-only is never written: the matmul accumulates into a copy.
// CHECK-LABEL: func.func @read_only_init
// CHECK-SAME:    %[[C:[a-z0-9]+]]: memref<4x5xf32> {bufferization.writable = false}
// CHECK:         %[[BUF:.*]] = memref.alloc() alignment = 64 : memref<4x5xf32>
// CHECK-NEXT:    memref.copy %[[C]], %[[BUF]] : memref<4x5xf32> to memref<4x5xf32>
// CHECK-NEXT:    linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x5xf32>) outs(%[[BUF]] : memref<4x5xf32>)
// ANALYSIS-LABEL: func.func @read_only_init
// ANALYSIS:       linalg.matmul {__inplace_operands_attr__ = ["true", "true", "false"]}
func.func @read_only_init(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32> {bufferization.writable = false}) -> tensor<4x5xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// %t is read after the fill overwrote it: the fill writes a new buffer. The fill reads
// nothing of %t, so the new buffer needs no copy.
// CHECK-LABEL: func.func @read_after_write
// CHECK-SAME:    (%[[T:.*]]: memref<8xf32>, %[[I:.*]]: index)
// CHECK-NOT:     memref.copy
// CHECK:         %[[BUF:.*]] = memref.alloc() alignment = 64 : memref<8xf32>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[BUF]] : memref<8xf32>)
// CHECK-NEXT:    %[[X:.*]] = memref.load %[[T]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:    return %[[BUF]], %[[X]]
// ANALYSIS-LABEL: func.func @read_after_write
// ANALYSIS:       linalg.fill {__inplace_operands_attr__ = ["none", "false"]}
func.func @read_after_write(%t: tensor<8xf32>, %i: index) -> (tensor<8xf32>, f32) {
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  %x = tensor.extract %t[%i] : tensor<8xf32>
  return %f, %x : tensor<8xf32>, f32
}

// -----

// A tile computed into extract_slice of the iteration argument and inserted back at the
// same place is in place: the loop writes %C's buffer through a subview, nothing is copied
// inside the loop and the loop carries no value. The result is returned in a buffer of its
// own (function results are buffers the caller owns).
// CHECK-LABEL: func.func @tiled
// CHECK-SAME:    (%[[A:.*]]: memref<50x23xf32>, %[[B:.*]]: memref<23x31xf32>, %[[C:.*]]: memref<50x31xf32>)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[N:.*]] = affine.min
// CHECK-NEXT:      %[[SA:.*]] = memref.subview %[[A]][%[[I]], 0] [%[[N]], 23] [1, 1] : memref<50x23xf32> to memref<?x23xf32, strided<[23, 1], offset: ?>>
// CHECK-NEXT:      %[[SC:.*]] = memref.subview %[[C]][%[[I]], 0] [%[[N]], 31] [1, 1] : memref<50x31xf32> to memref<?x31xf32, strided<[31, 1], offset: ?>>
// CHECK-NEXT:      linalg.matmul ins(%[[SA]], %[[B]] : {{.*}}) outs(%[[SC]] : memref<?x31xf32, strided<[31, 1], offset: ?>>)
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() alignment = 64 : memref<50x31xf32>
// CHECK-NEXT:    memref.copy %[[C]], %[[R]]
// CHECK-NEXT:    return %[[R]]
// ANALYSIS-LABEL: func.func @tiled
// ANALYSIS:       tensor.extract_slice {{.*}}__inplace_operands_attr__ = ["true", "none", "none"]
// ANALYSIS:       tensor.extract_slice {{.*}}__inplace_operands_attr__ = ["true", "none", "none"]
// ANALYSIS:       linalg.matmul {__inplace_operands_attr__ = ["true", "true", "true"]}
// ANALYSIS:       tensor.insert_slice {{.*}}__inplace_operands_attr__ = ["true", "true", "none", "none"]
func.func @tiled(%A: tensor<50x23xf32>, %B: tensor<23x31xf32>, %C: tensor<50x31xf32>) -> tensor<50x31xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c50 = arith.constant 50 : index
  %r = scf.for %i = %c0 to %c50 step %c16 iter_args(%acc = %C) -> (tensor<50x31xf32>) {
    %n = affine.min affine_map<(i) -> (16, 50 - i)>(%i)
    %a = tensor.extract_slice %A[%i, 0] [%n, 23] [1, 1] : tensor<50x23xf32> to tensor<?x23xf32>
    %c = tensor.extract_slice %acc[%i, 0] [%n, 31] [1, 1] : tensor<50x31xf32> to tensor<?x31xf32>
    %p = linalg.matmul ins(%a, %B : tensor<?x23xf32>, tensor<23x31xf32>) outs(%c : tensor<?x31xf32>) -> tensor<?x31xf32>
    %u = tensor.insert_slice %p into %acc[%i, 0] [%n, 31] [1, 1] : tensor<?x31xf32> into tensor<50x31xf32>
    scf.yield %u : tensor<50x31xf32>
  }
  return %r : tensor<50x31xf32>
}

// -----

// The iteration argument starts as a read-only argument: one copy, before the loop.
// CHECK-LABEL: func.func @tiled_read_only
// CHECK:         %[[BUF:.*]] = memref.alloc() alignment = 64 : memref<8x4xf32>
// CHECK-NEXT:    memref.copy %{{.*}}, %[[BUF]]
// CHECK-NEXT:    scf.for
// CHECK-NOT:       memref.alloc
// CHECK-NOT:       memref.copy
// CHECK:           memref.subview %[[BUF]]
// CHECK:         }
// CHECK-NEXT:    return %[[BUF]]
func.func @tiled_read_only(%C: tensor<8x4xf32> {bufferization.writable = false}, %v: f32) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %C) -> (tensor<8x4xf32>) {
    %c = tensor.extract_slice %acc[%i, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
    %f = linalg.fill ins(%v : f32) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
    %u = tensor.insert_slice %f into %acc[%i, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
    scf.yield %u : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}

// -----

// parallel_insert_slice of a tile computed in its own slice: in place, no self-copy.
// CHECK-LABEL: func.func @forall
// CHECK-SAME:    (%[[T:.*]]: memref<64x32xf32>)
// CHECK:         scf.forall (%[[I:.*]]) in (8) {
// CHECK-NEXT:      %[[OFF:.*]] = affine.apply
// CHECK-NEXT:      %[[S:.*]] = memref.subview %[[T]][%[[OFF]], 0] [8, 32] [1, 1]
// CHECK-NEXT:      linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : {{.*}})
// CHECK-NEXT:    } {mapping = [#gpu.block<x>]}
// ANALYSIS-LABEL: func.func @forall
// ANALYSIS:       tensor.parallel_insert_slice {{.*}}__inplace_operands_attr__ = ["true", "true", "none"]
func.func @forall(%t: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %cst = arith.constant 2.0 : f32
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<64x32xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %s = tensor.extract_slice %o[%off, 0] [8, 32] [1, 1] : tensor<64x32xf32> to tensor<8x32xf32>
    %f = linalg.fill ins(%cst : f32) outs(%s : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%off, 0] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<64x32xf32>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<64x32xf32>
}

// -----

// scf.if choosing between two outside buffers: the result is one of them.
// CHECK-LABEL: func.func @if_merge
// CHECK-SAME:    (%[[C:.*]]: i1, %[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         %[[R:.*]] = scf.if %[[C]] -> (memref<4xf32>) {
// CHECK-NEXT:      scf.yield %[[A]] : memref<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[B]] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK:         memref.load %[[R]]
func.func @if_merge(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> f32 {
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  %i = arith.constant 0 : index
  %v = tensor.extract %r[%i] : tensor<4xf32>
  return %v : f32
}

// -----

// A branch yields a buffer it allocated: each branch hands over a buffer of its own, and
// the result is freed once, after its last use.
// CHECK-LABEL: func.func @if_owned
// CHECK:         %[[R:.*]] = scf.if %{{.*}} -> (memref<4xf32>) {
// CHECK-NEXT:      %[[X:.*]] = memref.alloc()
// CHECK-NEXT:      linalg.fill ins(%{{.*}} : f32) outs(%[[X]] : memref<4xf32>)
// CHECK-NEXT:      scf.yield %[[X]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[Y:.*]] = memref.alloc()
// CHECK-NEXT:      memref.copy %{{.*}}, %[[Y]]
// CHECK-NEXT:      scf.yield %[[Y]]
// CHECK-NEXT:    }
// CHECK:         memref.load %[[R]]
// CHECK-NEXT:    memref.dealloc %[[R]] : memref<4xf32>
// CHECK-NOT:     memref.dealloc
func.func @if_owned(%c: i1, %a: tensor<4xf32>) -> f32 {
  %cst = arith.constant 1.0 : f32
  %r = scf.if %c -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %i = arith.constant 0 : index
  %v = tensor.extract %r[%i] : tensor<4xf32>
  return %v : f32
}

// -----

// A loop yielding a tensor computed into a new buffer: the new buffer is copied into the
// iteration's buffer and freed inside the loop; no allocation leaves the loop.
// CHECK-LABEL: func.func @loop_new_tensor
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>)
// CHECK:         scf.for
// CHECK-NEXT:      %[[TMP:.*]] = memref.alloc()
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[A]] : memref<4xf32>) outs(%[[TMP]] : memref<4xf32>)
// CHECK:           memref.copy %[[TMP]], %[[A]]
// CHECK-NEXT:      memref.dealloc %[[TMP]]
// CHECK-NEXT:    }
#id = affine_map<(i) -> (i)>
func.func @loop_new_tensor(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%acc : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %x : f32
      linalg.yield %z : f32
    } -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Dense constants become read-only globals; a write goes to a copy.
// CHECK:       memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> alignment = 64
// CHECK-LABEL: func.func @constant_written
// CHECK:         %[[G:.*]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK:         %[[BUF:.*]] = memref.alloc()
// CHECK-NEXT:    memref.copy %[[G]], %[[BUF]]
// CHECK-NEXT:    memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<4xf32>
func.func @constant_written() -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %x = arith.constant 7.0 : f32
  %i = arith.constant 1 : index
  %r = tensor.insert %x into %c[%i] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @shape_ops
// CHECK-SAME:    (%[[T:.*]]: memref<4x6xf32>, %[[N:.*]]: index, %[[V:.*]]: f32)
// CHECK:         memref.collapse_shape %[[T]] {{\[}}[0, 1]] : memref<4x6xf32> into memref<24xf32>
// CHECK:         memref.expand_shape %[[T]] {{\[}}[0, 1], [2]] output_shape [2, 2, 6] : memref<4x6xf32> into memref<2x2x6xf32>
// CHECK:         %[[D:.*]] = memref.cast %[[T]] : memref<4x6xf32> to memref<?x6xf32>
// CHECK:         memref.dim %[[D]], %{{.*}} : memref<?x6xf32>
// CHECK:         %[[FE:.*]] = memref.alloc() alignment = 64 : memref<2xf32>
// CHECK:         memref.store %[[V]], %[[FE]][%{{.*}}] : memref<2xf32>
// CHECK:         memref.store %[[V]], %[[FE]][%{{.*}}] : memref<2xf32>
// CHECK:         %[[SP:.*]] = memref.alloc(%[[N]]) alignment = 64 : memref<?xf32>
// CHECK-NEXT:    linalg.fill ins(%[[V]] : f32) outs(%[[SP]] : memref<?xf32>)
func.func @shape_ops(%t: tensor<4x6xf32>, %n: index, %v: f32) -> (tensor<24xf32>, tensor<2x2x6xf32>, tensor<?x6xf32>, index, tensor<2xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %flat = tensor.collapse_shape %t [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %e = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 2, 6] : tensor<4x6xf32> into tensor<2x2x6xf32>
  %d = tensor.cast %t : tensor<4x6xf32> to tensor<?x6xf32>
  %dim = tensor.dim %d, %c0 : tensor<?x6xf32>
  %fe = tensor.from_elements %v, %v : tensor<2xf32>
  %sp = tensor.splat %v[%n] : tensor<?xf32>
  return %flat, %e, %d, %dim, %fe, %sp : tensor<24xf32>, tensor<2x2x6xf32>, tensor<?x6xf32>, index, tensor<2xf32>, tensor<?xf32>
}

// -----

// tensor.pad: a buffer of the padded shape, filled with the padding value, the source
// copied into its interior.
// CHECK-LABEL: func.func @pad
// CHECK-SAME:    (%[[T:.*]]: memref<3x5xf32>, %[[V:.*]]: f32)
// CHECK:         %[[BUF:.*]] = memref.alloc() alignment = 64 : memref<5x9xf32>
// CHECK-NEXT:    linalg.fill ins(%[[V]] : f32) outs(%[[BUF]] : memref<5x9xf32>)
// CHECK-NEXT:    %[[IN:.*]] = memref.subview %[[BUF]][1, 2] [3, 5] [1, 1] : memref<5x9xf32> to memref<3x5xf32, strided<[9, 1], offset: 11>>
// CHECK-NEXT:    memref.copy %[[T]], %[[IN]]
func.func @pad(%t: tensor<3x5xf32>, %v: f32) -> tensor<5x9xf32> {
  %p = tensor.pad %t low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x5xf32> to tensor<5x9xf32>
  return %p : tensor<5x9xf32>
}

// -----

// tensor.generate: a linalg.generic computing each element from its indices.
// CHECK-LABEL: func.func @generate
// CHECK:         %[[BUF:.*]] = memref.alloc(%{{.*}}) alignment = 64 : memref<?x3xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[BUF]] : memref<?x3xf32>)
// CHECK:           linalg.index 0 : index
// CHECK:           linalg.index 1 : index
func.func @generate(%n: index) -> tensor<?x3xf32> {
  %g = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %x = arith.index_cast %s : index to i32
    %y = arith.sitofp %x : i32 to f32
    tensor.yield %y : f32
  } : tensor<?x3xf32>
  return %g : tensor<?x3xf32>
}

// -----

// The callee overwrites its argument without reading it; the caller still reads %a
// afterwards, so the call gets a fresh buffer (no copy needed). The caller frees it.
// CHECK-LABEL: func.func @callee
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %{{.*}}: f32) -> memref<4xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<4xf32>)
// CHECK-LABEL: func.func @caller
// CHECK:         %[[TMP:.*]] = memref.alloc()
// CHECK-NEXT:    %[[R:.*]] = call @callee(%[[TMP]], %{{.*}}) : (memref<4xf32>, f32) -> memref<4xf32>
// CHECK-NEXT:    memref.dealloc %[[TMP]]
// CHECK:         return %[[R]],
func.func @callee(%a: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %f = linalg.fill ins(%v : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
func.func @caller(%a: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = func.call @callee(%a, %v) : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %r, %a : tensor<4xf32>, tensor<4xf32>
}

// -----

// Elementwise ops read and write the same buffer: the matmul/bias/relu chain uses one.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-COUNT-1: memref.alloc
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
func.func @matmul_bias_relu(%A: tensor<61x47xf32>, %B: tensor<47x35xf32>, %bias: tensor<35xf32>) -> tensor<61x35xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<61x35xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<61x35xf32>) -> tensor<61x35xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<61x47xf32>, tensor<47x35xf32>) outs(%acc : tensor<61x35xf32>) -> tensor<61x35xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<61x35xf32>, tensor<35xf32>) outs(%init : tensor<61x35xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<61x35xf32>
  return %out : tensor<61x35xf32>
}

// -----

// Vector transfers: reads of a tensor read its buffer; a write into a tensor writes its
// buffer in place (here: read-only, so into a new buffer, and the write covers all of it,
// so nothing is copied).
// CHECK-LABEL: func.func @transfers
// CHECK-SAME:    (%[[C:.*]]: memref<8xf32> {bufferization.writable = false}, %[[X:.*]]: vector<8xf32>)
// CHECK:         %[[BUF:.*]] = memref.alloc() alignment = 64 : memref<8xf32>
// CHECK-NEXT:    vector.transfer_write %[[X]], %[[BUF]][%{{.*}}] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
// CHECK-NEXT:    %[[V:.*]] = vector.transfer_read %[[C]][%{{.*}}], %{{.*}} {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
// CHECK-NEXT:    return %[[BUF]], %[[V]]
// ANALYSIS-LABEL: func.func @transfers
// ANALYSIS:       vector.transfer_write {{.*}}__inplace_operands_attr__ = ["none", "false", "none"]
func.func @transfers(%c: tensor<8xf32> {bufferization.writable = false}, %x: vector<8xf32>) -> (tensor<8xf32>, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_write %x, %c[%c0] {in_bounds = [true]} : vector<8xf32>, tensor<8xf32>
  %v = vector.transfer_read %c[%c0], %pad {in_bounds = [true]} : tensor<8xf32>, vector<8xf32>
  return %r, %v : tensor<8xf32>, vector<8xf32>
}
