// RUN: schedir-opt %s --split-input-file | filecheck %s --check-prefix=ROUNDTRIP
// RUN: schedir-opt %s --split-input-file -p convert-gpu-to-nvvm | filecheck %s
// schedir's `nvgpu.warpgroup.mma.store ... through %staging {stmatrix}`: the staging
// buffer written with stmatrix.x4 (four 8x8 matrices of a warp's f16 pairs each).

// ROUNDTRIP-LABEL: gpu.func @padded
// ROUNDTRIP:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} through %{{.*}} {stmatrix} : <fragmented = vector<64x128xf32>>

// Padded rows of 144 bytes: each lane's row address (16 w + 8 ((l / 8) mod 2) + l mod 8)
// x 144 plus its piece (l / 16) x 16, then per store the group's offset added: 4 stores of
// a 64-column chunk (8-column groups 0-1, 2-3, 4-5, 6-7), no 4-byte shared stores.
// CHECK-LABEL: llvm.func @padded
// CHECK:         %[[ROW:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "r,r,r,r,r"
// CHECK-NOT:     vector<2xf16>, !llvm.ptr<3>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"
// CHECK:         llvm.return
gpu.module @stmatrix {
  gpu.func @padded(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %out: memref<64x128xf16, strided<[4096, 1], offset: ?>>, %buf: memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %buf {stmatrix} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16, strided<[4096, 1], offset: ?>> through memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// TMA's swizzled boxes: the lane's piece xor its row mod 8, then per store xor the
// group's piece.
// ROUNDTRIP-LABEL: gpu.func @swizzled
// ROUNDTRIP:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} through %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}] {stmatrix} :
// CHECK-LABEL: llvm.func @swizzled
// CHECK:         llvm.xor
// CHECK:         llvm.shl
// CHECK-COUNT-4: "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};"
// CHECK:         "fence.proxy.async.shared::cta;"
// CHECK:         llvm.return
gpu.module @stmatrix_tma {
  gpu.func @swizzled(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %out: memref<64x64xf16, strided<[4096, 1], offset: ?>>, %bufs: memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, %tmap: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, %i: index, %j: index) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %bufs to %tmap[%i, %j] {stmatrix} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf16, strided<[4096, 1], offset: ?>> through memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    gpu.return
  }
}
