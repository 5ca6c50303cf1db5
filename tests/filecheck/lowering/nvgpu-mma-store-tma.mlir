// RUN: schedir-opt %s | filecheck %s --check-prefix=ROUNDTRIP
// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// schedir's `nvgpu.warpgroup.mma.store ... through %bufs to %tmap[...]` (upstream has no
// staged store): the chunks of 64 f16 columns go into 128B-swizzled buffers in turn and
// out by TMA stores of the warpgroup's leader.

// ROUNDTRIP-LABEL: gpu.func @two_buffers
// ROUNDTRIP:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} through %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}] : <fragmented = vector<64x256xf32>> to memref<64x256xf16, strided<[4096, 1], offset: ?>> through memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> to <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// Two buffers, four chunks: per chunk the thread's 16 pairs into the buffer (each pair's
// byte column xor (row mod 8) x 16: the swizzle), the async-proxy fence, the leader's
// wait until no store reads the next chunk's buffer (0 groups pending), the warpgroup's
// named barrier, the leader's TMA store at (row, column + 64 x chunk) and its commit.
// CHECK-LABEL: llvm.func @two_buffers
// CHECK-COUNT-16: llvm.xor
// CHECK:         llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;", ""
// CHECK-NEXT:    llvm.inline_asm has_side_effects "@$0 cp.async.bulk.wait_group.read 0;", "b" %[[LEADER:.*]] : (i1) -> ()
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"(%[[ID:.*]], %[[COUNT:.*]]) : (i32, i32) -> ()
// CHECK:         llvm.inline_asm has_side_effects "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];\0A@$0 cp.async.bulk.commit_group;", "b,l,r,r,r" %[[LEADER]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (i1, !llvm.ptr, i32, i32, i32) -> ()
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} <alignment = 4> : vector<2xf16>, !llvm.ptr<3>
// CHECK:         "@$0 cp.async.bulk.wait_group.read 0;"
// CHECK:         "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// CHECK:         "@$0 cp.async.bulk.wait_group.read 0;"
// CHECK:         "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// CHECK:         "@$0 cp.async.bulk.wait_group.read 0;"
// CHECK:         "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// CHECK-NOT:     cp.async.bulk.tensor
// CHECK:         llvm.return

// One buffer: before each chunk's writes the leader waits until the last store has read
// it and the warpgroup meets; no wait before the store.
// CHECK-LABEL: llvm.func @one_buffer
// CHECK:         "@$0 cp.async.bulk.wait_group.read 0;"
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} <alignment = 4> : vector<2xf16>, !llvm.ptr<3>
// CHECK:         "fence.proxy.async.shared::cta;"
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"
// CHECK:         "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// CHECK:         llvm.return
// Boxes of 16 rows: each warp writes its own rows (16 of the 64), meets at the warp's
// barrier and its lane 0 stores its box at row %i + 16 x warp (2048 bytes into the
// buffer); no warpgroup barrier.
// CHECK-LABEL: llvm.func @by_warp
// CHECK-NOT:     llvm.nvvm.barrier.cta.sync
// CHECK:         %[[LEADER:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[WARP:.*]] = llvm.udiv
// CHECK-NEXT:    %[[W16:.*]] = llvm.mul %[[WARP]], %{{.*}} : i64
// CHECK-NEXT:    %[[BOX:.*]] = llvm.add %[[W16]], %{{.*}} : i64
// CHECK:         "fence.proxy.async.shared::cta;"
// CHECK-NEXT:    "@$0 cp.async.bulk.wait_group.read 0;", "b" %[[LEADER]]
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.bar.warp.sync"(%{{.*}}) : (i32) -> ()
// CHECK:         %[[AT:.*]] = llvm.mul %[[BOX]], %{{.*}} : i64
// CHECK:         "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];\0A@$0 cp.async.bulk.commit_group;", "b,l,r,r,r" %[[LEADER]]
// CHECK-NOT:     llvm.nvvm.barrier.cta.sync
// CHECK:         llvm.return
gpu.module @tma {
  gpu.func @two_buffers(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>, %out: memref<64x256xf16, strided<[4096, 1], offset: ?>>, %bufs: memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, %tmap: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, %i: index, %j: index) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %bufs to %tmap[%i, %j] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to memref<64x256xf16, strided<[4096, 1], offset: ?>> through memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    gpu.return
  }
  gpu.func @one_buffer(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %out: memref<?x?xf16, strided<[1032, 1], offset: ?>>, %bufs: memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, %tmap: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, %i: index, %j: index) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %bufs to %tmap[%i, %j] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<?x?xf16, strided<[1032, 1], offset: ?>> through memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    gpu.return
  }
  gpu.func @by_warp(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %out: memref<64x128xf16, strided<[4096, 1], offset: ?>>, %bufs: memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, %tmap: !nvgpu.tensormap.descriptor<tensor = memref<16x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, %i: index, %j: index) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %bufs to %tmap[%i, %j] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16, strided<[4096, 1], offset: ?>> through memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> to !nvgpu.tensormap.descriptor<tensor = memref<16x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    gpu.return
  }
}
