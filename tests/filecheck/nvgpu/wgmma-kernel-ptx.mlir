// RUN: schedir-opt %s -p convert-gpu-to-nvvm,gpu-module-to-binary | filecheck %s
// RUN: schedir-opt %s -p 'convert-gpu-to-nvvm,gpu-module-to-binary{format=bin}' | filecheck %s --check-prefix=BIN

// A TMA + mbarrier + wgmma kernel written in nvgpu ops (one warpgroup, C = A * B for a
// 64x64 f32 tile, K = 256 in steps of 64: thread 0 arms the barrier with the bytes of two
// 128B-swizzled 64x64 f16 boxes and issues their TMA loads, every thread waits on the
// phase, the warpgroup runs wgmma m64n64k16 on the tiles' matrix descriptors) lowers to
// sm_90a PTX, and ptxas assembles it without serializing the wgmma instructions (a
// C751x message is an error of `format=bin`).

// CHECK:      .target sm_90a
// CHECK-NOT:  .extern
// CHECK:      .shared .align 1024 .b8 __wg_matmul_{{[01]}}[8192]
// CHECK:      .shared .align 1024 .b8 __wg_matmul_{{[01]}}[8192]
// CHECK:      mbarrier.init.shared.b64
// CHECK:      mbarrier.arrive.expect_tx.shared.b64
// CHECK:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK:      mbarrier.try_wait.parity.shared.b64
// CHECK:      wgmma.fence.sync.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK:      wgmma.commit_group.sync.aligned
// CHECK:      wgmma.wait_group.sync.aligned 0
// CHECK:      st.global.b32

// BIN: gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90a", features = "+ptx80">, bin = "\7FELF

!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!desc = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
  gpu.func @matmul(%ta: !tmap, %tb: !tmap, %c: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %bytes = arith.constant 16384 : index
    %ticks = arith.constant 10000000 : index
    %a = memref.alloc() : memref<64x64xf16, 3>
    %b = memref.alloc() : memref<64x64xf16, 3>
    %bar = nvgpu.mbarrier.create -> !bar
    %tid = gpu.thread_id x
    %leader = arith.cmpi eq, %tid, %c0 : index
    nvgpu.mbarrier.init %bar[%c0], %c1, predicate = %leader : !bar
    gpu.barrier
    %init = nvgpu.warpgroup.mma.init.accumulator -> !acc
    %r = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %init) -> (!acc) {
      %i = arith.divui %k, %c64 : index
      %p = arith.index_cast %i : index to i64
      %parity = arith.trunci %p : i64 to i1
      scf.if %leader {
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bar
        nvgpu.tma.async.load %ta[%c0, %k], %bar[%c0] to %a : !tmap, !bar -> memref<64x64xf16, 3>
        nvgpu.tma.async.load %tb[%k, %c0], %bar[%c0] to %b : !tmap, !bar -> memref<64x64xf16, 3>
      }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %parity, %ticks : !bar
      %da = nvgpu.warpgroup.generate.descriptor %a, %ta : memref<64x64xf16, 3>, !tmap -> !desc
      %db = nvgpu.warpgroup.generate.descriptor %b, %tb : memref<64x64xf16, 3>, !tmap -> !desc
      %d = nvgpu.warpgroup.mma %da, %db, %acc waitGroup = 0 : !desc, !desc, !acc -> !acc
      gpu.barrier
      scf.yield %d : !acc
    }
    nvgpu.warpgroup.mma.store %r, %c : !acc to memref<64x64xf32>
    gpu.return
  }
}
