// RUN: schedir-opt %s -p gpu-kernel-outlining | filecheck %s

// A memref kernel argument gets llvm.align when its aligned pointer is proven aligned:
// through the view ops that keep the pointer (subview, cast, expand_shape, ...) to an
// allocation's alignment or to an argument of a public function nothing calls (the
// runtime's entry, whose arrays it aligns to 16 bytes). memref.view moves the pointer,
// a private or called function's arguments depend on the callers, an allocation without
// alignment promises nothing: no attribute. The launch's nvvm.* attributes (launch
// bounds) move to the kernel.

// CHECK:      gpu.func @entry_kernel(%{{.*}}: f32, %{{.*}}: memref<4x4xf32, strided<[8, 1], offset: ?>> {llvm.align = 16 : i64}, %{{.*}}: index, %{{.*}}: memref<16xf32> {llvm.align = 64 : i64}, %{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 1>, known_grid_size = array<i32: 1, 1, 1>, nvvm.minctasm = 2 : i32} {
// CHECK:      gpu.func @helper_kernel(%{{.*}}: f32, %{{.*}}: memref<8x8xf32>, %{{.*}}: index) kernel
// CHECK:      gpu.func @called_kernel(%{{.*}}: f32, %{{.*}}: memref<8x8xf32>, %{{.*}}: index) kernel
func.func @entry(%a: memref<8x8xf32>, %i: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sub = memref.subview %a[%i, 0] [4, 4] [1, 1]
      : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  %aligned = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %plain = memref.alloc() : memref<4xf32>
  %bytes = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  %c4 = arith.constant 4 : index
  %moved = memref.view %bytes[%c4][] : memref<64xi8> to memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %x, %sub[%c0, %c0] : memref<4x4xf32, strided<[8, 1], offset: ?>>
    memref.store %x, %aligned[%c0] : memref<16xf32>
    memref.store %x, %plain[%c0] : memref<4xf32>
    memref.store %x, %moved[%c0] : memref<4xf32>
    gpu.terminator
  } {nvvm.minctasm = 2 : i32}
  return
}

func.func private @helper(%a: memref<8x8xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %x, %a[%c0, %c0] : memref<8x8xf32>
    gpu.terminator
  }
  return
}

func.func @called(%a: memref<8x8xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %x, %a[%c0, %c0] : memref<8x8xf32>
    gpu.terminator
  }
  return
}

func.func @caller(%a: memref<8x8xf32>, %x: f32) {
  func.call @called(%a, %x) : (memref<8x8xf32>, f32) -> ()
  func.call @helper(%a, %x) : (memref<8x8xf32>, f32) -> ()
  return
}
