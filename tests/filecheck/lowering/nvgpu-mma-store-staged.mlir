// RUN: schedir-opt %s | filecheck %s --check-prefix=ROUNDTRIP
// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// schedir's `nvgpu.warpgroup.mma.store ... through %staging` (upstream has no staged
// store): the accumulators go through a workgroup buffer of the rows by a chunk of
// columns, then out in 16-byte pieces.

// ROUNDTRIP-LABEL: gpu.func @whole
// ROUNDTRIP:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} through %{{.*}} : <fragmented = vector<64x128xf32>> to memref<64x128xf16, strided<[4096, 1], offset: ?>> through memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>

// A whole tile, two chunks of 64 columns: per chunk the warpgroup's named barrier (1 +
// tid / 128, 128 threads), the thread's 16 pairs (rounded to f16) into the buffer as
// 4-byte vectors, the barrier, then 4 pieces of 8 f16 read 16-byte aligned and stored
// 16-byte aligned (the row stride, 8192 bytes, is a multiple of 16).
// CHECK-LABEL: llvm.func @whole
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"(%[[ID:.*]], %[[COUNT:.*]]) : (i32, i32) -> ()
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} <alignment = 4> : vector<2xf16>, !llvm.ptr<3>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"(%[[ID]], %[[COUNT]]) : (i32, i32) -> ()
// CHECK:         llvm.load %{{.*}} <alignment = 16> : !llvm.ptr<3> -> vector<8xf16>
// CHECK:         llvm.store %{{.*}}, %{{.*}} <alignment = 16> : vector<8xf16>, !llvm.ptr
// CHECK-COUNT-3: llvm.store %{{.*}}, %{{.*}} <alignment = 16> : vector<8xf16>, !llvm.ptr
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"(%[[ID]], %[[COUNT]]) : (i32, i32) -> ()
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} <alignment = 4> : vector<2xf16>, !llvm.ptr<3>
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} <alignment = 16> : vector<8xf16>, !llvm.ptr
// CHECK:         llvm.return

// An edge tile (dynamic sizes): each piece's first min(columns left, 8) elements, with
// one 16-byte store for a whole piece, element stores otherwise, all predicated in PTX.
// CHECK-LABEL: llvm.func @edge
// CHECK:         llvm.inline_asm has_side_effects "{\0A.reg .pred w, q;\0Asetp.lt.s32 w, $0, 8;\0A@!w st.global.v4.b32 [$1], {$2, $3, $4, $5};\0Asetp.gt.and.s32 q, $0, 0, w;\0A@q st.global.b16 [$1+0], $6;
// CHECK-SAME:      "r,l,r,r,r,r,h,h,h,h,h,h,h,h"
// CHECK-NOT:     llvm.intr.masked.store
// CHECK:         llvm.return
gpu.module @staged {
  gpu.func @whole(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %out: memref<64x128xf16, strided<[4096, 1], offset: ?>>, %buf: memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %buf : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16, strided<[4096, 1], offset: ?>> through memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @edge(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %out: memref<?x?xf16, strided<[1032, 1], offset: ?>>, %buf: memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %buf : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<?x?xf16, strided<[1032, 1], offset: ?>> through memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.return
  }
}
