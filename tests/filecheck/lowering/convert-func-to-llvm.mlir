// RUN: schedir-opt %s -p convert-func-to-llvm | filecheck %s
// RUN: schedir-opt %s -p convert-arith-to-llvm,finalize-memref-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts | filecheck %s --check-prefix=FULL

// A memref argument is passed as its descriptor's fields; the entry block packs them
// back into the descriptor struct.
// CHECK-LABEL: llvm.func @expand(%0: !llvm.ptr, %1: !llvm.ptr, %2: i64, %3: i64, %4: i64, %5: i64, %6: i64, %n: i64) -> i64
// CHECK:         %[[D0:.*]] = llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK:         llvm.insertvalue %0, %[[D0]][0]
// CHECK:         llvm.insertvalue %1, %{{.*}}[1]
// CHECK:         llvm.insertvalue %2, %{{.*}}[2]
// CHECK:         llvm.insertvalue %3, %{{.*}}[3, 0]
// CHECK:         llvm.insertvalue %4, %{{.*}}[3, 1]
// CHECK:         llvm.insertvalue %5, %{{.*}}[4, 0]
// CHECK:         %[[D:.*]] = llvm.insertvalue %6, %{{.*}}[4, 1]
// CHECK:         %[[M:.*]] = builtin.unrealized_conversion_cast %[[D]] : !llvm.struct<{{.*}}> to memref<?x4xf32>
// CHECK-NEXT:    memref.dealloc %[[M]] : memref<?x4xf32>
// CHECK-NEXT:    llvm.return %n : i64
func.func @expand(%m: memref<?x4xf32>, %n: index) -> index {
  memref.dealloc %m : memref<?x4xf32>
  return %n : index
}

// Several results are returned in a struct; calls unpack descriptors and results.
// CHECK-LABEL: llvm.func @pair(%x: f32, %y: i32) -> !llvm.struct<(f32, i32)>
// CHECK:         %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(f32, i32)>
// CHECK:         %[[P1:.*]] = llvm.insertvalue %x, %[[P]][0]
// CHECK:         %[[P2:.*]] = llvm.insertvalue %y, %[[P1]][1]
// CHECK:         llvm.return %[[P2]] : !llvm.struct<(f32, i32)>
func.func @pair(%x: f32, %y: i32) -> (f32, i32) {
  return %x, %y : f32, i32
}

// CHECK-LABEL: llvm.func @caller
// CHECK:         %[[C:.*]] = llvm.call @pair(%{{.*}}, %{{.*}}) : (f32, i32) -> !llvm.struct<(f32, i32)>
// CHECK:         llvm.extractvalue %[[C]][0] : !llvm.struct<(f32, i32)>
// CHECK:         llvm.extractvalue %[[C]][1] : !llvm.struct<(f32, i32)>
// CHECK:         llvm.extractvalue %{{.*}}[0] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK:         llvm.extractvalue %{{.*}}[4, 1]
// CHECK:         llvm.call @expand(%{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64) -> i64
func.func @caller(%x: f32, %y: i32, %m: memref<?x4xf32>, %n: index) -> f32 {
  %a, %b = func.call @pair(%x, %y) : (f32, i32) -> (f32, i32)
  %k = func.call @expand(%m, %n) : (memref<?x4xf32>, index) -> index
  return %a : f32
}

// The C interface: memrefs by pointer to a descriptor, a memref result through a first
// pointer argument, a scalar result by value.
// CHECK-LABEL: llvm.func @make(%{{.*}}: i64) -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)> attributes {llvm.emit_c_interface}
// CHECK-LABEL: llvm.func @_mlir_ciface_make(%{{.*}}: !llvm.ptr, %{{.*}}: i64) attributes {llvm.emit_c_interface}
// CHECK:         %[[R:.*]] = llvm.call @make(%{{.*}}) : (i64) -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:         llvm.store %[[R]], %{{.*}} : !llvm.struct<{{.*}}>, !llvm.ptr
// CHECK:         llvm.return
// FULL-LABEL:  llvm.func @make(%{{.*}}: i64)
// FULL:          llvm.call @malloc
func.func @make(%n: index) -> memref<?xf32> attributes {llvm.emit_c_interface} {
  %a = memref.alloc(%n) : memref<?xf32>
  return %a : memref<?xf32>
}

// CHECK-LABEL: llvm.func @_mlir_ciface_sum(%{{.*}}: !llvm.ptr, %{{.*}}: f16) -> f16
// CHECK:         %[[D:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK:         llvm.extractvalue %[[D]][0]
// CHECK:         %[[R:.*]] = llvm.call @sum(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, f16) -> f16
// CHECK:         llvm.return %[[R]] : f16
func.func @sum(%m: memref<f16>, %h: f16) -> f16 attributes {llvm.emit_c_interface} {
  return %h : f16
}

// A declaration with the C interface gets a private body calling @_mlir_ciface_ext.
// CHECK-LABEL: llvm.func private @ext(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK:         llvm.alloca %{{.*}} x !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)> : (i64) -> !llvm.ptr
// CHECK:         llvm.store
// CHECK:         llvm.call @_mlir_ciface_ext(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK:       llvm.func @_mlir_ciface_ext(!llvm.ptr) attributes {llvm.emit_c_interface, sym_visibility = "private"}
func.func private @ext(memref<?xf32>) attributes {llvm.emit_c_interface}

// Linkage from llvm.linkage; external by default.
// CHECK-LABEL: llvm.func internal @helper()
func.func @helper() attributes {llvm.linkage = #llvm.linkage<internal>} {
  return
}
