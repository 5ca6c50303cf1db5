; A hand-written sm_90a kernel: C[64x64 tile] = A (MxK, f16, row-major) * B (KxN, f16,
; row-major) with f32 accumulation. One warpgroup (128 threads) per 64x64 tile of C (grid
; x over N tiles, y over M tiles); per 64-wide K step, thread 0 arms an mbarrier with the
; bytes to expect and issues two TMA loads (128B-swizzled 64x64 boxes, descriptors passed
; as grid-constant byval kernel parameters); every thread waits on the barrier's phase,
; then the warpgroup runs four wgmma m64n64k16 (A K-major, B N-major: trans-b = 1) on
; shared-memory matrix descriptors and waits for them with the accumulators tied through
; the wait (no C7515 serialization). The f32 accumulators go straight to C.
; This is the LLVM IR the nvgpu lowering is expected to produce for such a kernel; the
; tests compile it for sm_90a, assemble it with ptxas and (on a GPU) run it.

@smem = internal addrspace(3) global [16384 x i8] undef, align 1024
@mbar = internal addrspace(3) global i64 undef, align 8

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.nvvm.prefetch.tensormap(ptr)
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned()

; The wgmma matrix descriptor of a 128B-swizzled tile at shared address %addr:
; start address >> 4 (bits 0-13), leading byte offset 16 B (unused by swizzled K-major
; tiles), stride byte offset 1024 B = 8 rows of 128 B (bits 32-45), swizzle 128B (bit 62).
define internal i64 @descriptor(ptr addrspace(3) %p) alwaysinline {
  %a = ptrtoint ptr addrspace(3) %p to i64
  %lo = and i64 %a, 262143
  %start = lshr i64 %lo, 4
  %d1 = or i64 %start, 65536
  %d2 = or i64 %d1, 274877906944
  %d3 = or i64 %d2, 4611686018427387904
  ret i64 %d3
}

define ptx_kernel void @wgmma_tma_matmul(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %ta, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %tb, ptr addrspace(1) %c, i32 %k_tiles, i32 %ldc) "nvvm.maxntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %n0 = shl i32 %bx, 6
  %m0 = shl i32 %by, 6
  %leader = icmp eq i32 %tid, 0
  %sa = getelementptr i8, ptr addrspace(3) @smem, i32 0
  %sb = getelementptr i8, ptr addrspace(3) @smem, i32 8192
  %sa7 = addrspacecast ptr addrspace(3) %sa to ptr addrspace(7)
  %sb7 = addrspacecast ptr addrspace(3) %sb to ptr addrspace(7)
  %da = call i64 @descriptor(ptr addrspace(3) %sa)
  %db = call i64 @descriptor(ptr addrspace(3) %sb)
  br i1 %leader, label %init, label %init.done
init:
  call void @llvm.nvvm.prefetch.tensormap(ptr %ta)
  call void @llvm.nvvm.prefetch.tensormap(ptr %tb)
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 1)
  ; the barrier's initialization must be visible to the TMA unit (the async proxy)
  call void @llvm.nvvm.fence.proxy.async.shared_cta()
  br label %init.done
init.done:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %acc0 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } undef, float 0.0, 0
  %acc0.1 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0, float 0.0, 1
  %acc0.2 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.1, float 0.0, 2
  %acc0.3 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.2, float 0.0, 3
  %acc0.4 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.3, float 0.0, 4
  %acc0.5 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.4, float 0.0, 5
  %acc0.6 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.5, float 0.0, 6
  %acc0.7 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.6, float 0.0, 7
  %acc0.8 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.7, float 0.0, 8
  %acc0.9 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.8, float 0.0, 9
  %acc0.10 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.9, float 0.0, 10
  %acc0.11 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.10, float 0.0, 11
  %acc0.12 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.11, float 0.0, 12
  %acc0.13 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.12, float 0.0, 13
  %acc0.14 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.13, float 0.0, 14
  %acc0.15 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.14, float 0.0, 15
  %acc0.16 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.15, float 0.0, 16
  %acc0.17 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.16, float 0.0, 17
  %acc0.18 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.17, float 0.0, 18
  %acc0.19 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.18, float 0.0, 19
  %acc0.20 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.19, float 0.0, 20
  %acc0.21 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.20, float 0.0, 21
  %acc0.22 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.21, float 0.0, 22
  %acc0.23 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.22, float 0.0, 23
  %acc0.24 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.23, float 0.0, 24
  %acc0.25 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.24, float 0.0, 25
  %acc0.26 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.25, float 0.0, 26
  %acc0.27 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.26, float 0.0, 27
  %acc0.28 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.27, float 0.0, 28
  %acc0.29 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.28, float 0.0, 29
  %acc0.30 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.29, float 0.0, 30
  %acc0.31 = insertvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc0.30, float 0.0, 31
  br label %loop
