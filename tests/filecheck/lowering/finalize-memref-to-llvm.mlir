// RUN: schedir-opt %s -p finalize-memref-to-llvm | filecheck %s

// Globals: a dense initializer as a nested array; private visibility -> private linkage.
// CHECK:       llvm.func @malloc(i64) -> !llvm.ptr
// CHECK:       llvm.func @free(!llvm.ptr)
// CHECK:       llvm.mlir.global private constant @cst(dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x !llvm.array<3 x f32>>
// CHECK:       llvm.mlir.global external @buf() {addr_space = 0 : i32} : !llvm.array<4 x i32> {
// CHECK:         llvm.mlir.undef
memref.global "private" constant @cst : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> alignment = 64
memref.global @buf : memref<4xi32> = uninitialized

// A static layout gives static addresses: strides and offsets are constants, made once
// per function at its start; descriptor fields are read once, after the descriptor.
// CHECK-LABEL: func.func @load_static
// CHECK:         %[[C8:.*]] = llvm.mlir.constant(8) : i64
// CHECK:         %[[D:.*]] = builtin.unrealized_conversion_cast %m : memref<4x8xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK:         %[[P:.*]] = llvm.extractvalue %[[D]][1]
// CHECK:         %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK:         %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
// CHECK:         %[[R:.*]] = llvm.mul %[[I]], %[[C8]] : i64
// CHECK:         %[[L:.*]] = llvm.add %[[R]], %[[J]] : i64
// CHECK:         %[[A:.*]] = llvm.getelementptr inbounds %[[P]][%[[L]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.load %[[A]] : !llvm.ptr -> f32
func.func @load_static(%m: memref<4x8xf32>, %i: index, %j: index) -> f32 {
  %v = memref.load %m[%i, %j] : memref<4x8xf32>
  return %v : f32
}

// Dynamic strides and offsets are read from the descriptor; address spaces are kept.
// CHECK-LABEL: func.func @store_dynamic
// CHECK:         %[[OFF:.*]] = llvm.extractvalue %{{.*}}[2]
// CHECK:         %[[S0:.*]] = llvm.extractvalue %{{.*}}[4, 0]
// CHECK:         llvm.mul %{{.*}}, %[[S0]] : i64
// CHECK:         llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK:         llvm.store %v, %{{.*}} : f16, !llvm.ptr<3>
func.func @store_dynamic(%m: memref<?x?xf16, strided<[?, 1], offset: ?>, 3>, %i: index, %j: index, %v: f16) {
  memref.store %v, %m[%i, %j] : memref<?x?xf16, strided<[?, 1], offset: ?>, 3>
  return
}

// alloc: malloc of size (+ alignment), the aligned pointer rounded up inside the
// allocation; dealloc frees the allocated pointer.
// CHECK-LABEL: func.func @alloc_dealloc
// CHECK:         %[[C8:.*]] = llvm.mlir.constant(8) : i64
// CHECK:         %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK:         %[[E:.*]] = llvm.mul %[[N]], %[[C8]] : i64
// CHECK:         %[[B:.*]] = llvm.mul %[[E]], %{{.*}} : i64
// CHECK:         %[[PAD:.*]] = llvm.add %[[B]], %{{.*}} : i64
// CHECK:         %[[RAW:.*]] = llvm.call @malloc(%[[PAD]]) : (i64) -> !llvm.ptr
// CHECK:         llvm.ptrtoint %[[RAW]]
// CHECK:         llvm.urem
// CHECK:         %[[AL:.*]] = llvm.getelementptr inbounds %[[RAW]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK:         llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK:         llvm.insertvalue %[[RAW]], %{{.*}}[0]
// CHECK:         llvm.insertvalue %[[AL]], %{{.*}}[1]
// CHECK:         llvm.insertvalue %[[N]], %{{.*}}[3, 0]
// CHECK:         %[[FREE:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK:         llvm.call @free(%[[FREE]]) : (!llvm.ptr) -> ()
func.func @alloc_dealloc(%n: index) {
  %a = memref.alloc(%n) alignment = 64 : memref<?x8xf32>
  memref.dealloc %a : memref<?x8xf32>
  return
}

// alloca: a stack slot of the element count; rank 0 descriptors have three fields.
// CHECK-LABEL: func.func @alloca_rank0
// CHECK:         %[[S:.*]] = llvm.alloca %{{.*}} x f64 : (i64) -> !llvm.ptr
// CHECK:         llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK:         llvm.insertvalue %[[S]], %{{.*}}[0] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK:         llvm.store
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> f64
func.func @alloca_rank0(%x: f64) -> f64 {
  %a = memref.alloca() : memref<f64>
  memref.store %x, %a[] : memref<f64>
  %v = memref.load %a[] : memref<f64>
  return %v : f64
}

