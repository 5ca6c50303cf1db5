// RUN: %roundtrip | filecheck %s

// Loop-mapping attributes on scf.forall, every level and every mapping id kind.

// CHECK-LABEL: func.func @mappings
func.func @mappings() {
  // CHECK: } {mapping = [#gpu.block<x>, #gpu.block<y>, #gpu.block<z>]}
  scf.forall (%i, %j, %k) in (2, 2, 2) {
  } {mapping = [#gpu.block<x>, #gpu.block<y>, #gpu.block<z>]}
  // CHECK: } {mapping = [#gpu.thread<linear_dim_0>, #gpu.thread<linear_dim_9>]}
  scf.forall (%i, %j) in (2, 2) {
  } {mapping = [#gpu.thread<linear_dim_0>, #gpu.thread<linear_dim_9>]}
  // CHECK: } {mapping = [#gpu.warp<y>, #gpu.warpgroup<linear_dim_2>, #gpu.lane<x>]}
  scf.forall (%i, %j, %k) in (2, 2, 2) {
  } {mapping = [#gpu.warp<y>, #gpu.warpgroup<linear_dim_2>, #gpu.lane<x>]}
  return
}

// Address spaces as memref memory spaces.

// CHECK-LABEL: func.func @address_spaces
// CHECK-SAME: memref<4xf32, #gpu.address_space<global>>
func.func @address_spaces(%g: memref<4xf32, #gpu.address_space<global>>) {
  // CHECK: memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
  %s = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
  // CHECK: memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  return
}
