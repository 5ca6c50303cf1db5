// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// RUN: schedir-opt %s -p 'convert-gpu-to-nvvm,nvvm-attach-target{chip=sm_90a features="+ptx83"},gpu-module-to-binary{format=bin}' | filecheck %s --check-prefix=BIN

// convert-gpu-to-nvvm lowers the nvgpu ops of device code to NVPTX intrinsics and inline
// PTX. The second run compiles every module for sm_90a (PTX 8.3 for the tensormap fence)
// and assembles it: LLVM knows every intrinsic name (an unknown one is an internal error)
// and ptxas does not serialize the wgmma instructions (an error too).

// BIN-COUNT-4: gpu.binary @{{.*}} [#gpu.object<#nvvm.target<chip = "sm_90a", features = "+ptx83">, bin = "\7FELF

!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmap3 = !nvgpu.tensormap.descriptor<tensor = memref<2x8x32xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>

// CHECK-LABEL: gpu.module @barriers
// CHECK:         llvm.mlir.global internal @__mbarrier_0() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
// CHECK:         llvm.func @barriers
// CHECK:           %[[B:.*]] = llvm.mlir.addressof @__mbarrier_0 : !llvm.ptr<3>
// CHECK:           %[[B1:.*]] = llvm.getelementptr %[[B]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i64
// CHECK:           llvm.call_intrinsic "llvm.nvvm.mbarrier.init.shared"(%[[B1]], %{{.*}}) : (!llvm.ptr<3>, i32) -> ()
// CHECK:           llvm.inline_asm has_side_effects "@$2 mbarrier.init.shared.b64 [$0], $1;", "l,r,b"
// CHECK:           llvm.call_intrinsic "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta"(%{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32) -> i64
// CHECK:           llvm.inline_asm has_side_effects "@$2 mbarrier.arrive.expect_tx.shared.b64 _, [$0], $1;", "l,r,b"
// CHECK:           %[[T:.*]] = llvm.call_intrinsic "llvm.nvvm.mbarrier.arrive.shared"(%{{.*}}) : (!llvm.ptr<3>) -> i64
// CHECK:           llvm.call_intrinsic "llvm.nvvm.mbarrier.arrive.noComplete.shared"(%{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32) -> i64
// CHECK:           llvm.call_intrinsic "llvm.nvvm.mbarrier.test.wait.shared"(%{{.*}}, %[[T]]) : (!llvm.ptr<3>, i64) -> i1
// CHECK:           llvm.inline_asm has_side_effects "{\0A.reg .pred P1;\0ALAB_WAIT:\0Ambarrier.try_wait.parity.shared.b64 P1, [$0], $1, $2;\0A@P1 bra DONE;\0Abra LAB_WAIT;\0ADONE:\0A}", "l,r,r"
gpu.module @barriers {
  gpu.func @barriers(%n: index, %p: i1, %out: memref<1xi1>) kernel {
    %c1 = arith.constant 1 : index
    %b = nvgpu.mbarrier.create -> !bar
    nvgpu.mbarrier.init %b[%c1], %n : !bar
    nvgpu.mbarrier.init %b[%c1], %n, predicate = %p : !bar
    nvgpu.mbarrier.arrive.expect_tx %b[%c1], %n : !bar
    nvgpu.mbarrier.arrive.expect_tx %b[%c1], %n, predicate = %p : !bar
    %t = nvgpu.mbarrier.arrive %b[%c1] : !bar -> !nvgpu.mbarrier.token
    %t2 = nvgpu.mbarrier.arrive.nocomplete %b[%c1], %n : !bar -> !nvgpu.mbarrier.token
    %done = nvgpu.mbarrier.test.wait %b[%c1], %t : !bar, !nvgpu.mbarrier.token
    memref.store %done, %out[%c1] : memref<1xi1>
    nvgpu.mbarrier.try_wait.parity %b[%c1], %p, %n : !bar
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @tma
// CHECK:         llvm.mlir.global private @__wg_tma_0() {addr_space = 3 : i32, alignment = 1024 : i64
// CHECK:         llvm.func @tma(%[[D:[^:]*]]: !llvm.ptr, %[[D3:[^:]*]]: !llvm.ptr
// CHECK:           llvm.call_intrinsic "llvm.nvvm.prefetch.tensormap"(%[[D]]) : (!llvm.ptr) -> ()
// CHECK:           llvm.inline_asm has_side_effects "fence.proxy.tensormap::generic.acquire.gpu [$0], 128;", "l" %[[D]]
// Coordinates go innermost first.
// CHECK:           %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK:           %[[Y:.*]] = llvm.trunc %y : i64 to i32
// CHECK-NEXT:      %[[X:.*]] = llvm.trunc %x : i64 to i32
// CHECK:           llvm.call_intrinsic "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d"(%[[DST]], %{{.*}}, %[[D]], %[[Y]], %[[X]], %{{.*}}) : (!llvm.ptr<7>, !llvm.ptr<3>, !llvm.ptr, i32, i32, i16, i64, i1, i1, i32) -> ()
// CHECK:           %[[Y2:.*]] = llvm.trunc %y : i64 to i32
// CHECK-NEXT:      %[[X2:.*]] = llvm.trunc %x : i64 to i32
// CHECK:           llvm.call_intrinsic "llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d"(%{{.*}}, %[[D]], %[[Y2]], %[[X2]], %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr, i32, i32, i64, i1) -> ()
// CHECK:           llvm.call_intrinsic "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.3d"(%{{.*}}, %{{.*}}, %[[D3]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<7>, !llvm.ptr<3>, !llvm.ptr, i32, i32, i32, i16, i64, i1, i1, i32) -> ()
gpu.module @tma {
  gpu.func @tma(%d: !tmap, %d3: !tmap3, %x: index, %y: index) kernel {
    %c0 = arith.constant 0 : index
    %s = memref.alloc() : memref<64x64xf16, 3>
    %s3 = memref.alloc() : memref<2x8x32xf32, 3>
    %b = nvgpu.mbarrier.create -> !bar
    nvgpu.tma.prefetch.descriptor %d : !tmap
    nvgpu.tma.fence.descriptor %d : !tmap
    nvgpu.tma.async.load %d[%x, %y], %b[%c0] to %s : !tmap, !bar -> memref<64x64xf16, 3>
    nvgpu.tma.async.store %s to %d[%x, %y] : memref<64x64xf16, 3> -> !tmap
    nvgpu.tma.async.load %d3[%x, %y, %x], %b[%c0] to %s3 : !tmap3, !bar -> memref<2x8x32xf32, 3>
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @copies
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.ca.shared.global.16"(%{{.*}}, %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>) -> ()
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.cg.shared.global.16.s"(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.ca.shared.global.4"(%{{.*}}, %{{.*}}) : (!llvm.ptr<3>, !llvm.ptr<1>) -> ()
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.commit.group"() : () -> ()
// CHECK:         llvm.call_intrinsic "llvm.nvvm.cp.async.wait.group"(%{{.*}}) : (i32) -> ()
gpu.module @copies {
  gpu.func @copies(%g: memref<128x128xf32>, %h: memref<64xf16>, %i: index, %n: index) kernel {
    %s = memref.alloc() : memref<16x128xf32, 3>
    %sh = memref.alloc() : memref<64xf16, 3>
    %t1 = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i], 4 : memref<128x128xf32> to memref<16x128xf32, 3>
    %t2 = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i], 4, %n bypassL1 : memref<128x128xf32> to memref<16x128xf32, 3>
    %t3 = nvgpu.device_async_copy %h[%i], %sh[%i], 2 : memref<64xf16> to memref<64xf16, 3>
    %g1 = nvgpu.device_async_create_group %t1, %t2, %t3
    nvgpu.device_async_wait %g1 numGroups = 1
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @wgmma
// CHECK:         llvm.func @wgmma
// CHECK:           %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK:           %[[LOW:.*]] = llvm.and %[[ADDR]], %{{.*}} : i64
// CHECK:           %[[START:.*]] = llvm.lshr %[[LOW]], %{{.*}} : i64
// CHECK:           %[[DA:.*]] = llvm.or %[[START]], %{{.*}} : i64
// The zero accumulators are inline PTX movs (constants would be sunk between the MMAs).
// CHECK:           llvm.mlir.undef : !llvm.struct<(!llvm.struct<(f32, {{.*}})>, !llvm.struct<(f32, {{.*}})>)>
// CHECK-COUNT-2:   llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0Amov.b32 $1, 0;{{.*}}mov.b32 $31, 0;", "=f,
// CHECK:           llvm.call_intrinsic "llvm.nvvm.wgmma.fence.sync.aligned"() : () -> ()
// CHECK-COUNT-8:   llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, $1,
// CHECK:           llvm.call_intrinsic "llvm.nvvm.wgmma.commit_group.sync.aligned"() : () -> ()
// CHECK-COUNT-2:   llvm.inline_asm has_side_effects "// wait for the accumulators\0Awgmma.wait_group.sync.aligned 1;", "=f,=f,
// The second mma reads the first one's accumulators while that group may be in flight
// (waitGroup 1, a pipelined loop's pattern); it waits for everything before the store.
// CHECK-COUNT-8:   llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, $1,
// CHECK-COUNT-2:   llvm.inline_asm has_side_effects "// wait for the accumulators\0Awgmma.wait_group.sync.aligned 0;", "=f,=f,
// The store waits for every group too (a pipelined loop leaves one in flight).
// CHECK-COUNT-2:   llvm.inline_asm has_side_effects "// wait for the accumulators\0Awgmma.wait_group.sync.aligned 0;", "=f,=f,
// CHECK:           nvvm.read.ptx.sreg.tid.x
// CHECK-COUNT-32:  llvm.store %{{.*}}, %{{.*}} <alignment = 4> : vector<2xf32>, !llvm.ptr<3>
gpu.module @wgmma {
  gpu.func @wgmma(%ta: !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
                  %tb: !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>) kernel {
    %a = memref.alloc() : memref<128x64xbf16, 3>
    %b = memref.alloc() : memref<64x64xbf16, 3>
    %out = memref.alloc() : memref<128x64xf32, 3>
    %da = nvgpu.warpgroup.generate.descriptor %a, %ta : memref<128x64xbf16, 3>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xbf16, 3>>
    %db = nvgpu.warpgroup.generate.descriptor %b, %tb : memref<64x64xbf16, 3>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xbf16, 3>>
    %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>>
    %d = nvgpu.warpgroup.mma %da, %db, %acc : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xbf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x64xbf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>>
    %e = nvgpu.warpgroup.mma %da, %db, %d waitGroup = 0 : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xbf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x64xbf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>>
    nvgpu.warpgroup.mma.store %e, %out : !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>> to memref<128x64xf32, 3>
    gpu.return
  }
}

// A 64 x 256 B tile loaded in four 64 x 64 column chunks (box 64 x 64): its descriptor's
// leading byte offset is one chunk, 64 rows x 128 B = 8192 B (512 in 16-byte units, bits
// 16-29), A's is the unused 1; one m64n256k16 per 16 of K with 128 tied accumulators,
// the K steps advancing A by 32 B and B by 16 rows (2048 B) within each chunk.
// CHECK-LABEL: gpu.module @wgmma_wide
// CHECK:         llvm.func @wgmma_wide
// CHECK-DAG:       %[[BITS_A:.*]] = llvm.mlir.constant(4611686293305360384) : i64
// CHECK-DAG:       %[[BITS_B:.*]] = llvm.mlir.constant(4611686293338849280) : i64
// CHECK-DAG:       %[[B1:.*]] = llvm.mlir.constant(128) : i64
// CHECK:           %{{.*}} = llvm.or %{{.*}}, %[[BITS_A]] : i64
// CHECK:           %[[DB:.*]] = llvm.or %{{.*}}, %[[BITS_B]] : i64
// CHECK:           llvm.call_intrinsic "llvm.nvvm.wgmma.fence.sync.aligned"() : () -> ()
// CHECK:           wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {$0, {{.*}}, $127}, $256, $257, p, 1, 1, 0, 1;
// CHECK:           llvm.add %[[DB]], %[[B1]] : i64
// CHECK-COUNT-3:   wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// CHECK-NOT:       wgmma.mma_async
// CHECK:           llvm.call_intrinsic "llvm.nvvm.wgmma.commit_group.sync.aligned"() : () -> ()
// CHECK-COUNT-64:  llvm.store %{{.*}}, %{{.*}} <alignment = 4> : vector<2xf32>, !llvm.ptr<3>
gpu.module @wgmma_wide {
  gpu.func @wgmma_wide(%ta: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
                       %tb: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>) kernel {
    %a = memref.alloc() : memref<64x64xf16, 3>
    %b = memref.alloc() : memref<64x256xf16, 3>
    %out = memref.alloc() : memref<64x256xf32, 3>
    %da = nvgpu.warpgroup.generate.descriptor %a, %ta : memref<64x64xf16, 3>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
    %db = nvgpu.warpgroup.generate.descriptor %b, %tb : memref<64x256xf16, 3>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x256xf16, 3>>
    %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>
    %d = nvgpu.warpgroup.mma %da, %db, %acc waitGroup = 0 : !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x256xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>
    nvgpu.warpgroup.mma.store %d, %out : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to memref<64x256xf32, 3>
    gpu.return
  }
}
