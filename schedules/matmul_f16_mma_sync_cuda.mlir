// f16 (or bf16) matmul with f32 accumulation on the tensor cores through warp-level
// mma.sync (sm_80+), upstream's route: 128x256 output tiles per block (#gpu.block<y>,
// #gpu.block<x>), the fill fused and split over the warps as the matmul is (the rewrite
// below then starts the accumulators at the fill's value instead), the reduction in
// 64-wide k steps whose A (128x64) and B (64x256) tiles are promoted into
// #gpu.address_space<workgroup> buffers (structured.promote; the copies tiled over the 256
// threads, 16-byte rows each). The block's matmul on the shared tiles is split over its 8
// warps (2 x 4, #gpu.warp<linear_dim_*>: a 64x64 warp tile each); once the foralls are
// mapped (map_nested_forall_to_threads) each warp's matmul sits directly in the k loop and
// transform.nvgpu.rewrite_matmul_as_mma_sync turns it into 4 x 8 x 4 m16n8k16 mma.sync per
// k step on fragments loaded with ldmatrix (A x4, B x4 .trans; a warp-uniform check that
// LLVM folds where the tiles are whole and aligned, element loads otherwise), with the 128
// f32 accumulators of a lane starting at the fill's 0 before the k loop, carried through
// it in registers and stored after it. The copies then become 16-byte cp.async (1-D
// transfers first, transform.nvgpu.create_async_groups), the shared tiles' rows are padded
// by `pad` f16 (transform.schedir.pad_shared_rows: an ldmatrix tile's 8 rows in distinct
// banks; unpadded rows conflict, 2.6x slower at 4096^3), the tiles are multi-buffered
// `stages` deep (transform.memref.multibuffer; 3 stages take 153 KiB: dynamic shared
// memory) and the k loop is pipelined (transform.nvgpu.pipeline_shared_memory_copies: one
// barrier per k step, the copies of k step i + stages - 1 in flight while step i
// computes).
// H200, 4096^3 (benchmarks/gpu.py, one run): 128x128 blocks, 2 stages of 32-wide k steps
// 0.488 ms, 4 stages 0.471, 64-wide k steps (3 stages) 0.425; 128x256 blocks (64x64 warp
// tiles), 32-wide k steps (3 stages) 0.420; 256x128 (4 stages) 0.465; cuBLAS 0.179.
// Why 64x64 warp tiles (ncu, 128x128 blocks of 64-wide k steps): with 8 warps of 64x32
// (2 blocks an SM) the tensor pipe is active 52% of the cycles, shared memory (ldmatrix +
// cp.async) busy 52% and the top stall is mio_throttle (4.3 cycles per issued instruction:
// 6 ldmatrix.x4 feed 16 mma.sync); with 4 warps of 64x64 (8 ldmatrix.x4 per 32 mma.sync)
// shared memory is 37% busy, mio_throttle 1.2 and the tensor pipe 55% active. One run
// (4096^3, 3 stages of 64-wide k steps unless said): 128x128 blocks of 8 warps 0.434 ms,
// of 4 warps (64x64) 0.409, 4 warps with 32-wide k steps in 4 stages 0.420 and in 6
// (111 KiB: still two blocks an SM) 0.420, 4 warps in raster groups of 8 rows 0.397,
// 128x256 blocks of 8 warps (64x64, one block an SM) 0.387 (selected); cuBLAS 0.180:
// 0.465x. Raster groups do not help the 128x256 blocks (another run: 4, 8 or 16 rows
// 0.401-0.402 against 0.386 in the launch's order). The warps then wait on fixed
// latencies and on the k step's barrier with 2 warps a scheduler (ncu: stall "wait" 2.75,
// long_scoreboard 1.46 cycles an instruction, tensor pipe 55% active): ptxas interleaves
// a k step's ldmatrix with the mma.sync ops of the sub-step before, but cannot move the
// first sub-step's ldmatrix above the barrier that opens each step, so every step
// started with their latency exposed. transform.schedir.nvgpu.pipeline_fragments moves
// the wait, the barrier and the next step's first ldmatrix before each step's last 32
// mma.sync (the fragments carried by the loop; fragments 1), and with double_buffer each
// later sub-step's ldmatrix before the sub-step before's mma.sync too, two sub-steps'
// fragments live (fragments 2, selected; 246 registers, no spills). One run (4096^3):
// fragments 0 0.386 ms, 1 0.319, 2 0.316: 0.567x cuBLAS (0.179); another run 0.390,
// 0.321, 0.317: 0.566x (cuBLAS 0.179; racecheck and memcheck clean). The ring slots' offsets
// carried by the loop (no 64-bit division by the stage count per step; ring_offsets 1)
// did not help: 0.316 with fragments 2, 0.323 against 0.319 with fragments 1.
// At sizes the tiles do not divide, the partial tiles are copied into the same
// buffers; the warp tiles are dynamic with constant bounds, and the rewrite loads the
// elements outside the operands' sizes as 0 and skips their stores. There the copies stay
// synchronous (dynamic sizes are not vectorized), so the loop is multi-buffered but not
// pipelined (the pipelining fails silenceably and is suppressed).
// Rings beyond the 48 KiB of static shared memory become views of the launch's dynamic
// shared memory when lowered (gpu-workgroup-to-dynamic-shared-memory).
// Knobs: the block tile (block_m x block_n), the warps of a block (warps: 8 or 4, a
// region of "block" each, since map_nested_forall_to_threads' block_dims is an
// attribute; the copies are split over all the block's threads), the k step (block_k),
// the warp split (warps_n warps along N, warps / warps_n along M), the ring depth
// (stages, 2 to 6, a region of "ring" each, since multibuffer's factor and the
// pipeline's depth are attributes), the row padding (pad), the raster order of the blocks
// (raster_group rows of tiles walked column by column, transform.schedir.nvgpu.
// raster_blocks; 1: the launch's order), the fragments' pipelining (fragments 1:
// transform.schedir.nvgpu.pipeline_fragments moves each k step's wait, barrier and first
// k sub-step's ldmatrix into the step before, under its last mma.sync ops; 2: also each
// later sub-step's ldmatrix before the sub-step before's mma.sync ops, double-buffered
// registers; 0: neither) and the ring slots' offsets (ring_offsets 1:
// transform.schedir.nvgpu.carry_ring_offsets carries them in the k loop, advanced by
// compare-selects; 0: recomputed each step); the constraint keeps warp tiles of whole m16n8
// tiles with at most 128 f32 accumulators per lane, copies of whole 16-byte rows, and the
// stages' padded tiles within the 227 KiB of shared memory a block may opt in to (sm_90).
// Payload: examples/matmul_f16_mma_sync_cuda.mlir (linalg.fill + linalg.matmul).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %bm = transform.tune.knob<"block_m"> = 128 from options = [64, 128, 256] -> !transform.param<i64>
    %bn = transform.tune.knob<"block_n"> = 256 from options = [64, 128, 256] -> !transform.param<i64>
    %bk = transform.tune.knob<"block_k"> = 64 from options = [16, 32, 64] -> !transform.param<i64>
    %wn = transform.tune.knob<"warps_n"> = 4 from options = [1, 2, 4, 8] -> !transform.param<i64>
    %st = transform.tune.knob<"stages"> = 3 from options = [2, 3, 4, 5, 6] -> !transform.param<i64>
    %pad = transform.tune.knob<"pad"> = 8 from options = [0, 8] -> !transform.param<i64>
    %nw = transform.tune.knob<"warps"> = 8 from options = [4, 8] -> !transform.param<i64>
    %raster = transform.tune.knob<"raster_group"> = 1 from options = [1, 2, 4, 8, 16] -> !transform.param<i64>
    %frag = transform.tune.knob<"fragments"> = 2 from options = [0, 1, 2] -> !transform.param<i64>
    %carry = transform.tune.knob<"ring_offsets"> = 0 from options = [0, 1] -> !transform.param<i64>
    %wm, %am, %ak, %bck, %bcn, %ring, %block = transform.smt.constrain_params(%bm, %bn, %bk, %wn, %st, %pad, %nw)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>)
        -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
            !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
            !transform.param<i64>) {
    ^bb0(%m: !smt.int, %n: !smt.int, %k: !smt.int, %w_n: !smt.int, %stages: !smt.int,
         %p: !smt.int, %warps: !smt.int):
      %c0 = smt.int.constant 0
      %c1 = smt.int.constant 1
      %c4 = smt.int.constant 4
      %c16 = smt.int.constant 16
      %c8 = smt.int.constant 8
      %c32 = smt.int.constant 32
      %max_acc = smt.int.constant 128
      %w_m = smt.int.div %warps, %w_n
      %tile_m = smt.int.div %m, %w_m
      %tile_n = smt.int.div %n, %w_n
      // Whole warp tiles of whole m16n8 tiles.
      %r0 = smt.int.mod %m, %w_m
      %r1 = smt.int.mod %n, %w_n
      %r2 = smt.int.mod %tile_m, %c16
      %r3 = smt.int.mod %tile_n, %c8
      %even = smt.eq %c0, %r0, %r1, %r2, %r3 : !smt.int
      smt.assert %even
      // f32 accumulators per lane: tile_m x tile_n / 32.
      %tile = smt.int.mul %tile_m, %tile_n
      %acc = smt.int.div %tile, %c32
      %acc_ok = smt.int.cmp le %acc, %max_acc
      smt.assert %acc_ok
      // The copies: all the block's threads (32 a warp), each a 16-byte row piece (8 f16)
      // of whole rows.
      %threads = smt.int.mul %warps, %c32
      %a_k = smt.int.div %k, %c8
      %a_m = smt.int.div %threads, %a_k
      %b_n = smt.int.div %n, %c8
      %b_k = smt.int.div %threads, %b_n
      %r4 = smt.int.mod %threads, %a_k
      %r5 = smt.int.mod %threads, %b_n
      %r6 = smt.int.mod %m, %a_m
      %r7 = smt.int.mod %k, %b_k
      %copies = smt.eq %c0, %r4, %r5, %r6, %r7 : !smt.int
      smt.assert %copies
      // The stages' A and B tiles (f16, rows padded by p) fit the 227 KiB of shared
      // memory a block may opt in to.
      %c2 = smt.int.constant 2
      %kp = smt.int.add %k, %p
      %np = smt.int.add %n, %p
      %mk = smt.int.mul %m, %kp
      %kn = smt.int.mul %k, %np
      %tiles = smt.int.add %mk, %kn
      %stage = smt.int.mul %tiles, %c2
      %smem = smt.int.mul %stage, %stages
      %smem_max = smt.int.constant 232448
      %smem_ok = smt.int.cmp le %smem, %smem_max
      smt.assert %smem_ok
      %ring_region = smt.int.sub %stages, %c2
      // The "block" region: 0 for 4 warps (128 threads), 1 for 8 (256).
      %quads = smt.int.div %warps, %c4
      %block_region = smt.int.sub %quads, %c1
      smt.yield %w_m, %a_m, %a_k, %b_k, %b_n, %ring_region, %block_region
        : !smt.int, !smt.int, !smt.int, !smt.int, !smt.int, !smt.int, !smt.int
    }
    %mm_b, %forall_b = transform.structured.tile_using_forall %mm tile_sizes [%bm, %bn]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b1 = transform.structured.fuse_into_containing_op %fill into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_w, %forall_f = transform.structured.tile_using_forall %fill_b num_threads [%wm, %wn]
        (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>])
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_k, %k_loop = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, %bk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    %root_b = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root
        <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    %mm_kb = transform.structured.match ops{["linalg.matmul"]} in %root_b : (!transform.any_op) -> !transform.any_op
    %mm_p = transform.structured.promote %mm_kb <{operands_to_promote = [0, 1],
        memory_space = #gpu.address_space<workgroup>}> : (!transform.any_op) -> !transform.any_op
    %func_p = transform.structured.match ops{["func.func"]} in %root_b : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_p {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_p : !transform.any_op
    %mm_s = transform.structured.match ops{["linalg.matmul"]} in %root_b : (!transform.any_op) -> !transform.any_op
    %copies = transform.structured.match ops{["linalg.copy"]} in %root_b : (!transform.any_op) -> !transform.any_op
    %copy_a, %copy_b = transform.split_handle %copies : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // 16-byte rows: 8 f16 of A's k step per thread, 8 of B's columns.
    %ca, %fa = transform.structured.tile_using_forall %copy_a num_threads [%am, %ak]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %cb, %fb = transform.structured.tile_using_forall %copy_b num_threads [%bck, %bcn]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_w, %forall_w = transform.structured.tile_using_forall %mm_s num_threads [%wm, %wn]
        (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>])
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %func_b = transform.structured.match ops{["func.func"]} in %root_b : (!transform.any_op) -> !transform.any_op
    %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    // The warps' and the copies' foralls over the block's threads (block_dims is an
    // attribute: a region per thread count).
    %mapped = transform.tune.alternatives<"block"> selected_region = %block : !transform.param<i64> -> !transform.any_op {
      %m4 = transform.gpu.map_nested_forall_to_threads %launch block_dims = [128, 1, 1] : (!transform.any_op) -> !transform.any_op
      transform.yield %m4 : !transform.any_op
    }, {
      %m8 = transform.gpu.map_nested_forall_to_threads %launch block_dims = [256, 1, 1] : (!transform.any_op) -> !transform.any_op
      transform.yield %m8 : !transform.any_op
    }
    transform.schedir.nvgpu.raster_blocks %mapped group = %raster : (!transform.any_op, !transform.param<i64>) -> ()
    %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}> : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_g {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_g : !transform.any_op
    %mm_warp = transform.structured.match ops{["linalg.matmul"]} in %func_g : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm_warp : (!transform.any_op) -> ()
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func_g : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.gpu.eliminate_barriers
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // The copies as cp.async (16-byte rows: 1-D transfers first), the shared tiles
    // multi-buffered by the stage count and the k loop pipelined: the copies of k step
    // i + stages - 1 in flight while step i computes.
    transform.apply_patterns to %func_v {
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true
    } : !transform.any_op
    %func_a = transform.nvgpu.create_async_groups %func_v bypass_l1 : (!transform.any_op) -> (!transform.any_op)
    %allocs = transform.structured.match ops{["memref.alloc"]} in %func_a : (!transform.any_op) -> !transform.op<"memref.alloc">
    %tiles = transform.schedir.pad_shared_rows %allocs by %pad
      : (!transform.op<"memref.alloc">, !transform.param<i64>) -> !transform.op<"memref.alloc">
    %loop = transform.structured.match ops{["scf.for"]} in %func_a : (!transform.any_op) -> !transform.any_op
    %piped = transform.tune.alternatives<"ring"> selected_region = %ring : !transform.param<i64> -> !transform.any_op {
      %mb = transform.memref.multibuffer %tiles <{factor = 2}> : (!transform.op<"memref.alloc">) -> !transform.any_op
      %p2 = transform.nvgpu.pipeline_shared_memory_copies failures(suppress) %loop <{depth = 2}> : (!transform.any_op) -> !transform.any_op
      transform.yield %p2 : !transform.any_op
    }, {
      %mb = transform.memref.multibuffer %tiles <{factor = 3}> : (!transform.op<"memref.alloc">) -> !transform.any_op
      %p3 = transform.nvgpu.pipeline_shared_memory_copies failures(suppress) %loop <{depth = 3}> : (!transform.any_op) -> !transform.any_op
      transform.yield %p3 : !transform.any_op
    }, {
      %mb = transform.memref.multibuffer %tiles <{factor = 4}> : (!transform.op<"memref.alloc">) -> !transform.any_op
      %p4 = transform.nvgpu.pipeline_shared_memory_copies failures(suppress) %loop <{depth = 4}> : (!transform.any_op) -> !transform.any_op
      transform.yield %p4 : !transform.any_op
    }, {
      %mb = transform.memref.multibuffer %tiles <{factor = 5}> : (!transform.op<"memref.alloc">) -> !transform.any_op
      %p5 = transform.nvgpu.pipeline_shared_memory_copies failures(suppress) %loop <{depth = 5}> : (!transform.any_op) -> !transform.any_op
      transform.yield %p5 : !transform.any_op
    }, {
      %mb = transform.memref.multibuffer %tiles <{factor = 6}> : (!transform.op<"memref.alloc">) -> !transform.any_op
      %p6 = transform.nvgpu.pipeline_shared_memory_copies failures(suppress) %loop <{depth = 6}> : (!transform.any_op) -> !transform.any_op
      transform.yield %p6 : !transform.any_op
    }
    // The first k sub-step's fragments of each k step loaded after the step before's
    // barrier, under its last mma.sync ops (fragments 1), and each later sub-step's
    // before the sub-step before's mma.sync ops (2, double-buffered; 0: at the top
    // of each step, after its barrier).
    transform.tune.alternatives<"fragments"> selected_region = %frag : !transform.param<i64> {
      transform.yield
    }, {
      %rotated = transform.schedir.nvgpu.pipeline_fragments failures(suppress) %piped : (!transform.any_op) -> !transform.any_op
      transform.yield
    }, {
      %doubled = transform.schedir.nvgpu.pipeline_fragments failures(suppress) %piped <{double_buffer}> : (!transform.any_op) -> !transform.any_op
      transform.yield
    }
    transform.apply_patterns to %func_a {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_a : !transform.any_op
    // The ring slots' byte offsets (one per buffer and per iteration addressed: the
    // step's, its copies', its next fragments') carried by the k loop (ring_offsets 1), not
    // recomputed with a division by the stage count in each step (ring 0).
    transform.tune.alternatives<"ring_offsets"> selected_region = %carry : !transform.param<i64> {
      transform.yield
    }, {
      %loops = transform.structured.match ops{["scf.for"]} in %func_a : (!transform.any_op) -> !transform.any_op
      %carried = transform.schedir.nvgpu.carry_ring_offsets failures(suppress) %loops : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_a {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      transform.apply_cse to %func_a : !transform.any_op
      transform.yield
    }
    transform.yield
  }
}