loop:
  %kt = phi i32 [ 0, %init.done ], [ %kt.next, %loop.end ]
  %acc = phi { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } [ %acc0.31, %init.done ], [ %acc.next, %loop.end ]
  %k0 = shl i32 %kt, 6
  br i1 %leader, label %issue, label %wait
issue:
  %tx = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @mbar, i32 16384)
  ; coordinates innermost first: A is (k, m), B is (n, k)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %sa7, ptr addrspace(3) @mbar, ptr %ta, i32 %k0, i32 %m0, i16 0, i64 0, i1 false, i1 false, i32 0)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %sb7, ptr addrspace(3) @mbar, ptr %tb, i32 %n0, i32 %k0, i16 0, i64 0, i1 false, i1 false, i32 0)
  br label %wait
wait:
  %parity = and i32 %kt, 1
  br label %spin
spin:
  %done = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @mbar, i32 %parity)
  br i1 %done, label %compute, label %spin
compute:
  call void @llvm.nvvm.wgmma.fence.sync.aligned()
  %da.0 = add i64 %da, 0
  %db.0 = add i64 %db, 0
  %in0.0 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 0
  %in0.1 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 1
  %in0.2 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 2
  %in0.3 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 3
  %in0.4 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 4
  %in0.5 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 5
  %in0.6 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 6
  %in0.7 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 7
  %in0.8 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 8
  %in0.9 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 9
  %in0.10 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 10
  %in0.11 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 11
  %in0.12 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 12
  %in0.13 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 13
  %in0.14 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 14
  %in0.15 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 15
  %in0.16 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 16
  %in0.17 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 17
  %in0.18 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 18
  %in0.19 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 19
  %in0.20 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 20
  %in0.21 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 21
  %in0.22 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 22
  %in0.23 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 23
  %in0.24 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 24
  %in0.25 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 25
  %in0.26 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 26
  %in0.27 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 27
  %in0.28 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 28
  %in0.29 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 29
  %in0.30 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 30
  %in0.31 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc, 31
  %mma0 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $66, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $64, $65, p, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,r"(float %in0.0, float %in0.1, float %in0.2, float %in0.3, float %in0.4, float %in0.5, float %in0.6, float %in0.7, float %in0.8, float %in0.9, float %in0.10, float %in0.11, float %in0.12, float %in0.13, float %in0.14, float %in0.15, float %in0.16, float %in0.17, float %in0.18, float %in0.19, float %in0.20, float %in0.21, float %in0.22, float %in0.23, float %in0.24, float %in0.25, float %in0.26, float %in0.27, float %in0.28, float %in0.29, float %in0.30, float %in0.31, i64 %da.0, i64 %db.0, i32 1)
  %da.1 = add i64 %da, 2
  %db.1 = add i64 %db, 128
  %in1.0 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 0
  %in1.1 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 1
  %in1.2 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 2
  %in1.3 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 3
  %in1.4 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 4
  %in1.5 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 5
  %in1.6 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 6
  %in1.7 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 7
  %in1.8 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 8
  %in1.9 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 9
  %in1.10 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 10
  %in1.11 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 11
  %in1.12 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 12
  %in1.13 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 13
  %in1.14 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 14
  %in1.15 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 15
  %in1.16 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 16
  %in1.17 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 17
  %in1.18 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 18
  %in1.19 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 19
  %in1.20 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 20
  %in1.21 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 21
  %in1.22 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 22
  %in1.23 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 23
  %in1.24 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 24
  %in1.25 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 25
  %in1.26 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 26
  %in1.27 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 27
  %in1.28 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 28
  %in1.29 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 29
  %in1.30 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 30
  %in1.31 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma0, 31
  %mma1 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $66, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $64, $65, p, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,r"(float %in1.0, float %in1.1, float %in1.2, float %in1.3, float %in1.4, float %in1.5, float %in1.6, float %in1.7, float %in1.8, float %in1.9, float %in1.10, float %in1.11, float %in1.12, float %in1.13, float %in1.14, float %in1.15, float %in1.16, float %in1.17, float %in1.18, float %in1.19, float %in1.20, float %in1.21, float %in1.22, float %in1.23, float %in1.24, float %in1.25, float %in1.26, float %in1.27, float %in1.28, float %in1.29, float %in1.30, float %in1.31, i64 %da.1, i64 %db.1, i32 1)
  %da.2 = add i64 %da, 4
  %db.2 = add i64 %db, 256
  %in2.0 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 0
  %in2.1 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 1
  %in2.2 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 2
  %in2.3 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 3
  %in2.4 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 4
  %in2.5 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 5
  %in2.6 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 6
  %in2.7 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 7
  %in2.8 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 8
  %in2.9 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 9
  %in2.10 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 10
  %in2.11 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 11
  %in2.12 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 12
  %in2.13 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 13
  %in2.14 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 14
  %in2.15 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 15
  %in2.16 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 16
  %in2.17 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 17
  %in2.18 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 18
  %in2.19 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 19
  %in2.20 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 20
  %in2.21 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 21
  %in2.22 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 22
  %in2.23 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 23
  %in2.24 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 24
  %in2.25 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 25
  %in2.26 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 26
  %in2.27 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 27
  %in2.28 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 28
  %in2.29 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 29
  %in2.30 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 30
  %in2.31 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma1, 31
  %mma2 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $66, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $64, $65, p, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,r"(float %in2.0, float %in2.1, float %in2.2, float %in2.3, float %in2.4, float %in2.5, float %in2.6, float %in2.7, float %in2.8, float %in2.9, float %in2.10, float %in2.11, float %in2.12, float %in2.13, float %in2.14, float %in2.15, float %in2.16, float %in2.17, float %in2.18, float %in2.19, float %in2.20, float %in2.21, float %in2.22, float %in2.23, float %in2.24, float %in2.25, float %in2.26, float %in2.27, float %in2.28, float %in2.29, float %in2.30, float %in2.31, i64 %da.2, i64 %db.2, i32 1)
  %da.3 = add i64 %da, 6
  %db.3 = add i64 %db, 384
  %in3.0 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 0
  %in3.1 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 1
  %in3.2 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 2
  %in3.3 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 3
  %in3.4 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 4
  %in3.5 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 5
  %in3.6 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 6
  %in3.7 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 7
  %in3.8 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 8
  %in3.9 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 9
  %in3.10 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 10
  %in3.11 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 11
  %in3.12 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 12
  %in3.13 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 13
  %in3.14 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 14
  %in3.15 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 15
  %in3.16 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 16
  %in3.17 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 17
  %in3.18 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 18
  %in3.19 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 19
  %in3.20 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 20
  %in3.21 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 21
  %in3.22 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 22
  %in3.23 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 23
  %in3.24 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 24
  %in3.25 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 25
  %in3.26 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 26
  %in3.27 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 27
  %in3.28 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 28
  %in3.29 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 29
  %in3.30 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 30
  %in3.31 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma2, 31
  %mma3 = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $66, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $64, $65, p, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l,r"(float %in3.0, float %in3.1, float %in3.2, float %in3.3, float %in3.4, float %in3.5, float %in3.6, float %in3.7, float %in3.8, float %in3.9, float %in3.10, float %in3.11, float %in3.12, float %in3.13, float %in3.14, float %in3.15, float %in3.16, float %in3.17, float %in3.18, float %in3.19, float %in3.20, float %in3.21, float %in3.22, float %in3.23, float %in3.24, float %in3.25, float %in3.26, float %in3.27, float %in3.28, float %in3.29, float %in3.30, float %in3.31, i64 %da.3, i64 %db.3, i32 1)
  call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
  %w.0 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 0
  %w.1 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 1
  %w.2 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 2
  %w.3 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 3
  %w.4 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 4
  %w.5 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 5
  %w.6 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 6
  %w.7 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 7
  %w.8 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 8
  %w.9 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 9
  %w.10 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 10
  %w.11 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 11
  %w.12 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 12
  %w.13 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 13
  %w.14 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 14
  %w.15 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 15
  %w.16 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 16
  %w.17 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 17
  %w.18 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 18
  %w.19 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 19
  %w.20 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 20
  %w.21 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 21
  %w.22 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 22
  %w.23 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 23
  %w.24 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 24
  %w.25 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 25
  %w.26 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 26
  %w.27 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 27
  %w.28 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 28
  %w.29 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 29
  %w.30 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 30
  %w.31 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %mma3, 31
  %acc.next = call { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } asm sideeffect "// wait for $0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31\0Awgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"(float %w.0, float %w.1, float %w.2, float %w.3, float %w.4, float %w.5, float %w.6, float %w.7, float %w.8, float %w.9, float %w.10, float %w.11, float %w.12, float %w.13, float %w.14, float %w.15, float %w.16, float %w.17, float %w.18, float %w.19, float %w.20, float %w.21, float %w.22, float %w.23, float %w.24, float %w.25, float %w.26, float %w.27, float %w.28, float %w.29, float %w.30, float %w.31)
  ; every thread is done reading the tiles before thread 0 overwrites them
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %loop.end
loop.end:
  %kt.next = add i32 %kt, 1
  %more = icmp slt i32 %kt.next, %k_tiles
  br i1 %more, label %loop, label %store