// subview: offset += sum(offset_k * stride_k), strides multiply, sizes are the subview's;
// a rank-reducing subview drops the unit dimension.
// CHECK-LABEL: func.func @subviews
// CHECK:         %[[SRC:.*]] = builtin.unrealized_conversion_cast %m
// CHECK:         %[[ST0:.*]] = llvm.extractvalue %[[SRC]][4, 0]
// CHECK:         %[[O:.*]] = llvm.mul %{{.*}}, %[[ST0]] : i64
// CHECK:         llvm.add %[[O]], %{{.*}} : i64
// CHECK:         llvm.mul %[[ST0]], %{{.*}} : i64
// CHECK:         llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK:         llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
func.func @subviews(%m: memref<?x?xf32>, %o: index, %s: index) {
  %0 = memref.subview %m[%o, 2] [%s, 3] [2, 1] : memref<?x?xf32> to memref<?x3xf32, strided<[?, 1], offset: ?>>
  %1 = memref.subview %m[%o, 0] [1, %s] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
  return
}

// dim: a constant for static sizes, the descriptor's size otherwise.
// CHECK-LABEL: func.func @dims
// CHECK-DAG:     %[[C4:.*]] = llvm.mlir.constant(4) : i64
// CHECK-DAG:     %[[D1:.*]] = llvm.extractvalue %{{.*}}[3, 1]
// CHECK-DAG:     %[[R0:.*]] = builtin.unrealized_conversion_cast %[[C4]] : i64 to index
// CHECK-DAG:     %[[R1:.*]] = builtin.unrealized_conversion_cast %[[D1]] : i64 to index
// CHECK:         return %[[R0]], %[[R1]] : index, index
func.func @dims(%m: memref<4x?xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = memref.dim %m, %c0 : memref<4x?xf32>
  %1 = memref.dim %m, %c1 : memref<4x?xf32>
  return %0, %1 : index, index
}

// copy: memcpy between contiguous buffers, element loops otherwise.
// CHECK-LABEL: func.func @copies
// CHECK:         "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK:         llvm.br ^[[HEAD:.*]](%{{.*}} : i64)
// CHECK:       ^[[HEAD]](%[[IV:.*]]: i64):
// CHECK:         llvm.icmp "slt" %[[IV]]
// CHECK:         llvm.load
// CHECK:         llvm.store
func.func @copies(%a: memref<?x4xf32>, %b: memref<?x4xf32>, %s: memref<2x2xf32, strided<[8, 2]>>, %t: memref<2x2xf32>) {
  memref.copy %a, %b : memref<?x4xf32> to memref<?x4xf32>
  memref.copy %s, %t : memref<2x2xf32, strided<[8, 2]>> to memref<2x2xf32>
  return
}

// get_global: the aligned pointer is the global, the allocated one upstream's marker.
// CHECK-LABEL: func.func @globals
// CHECK:         %[[BEEF:.*]] = llvm.mlir.constant(3735928559) : i64
// CHECK:         %[[G:.*]] = llvm.mlir.addressof @cst : !llvm.ptr
// CHECK:         %[[MARK:.*]] = llvm.inttoptr %[[BEEF]] : i64 to !llvm.ptr
// CHECK:         llvm.insertvalue %[[MARK]], %{{.*}}[0]
// CHECK:         llvm.insertvalue %[[G]], %{{.*}}[1]
// CHECK:         %[[C4:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
func.func @globals() -> f32 {
  %g = memref.get_global @cst : memref<2x3xf32>
  %c1 = arith.constant 1 : index
  %v = memref.load %g[%c1, %c1] : memref<2x3xf32>
  return %v : f32
}

// Reshapes and casts build new descriptors over the same buffer.
// CHECK-LABEL: func.func @reshapes
// CHECK:         llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:         llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<3 x i64>, !llvm.array<3 x i64>)>
// CHECK:         llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK:         llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr
// CHECK:         llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
func.func @reshapes(%m: memref<4x8xf32>, %w: memref<16xf32, 3>) -> index {
  %0 = memref.collapse_shape %m [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  %1 = memref.expand_shape %m [[0], [1, 2]] output_shape [4, 2, 4] : memref<4x8xf32> into memref<4x2x4xf32>
  %2 = memref.reinterpret_cast %m to offset: [2], sizes: [3, 5], strides: [5, 1] : memref<4x8xf32> to memref<3x5xf32, strided<[5, 1], offset: 2>>
  %3 = memref.cast %m : memref<4x8xf32> to memref<?x?xf32>
  %4 = memref.memory_space_cast %w : memref<16xf32, 3> to memref<16xf32>
  %5 = "memref.extract_aligned_pointer_as_index"(%m) : (memref<4x8xf32>) -> index
  return %5 : index
}
