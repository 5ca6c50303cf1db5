// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// schedir's generalization of nvgpu.warpgroup.generate.descriptor's lowering (not in
// tests/filecheck/nvgpu, whose files upstream must read): a tile of one 128-byte column
// chunk may be whole 8-row swizzle atoms of its box's rows, as a consumer warpgroup's
// rows of a warp-specialized block's A tile (warp_specialize_tma_ring): here rows 64..127
// of a 128-row box, 8 KiB further, one chunk (leading byte offset 1).
// CHECK-LABEL: llvm.func @rows_of_a_box
// CHECK:         llvm.getelementptr
// CHECK:         llvm.ptrtoint
// CHECK:         llvm.or %{{.*}}, %{{.*}} : i64
gpu.module @rows_of_a_box {
  gpu.func @rows_of_a_box(%ta: !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>) kernel {
    %a = memref.alloc() : memref<8192xf16, 3>
    %c4096 = arith.constant 4096 : index
    %rows = memref.reinterpret_cast %a to offset: [%c4096], sizes: [64, 64], strides: [64, 1] : memref<8192xf16, 3> to memref<64x64xf16, strided<[64, 1], offset: ?>, 3>
    %da = nvgpu.warpgroup.generate.descriptor %rows, %ta : memref<64x64xf16, strided<[64, 1], offset: ?>, 3>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
    gpu.return
  }
}
