// f16 x f16 -> f32 matmul on Hopper's tensor cores (sm_90a), warp-specialized: each block
// computes a block_m x block_n tile of C with 1 + consumers warpgroups. Warpgroup 0 is the
// producer: it gives up registers (setmaxnreg.dec to producer_registers) and its thread 0
// loads the A (block_m x 64) and B (64 x block_n) tiles of every 64-wide k step with TMA
// (128B swizzle) into a ring of `stages` buffers in dynamic shared memory, waiting on each
// stage's `empty` mbarrier before refilling it and arming its `full` one. The consumer
// warpgroups take the registers (setmaxnreg.inc to consumer_registers) and each multiplies
// its block_m / consumers rows of A's stage by B's with wgmma (m64n<block_n>k16) into its
// own f32 accumulators, one wgmma group in flight, releasing each stage once the MMAs that
// read it have retired; after the k loop each stores its rows of C from registers.
// Two consumers make the 128x256 and 256x128 tiles (each a 64x256 or 128x128 half: 128
// accumulator registers per thread) that one warpgroup cannot hold. bf16 payloads
// (examples/matmul_bf16_ring_cuda.mlir) take the same schedule.
// Steps: as schedules/matmul_f16_ring_cuda.mlir up to the TMA loads, then
// transform.schedir.nvgpu.rewrite_matmul_as_wgmma with warpgroups = consumers (the
// accumulator is split among them) and transform.schedir.nvgpu.warp_specialize_tma_ring
// (which grows the launch to 128 x (1 + consumers) threads with nvvm.minctasm = 1: a fixed
// register budget, which setmaxnreg needs).
// The blocks run in groups of raster_group rows of tiles, column by column (the blocks
// resident together share A and B tiles in L2), through
// transform.schedir.nvgpu.persistent_tiles: with persistent = 0 (selected) a block per
// tile (as raster_blocks); with persistent = P a grid of min(tiles, P) blocks, each looping
// over the tiles in that order, the producer running the ring on across tiles (it loads
// the next tile's first stages while the consumers store this one).
// Sizes the tiles do not divide: as matmul_f16_ring_cuda.mlir (TMA zero-fills the edge tiles'
// loads; each consumer's store is bounded to the rows of its part of the edge tile that
// exist); K >= 64, at least 2 stages (K or N no multiple of 8: the host stages A or B
// into rows of a multiple of 16 bytes for TMA).
// Knobs: block_m, block_n, stages, consumers (block_m / consumers a multiple of 64, each
// consumer's block_m / consumers x block_n accumulator at most 128 registers per thread),
// producer_registers and consumer_registers (multiples of 8; the block's registers
// 128 x (producer + consumers x consumer) <= 65536); the ring fits the 227 KiB of shared
// memory; raster_group (rows of tiles per group; 1: the launch's order); persistent (the
// blocks of a persistent grid, 132 = the H200's SMs; 0: a block per tile).
// Measured (H200, 4096^3 f16, the selected knobs: 2 consumers of 64x256, 4 stages, raster
// groups of 16): 0.190 ms = 0.95x cuBLAS, 1.01x Triton's tutorial matmul; 0.261 ms in the
// launch's block order (raster_group = 1).
// Payload: examples/matmul_f16_ws_cuda.mlir (linalg.fill + linalg.matmul).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %bm = transform.tune.knob<"block_m"> = 128 from options = [64, 128, 256] -> !transform.param<i64>
    %bn = transform.tune.knob<"block_n"> = 256 from options = [64, 128, 256] -> !transform.param<i64>
    %stages = transform.tune.knob<"stages"> = 4 from options = [2, 3, 4, 5, 6] -> !transform.param<i64>
    %consumers = transform.tune.knob<"consumers"> = 2 from options = [1, 2] -> !transform.param<i64>
    %producer_regs = transform.tune.knob<"producer_registers"> = 40 from options = [24, 40, 56] -> !transform.param<i64>
    %consumer_regs = transform.tune.knob<"consumer_registers"> = 232 from options = [232, 240] -> !transform.param<i64>
    %raster = transform.tune.knob<"raster_group"> = 16 from options = [1, 2, 3, 4, 6, 8, 16] -> !transform.param<i64>
    %persistent = transform.tune.knob<"persistent"> = 0 from options = [0, 1, 2, 3, 5, 7, 16, 66, 114, 132, 264] -> !transform.param<i64>
    // A persistent grid's producer loops over the tiles: its loop does not fit 24
    // registers (ptxas spills), so persistent > 0 needs producer_registers >= 40.
    transform.smt.constrain_params(%persistent, %producer_regs)
        : (!transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%p: !smt.int, %r: !smt.int):
      %zero = smt.int.constant 0
      %looping = smt.int.cmp gt %p, %zero
      %forty = smt.int.constant 40
      %least = smt.ite %looping, %forty, %zero : !smt.int
      %enough = smt.int.cmp ge %r, %least
      smt.assert %enough
    }
    // Each consumer warpgroup holds its rows' f32 accumulators: block_m * block_n /
    // (128 * consumers) registers per thread, at most 128, on rows that are a multiple of
    // 64 (the wgmma's M). The ring of A (block_m x 64) and B (64 x block_n) f16 tiles fits
    // the 227 KiB of dynamic shared memory a block may have (less 2 KiB for barriers and
    // alignment). The warpgroups' registers fit the SM's 65536.
    transform.smt.constrain_params(%bm, %bn, %stages, %consumers, %producer_regs, %consumer_regs)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%m: !smt.int, %n: !smt.int, %s: !smt.int, %c: !smt.int, %p: !smt.int, %q: !smt.int):
      %threads = smt.int.constant 128
      %max_acc = smt.int.constant 128
      %wgmma_m = smt.int.constant 64
      %zero = smt.int.constant 0
      %tile = smt.int.mul %m, %n
      %consumer_threads = smt.int.mul %threads, %c
      %acc = smt.int.div %tile, %consumer_threads
      %fits = smt.int.cmp le %acc, %max_acc
      smt.assert %fits
      %rows = smt.int.div %m, %c
      %rows_left = smt.int.mod %m, %c
      %even = smt.eq %rows_left, %zero : !smt.int
      smt.assert %even
      %row_blocks = smt.int.mod %rows, %wgmma_m
      %whole = smt.eq %row_blocks, %zero : !smt.int
      smt.assert %whole
      %stage_bytes = smt.int.constant 128
      %max_ring = smt.int.constant 230400
      %ab_rows = smt.int.add %m, %n
      %per_stage = smt.int.mul %ab_rows, %stage_bytes
      %ring = smt.int.mul %per_stage, %s
      %ring_fits = smt.int.cmp le %ring, %max_ring
      smt.assert %ring_fits
      %register_file = smt.int.constant 65536
      %consumer_budget = smt.int.mul %c, %q
      %budget = smt.int.add %p, %consumer_budget
      %registers = smt.int.mul %budget, %threads
      %registers_fit = smt.int.cmp le %registers, %register_file
      smt.assert %registers_fit
    }
    %mm_b, %forall_b = transform.structured.tile_using_forall %mm tile_sizes [%bm, %bn]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b1 = transform.structured.fuse_into_containing_op %fill into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %k_loop = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, 64]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
    %launch = transform.gpu.map_forall_to_blocks %func_p generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [128, 1, 1] : (!transform.any_op) -> !transform.any_op
    %func_m = transform.get_parent_op %mapped <{op_name = "func.func"}> : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_m {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %copies = transform.structured.match ops{["linalg.copy"]} in %func_m : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm_s = transform.structured.match ops{["linalg.matmul"]} in %func_m : (!transform.any_op) -> !transform.any_op
    %wgmma = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm_s warpgroups = %consumers
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %ws = transform.schedir.nvgpu.warp_specialize_tma_ring %wgmma stages = %stages
        consumers = %consumers producer_registers = %producer_regs
        consumer_registers = %consumer_regs
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %launch_ws = transform.get_parent_op %ws <{op_name = "gpu.launch"}> : (!transform.any_op) -> !transform.any_op
    // persistent = the blocks of a persistent grid (132: one per SM of an H100 SXM or
    // H200, 114 of an H100 PCIe; the small grids test many tiles per block), each looping
    // over the tiles in raster groups (each consumer warpgroup on its rows of them); 0: a
    // block per tile, in raster groups.
    transform.schedir.nvgpu.persistent_tiles %launch_ws ctas = %persistent group = %raster
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