store:
  ; the D fragment of wgmma m64nNk16: warp w owns rows 16w..16w+15; lane l holds, for
  ; each 8-column block j, (row l/4, cols 8j + 2(l%4) + {0,1}) and the same 8 rows lower
  %warp = lshr i32 %tid, 5
  %lane = and i32 %tid, 31
  %lrow = lshr i32 %lane, 2
  %lq = and i32 %lane, 3
  %lcol = shl i32 %lq, 1
  %wrow = shl i32 %warp, 4
  %row.a = add i32 %wrow, %lrow
  %row0 = add i32 %m0, %row.a
  %row8 = add i32 %row0, 8
  %colbase = add i32 %n0, %lcol
  %base0 = mul i32 %row0, %ldc
  %base8 = mul i32 %row8, %ldc
  %v0 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 0
  %col0 = add i32 %colbase, 0
  %idx0 = add i32 %base0, %col0
  %idx0.w = sext i32 %idx0 to i64
  %p0 = getelementptr float, ptr addrspace(1) %c, i64 %idx0.w
  store float %v0, ptr addrspace(1) %p0, align 4
  %v1 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 1
  %col1 = add i32 %colbase, 1
  %idx1 = add i32 %base0, %col1
  %idx1.w = sext i32 %idx1 to i64
  %p1 = getelementptr float, ptr addrspace(1) %c, i64 %idx1.w
  store float %v1, ptr addrspace(1) %p1, align 4
  %v2 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 2
  %col2 = add i32 %colbase, 0
  %idx2 = add i32 %base8, %col2
  %idx2.w = sext i32 %idx2 to i64
  %p2 = getelementptr float, ptr addrspace(1) %c, i64 %idx2.w
  store float %v2, ptr addrspace(1) %p2, align 4
  %v3 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 3
  %col3 = add i32 %colbase, 1
  %idx3 = add i32 %base8, %col3
  %idx3.w = sext i32 %idx3 to i64
  %p3 = getelementptr float, ptr addrspace(1) %c, i64 %idx3.w
  store float %v3, ptr addrspace(1) %p3, align 4
  %v4 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 4
  %col4 = add i32 %colbase, 8
  %idx4 = add i32 %base0, %col4
  %idx4.w = sext i32 %idx4 to i64
  %p4 = getelementptr float, ptr addrspace(1) %c, i64 %idx4.w
  store float %v4, ptr addrspace(1) %p4, align 4
  %v5 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 5
  %col5 = add i32 %colbase, 9
  %idx5 = add i32 %base0, %col5
  %idx5.w = sext i32 %idx5 to i64
  %p5 = getelementptr float, ptr addrspace(1) %c, i64 %idx5.w
  store float %v5, ptr addrspace(1) %p5, align 4
  %v6 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 6
  %col6 = add i32 %colbase, 8
  %idx6 = add i32 %base8, %col6
  %idx6.w = sext i32 %idx6 to i64
  %p6 = getelementptr float, ptr addrspace(1) %c, i64 %idx6.w
  store float %v6, ptr addrspace(1) %p6, align 4
  %v7 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 7
  %col7 = add i32 %colbase, 9
  %idx7 = add i32 %base8, %col7
  %idx7.w = sext i32 %idx7 to i64
  %p7 = getelementptr float, ptr addrspace(1) %c, i64 %idx7.w
  store float %v7, ptr addrspace(1) %p7, align 4
  %v8 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 8
  %col8 = add i32 %colbase, 16
  %idx8 = add i32 %base0, %col8
  %idx8.w = sext i32 %idx8 to i64
  %p8 = getelementptr float, ptr addrspace(1) %c, i64 %idx8.w
  store float %v8, ptr addrspace(1) %p8, align 4
  %v9 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 9
  %col9 = add i32 %colbase, 17
  %idx9 = add i32 %base0, %col9
  %idx9.w = sext i32 %idx9 to i64
  %p9 = getelementptr float, ptr addrspace(1) %c, i64 %idx9.w
  store float %v9, ptr addrspace(1) %p9, align 4
  %v10 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 10
  %col10 = add i32 %colbase, 16
  %idx10 = add i32 %base8, %col10
  %idx10.w = sext i32 %idx10 to i64
  %p10 = getelementptr float, ptr addrspace(1) %c, i64 %idx10.w
  store float %v10, ptr addrspace(1) %p10, align 4
  %v11 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 11
  %col11 = add i32 %colbase, 17
  %idx11 = add i32 %base8, %col11
  %idx11.w = sext i32 %idx11 to i64
  %p11 = getelementptr float, ptr addrspace(1) %c, i64 %idx11.w
  store float %v11, ptr addrspace(1) %p11, align 4
  %v12 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 12
  %col12 = add i32 %colbase, 24
  %idx12 = add i32 %base0, %col12
  %idx12.w = sext i32 %idx12 to i64
  %p12 = getelementptr float, ptr addrspace(1) %c, i64 %idx12.w
  store float %v12, ptr addrspace(1) %p12, align 4
  %v13 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 13
  %col13 = add i32 %colbase, 25
  %idx13 = add i32 %base0, %col13
  %idx13.w = sext i32 %idx13 to i64
  %p13 = getelementptr float, ptr addrspace(1) %c, i64 %idx13.w
  store float %v13, ptr addrspace(1) %p13, align 4
  %v14 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 14
  %col14 = add i32 %colbase, 24
  %idx14 = add i32 %base8, %col14
  %idx14.w = sext i32 %idx14 to i64
  %p14 = getelementptr float, ptr addrspace(1) %c, i64 %idx14.w
  store float %v14, ptr addrspace(1) %p14, align 4
  %v15 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 15
  %col15 = add i32 %colbase, 25
  %idx15 = add i32 %base8, %col15
  %idx15.w = sext i32 %idx15 to i64
  %p15 = getelementptr float, ptr addrspace(1) %c, i64 %idx15.w
  store float %v15, ptr addrspace(1) %p15, align 4
  %v16 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 16
  %col16 = add i32 %colbase, 32
  %idx16 = add i32 %base0, %col16
  %idx16.w = sext i32 %idx16 to i64
  %p16 = getelementptr float, ptr addrspace(1) %c, i64 %idx16.w
  store float %v16, ptr addrspace(1) %p16, align 4
  %v17 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 17
  %col17 = add i32 %colbase, 33
  %idx17 = add i32 %base0, %col17
  %idx17.w = sext i32 %idx17 to i64
  %p17 = getelementptr float, ptr addrspace(1) %c, i64 %idx17.w
  store float %v17, ptr addrspace(1) %p17, align 4
  %v18 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 18
  %col18 = add i32 %colbase, 32
  %idx18 = add i32 %base8, %col18
  %idx18.w = sext i32 %idx18 to i64
  %p18 = getelementptr float, ptr addrspace(1) %c, i64 %idx18.w
  store float %v18, ptr addrspace(1) %p18, align 4
  %v19 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 19
  %col19 = add i32 %colbase, 33
  %idx19 = add i32 %base8, %col19
  %idx19.w = sext i32 %idx19 to i64
  %p19 = getelementptr float, ptr addrspace(1) %c, i64 %idx19.w
  store float %v19, ptr addrspace(1) %p19, align 4
  %v20 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 20
  %col20 = add i32 %colbase, 40
  %idx20 = add i32 %base0, %col20
  %idx20.w = sext i32 %idx20 to i64
  %p20 = getelementptr float, ptr addrspace(1) %c, i64 %idx20.w
  store float %v20, ptr addrspace(1) %p20, align 4
  %v21 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 21
  %col21 = add i32 %colbase, 41
  %idx21 = add i32 %base0, %col21
  %idx21.w = sext i32 %idx21 to i64
  %p21 = getelementptr float, ptr addrspace(1) %c, i64 %idx21.w
  store float %v21, ptr addrspace(1) %p21, align 4
  %v22 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 22
  %col22 = add i32 %colbase, 40
  %idx22 = add i32 %base8, %col22
  %idx22.w = sext i32 %idx22 to i64
  %p22 = getelementptr float, ptr addrspace(1) %c, i64 %idx22.w
  store float %v22, ptr addrspace(1) %p22, align 4
  %v23 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 23
  %col23 = add i32 %colbase, 41
  %idx23 = add i32 %base8, %col23
  %idx23.w = sext i32 %idx23 to i64
  %p23 = getelementptr float, ptr addrspace(1) %c, i64 %idx23.w
  store float %v23, ptr addrspace(1) %p23, align 4
  %v24 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 24
  %col24 = add i32 %colbase, 48
  %idx24 = add i32 %base0, %col24
  %idx24.w = sext i32 %idx24 to i64
  %p24 = getelementptr float, ptr addrspace(1) %c, i64 %idx24.w
  store float %v24, ptr addrspace(1) %p24, align 4
  %v25 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 25
  %col25 = add i32 %colbase, 49
  %idx25 = add i32 %base0, %col25
  %idx25.w = sext i32 %idx25 to i64
  %p25 = getelementptr float, ptr addrspace(1) %c, i64 %idx25.w
  store float %v25, ptr addrspace(1) %p25, align 4
  %v26 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 26
  %col26 = add i32 %colbase, 48
  %idx26 = add i32 %base8, %col26
  %idx26.w = sext i32 %idx26 to i64
  %p26 = getelementptr float, ptr addrspace(1) %c, i64 %idx26.w
  store float %v26, ptr addrspace(1) %p26, align 4
  %v27 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 27
  %col27 = add i32 %colbase, 49
  %idx27 = add i32 %base8, %col27
  %idx27.w = sext i32 %idx27 to i64
  %p27 = getelementptr float, ptr addrspace(1) %c, i64 %idx27.w
  store float %v27, ptr addrspace(1) %p27, align 4
  %v28 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 28
  %col28 = add i32 %colbase, 56
  %idx28 = add i32 %base0, %col28
  %idx28.w = sext i32 %idx28 to i64
  %p28 = getelementptr float, ptr addrspace(1) %c, i64 %idx28.w
  store float %v28, ptr addrspace(1) %p28, align 4
  %v29 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 29
  %col29 = add i32 %colbase, 57
  %idx29 = add i32 %base0, %col29
  %idx29.w = sext i32 %idx29 to i64
  %p29 = getelementptr float, ptr addrspace(1) %c, i64 %idx29.w
  store float %v29, ptr addrspace(1) %p29, align 4
  %v30 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 30
  %col30 = add i32 %colbase, 56
  %idx30 = add i32 %base8, %col30
  %idx30.w = sext i32 %idx30 to i64
  %p30 = getelementptr float, ptr addrspace(1) %c, i64 %idx30.w
  store float %v30, ptr addrspace(1) %p30, align 4
  %v31 = extractvalue { float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float, float } %acc.next, 31
  %col31 = add i32 %colbase, 57
  %idx31 = add i32 %base8, %col31
  %idx31.w = sext i32 %idx31 to i64
  %p31 = getelementptr float, ptr addrspace(1) %c, i64 %idx31.w
  store float %v31, ptr addrspace(1) %p31, align 4
  ret void
}
