// relu(A * B + bias), f16 in and out with f32 accumulation, on Hopper's tensor cores
// (sm_90a), warp-specialized: the schedule of matmul_f16_ws_cuda.mlir (a producer
// warpgroup issues the TMA ring's loads, `consumers` warpgroups run wgmma on their rows of
// the block, blocks in raster groups) for the payload of matmul_bias_relu_f16_cuda.mlir (an
// f32 matmul followed by one elementwise linalg.generic: bias add, relu, arith.truncf).
// The generic is tiled to the blocks with the matmul and its fill fused in; the wgmma
// rewrite makes its body the accumulator store's epilogue: each consumer adds the bias
// (loaded by column), takes the relu and rounds to f16 in registers, then stores
// into its rows of the output, bounded at the edge tiles. One kernel, no f32 temporary.
// Limits: K >= 64, at least 2 stages; K or N no multiple of 8 (rows of no multiple of 16
// bytes, which TMA cannot describe) runs with the host staging A or B into padded rows.
// Knobs: as matmul_f16_cuda.mlir (persistent = 132 and store_columns = 64 selected: a
// persistent grid, the epilogue's values staged through shared memory in chunks of 64
// columns; H200 4096^3: store 64 0.188 ms, persistent 132 0.203, neither 0.205; torch.compile
// 0.200). The lowering issues the tile's bias loads ahead of its stores (H200 4096^3, one
// run: 0.176 ms, 0.179 with them by their chunks; store 128 / 256 on 3 stages 0.183 /
// 0.184, persistent 264 0.176, raster 16 0.175; torch.compile 0.194, Triton 0.184) and
// rounds each pair to f16 with the relu fused (cvt.rn.relu.f16x2.f32). Raster groups of
// 16 rows of tiles selected (that run: 0.175 ms, 8 rows 0.176).
// tma_buffers (0 selected; 1-4: the chunks of 64 columns stored out by TMA,
// cp.async.bulk.tensor from that many 128B-swizzled buffers per consumer in turn, while
// the consumer goes on to its next tile; where C's rows are no multiple of 16 bytes the
// 16-byte stores stay) and tma_box_rows (0: each chunk one TMA box of the consumer's rows
// after its named barrier; 16: each warp's own rows after a warp barrier only). H200
// 4096^3, one run: mm_f16 store 64 0.185 ms, tma 2 0.208, tma 2 warp 0.214, tma 1 warp
// 0.208; mbr_f16 0.181, 0.186, 0.185, 0.186 (probably the waits for a buffer's store: it
// queues behind the producer's TMA loads of the next tile). stmatrix (0 selected; 1: the
// staging buffers written by stmatrix.x4, four 8x8 matrices per instruction, instead of a
// 4-byte store per pair; one run: mm_f16 0.191 ms vs 0.185, mbr_f16 0.187 vs 0.189, within
// the rounds' spread; tma 4 on 3 stages with stmatrix 0.210 / 0.194).
// pingpong (0 selected: ping-pong consumers, each on a whole 128x128 or 64x256 tile in
// turn) and stagger (0 selected: consumer 1 starting 1-3 k steps behind consumer 0): as
// matmul_f16_cuda.mlir (slower there, a tie).
// Payload: examples/matmul_bias_relu_f16_cuda.mlir (fill + matmul into f32 + epilogue generic).
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
    %persistent = transform.tune.knob<"persistent"> = 132 from options = [0, 1, 2, 3, 5, 7, 16, 66, 114, 132, 264] -> !transform.param<i64>
    %store_columns = transform.tune.knob<"store_columns"> = 64 from options = [0, 64, 128, 256] -> !transform.param<i64>
    %tma_buffers = transform.tune.knob<"tma_buffers"> = 0 from options = [0, 1, 2, 3, 4] -> !transform.param<i64>
    %tma_box_rows = transform.tune.knob<"tma_box_rows"> = 0 from options = [0, 16] -> !transform.param<i64>
    %stmatrix = transform.tune.knob<"stmatrix"> = 0 from options = [0, 1] -> !transform.param<i64>
    %pingpong = transform.tune.knob<"pingpong"> = 0 from options = [0, 1] -> !transform.param<i64>
    %stagger = transform.tune.knob<"stagger"> = 0 from options = [0, 1, 2, 3] -> !transform.param<i64>
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
    // Staggered consumers (stagger > 0: the others start that many k steps behind
    // consumer 0) cooperate (no ping-pong), two of them at least, less than a ring apart.
    transform.smt.constrain_params(%stagger, %stages, %consumers, %pingpong)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%d: !smt.int, %s: !smt.int, %c: !smt.int, %t: !smt.int):
      %zero = smt.int.constant 0
      %one = smt.int.constant 1
      %two = smt.int.constant 2
      %within = smt.int.cmp lt %d, %s
      smt.assert %within
      %staggered = smt.int.cmp gt %d, %zero
      %least_consumers = smt.ite %staggered, %two, %one : !smt.int
      %enough = smt.int.cmp ge %c, %least_consumers
      smt.assert %enough
      %both = smt.int.mul %d, %t
      %either = smt.eq %both, %zero : !smt.int
      smt.assert %either
    }
    // Ping-pong consumers take turns over the tiles of a persistent block: two of them
    // at least, and a persistent grid (with a block per tile only consumer 0 works).
    transform.smt.constrain_params(%pingpong, %persistent, %consumers)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%t: !smt.int, %p: !smt.int, %c: !smt.int):
      %zero = smt.int.constant 0
      %one = smt.int.constant 1
      %two = smt.int.constant 2
      %turns = smt.int.cmp gt %t, %zero
      %least_ctas = smt.ite %turns, %one, %zero : !smt.int
      %persists = smt.int.cmp ge %p, %least_ctas
      smt.assert %persists
      %least_consumers = smt.ite %turns, %two, %one : !smt.int
      %enough = smt.int.cmp ge %c, %least_consumers
      smt.assert %enough
    }
    // Each consumer warpgroup holds its rows' f32 accumulators: block_m * block_n /
    // (128 * consumers) registers per thread (ping-pong: the whole block's, block_m *
    // block_n / 128), at most 128, on rows (ping-pong: block_m) that are a multiple of 64
    // (the wgmma's M). The
    // ring of A (block_m x 64) and B (64 x block_n) f16 tiles fits the 227 KiB of dynamic
    // shared memory a block may have (less 2 KiB for barriers and alignment). The
    // warpgroups' registers fit the SM's 65536.
    transform.smt.constrain_params(%bm, %bn, %stages, %consumers, %producer_regs, %consumer_regs, %pingpong)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%m: !smt.int, %n: !smt.int, %s: !smt.int, %c: !smt.int, %p: !smt.int, %q: !smt.int, %t: !smt.int):
      %threads = smt.int.constant 128
      %max_acc = smt.int.constant 128
      %wgmma_m = smt.int.constant 64
      %zero = smt.int.constant 0
      %one = smt.int.constant 1
      %tile = smt.int.mul %m, %n
      %turns = smt.int.cmp gt %t, %zero
      %sharing = smt.ite %turns, %one, %c : !smt.int
      %consumer_threads = smt.int.mul %threads, %sharing
      %acc = smt.int.div %tile, %consumer_threads
      %fits = smt.int.cmp le %acc, %max_acc
      smt.assert %fits
      %rows = smt.int.div %m, %sharing
      %rows_left = smt.int.mod %m, %sharing
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
    // store_columns > 0 stores the accumulators through shared memory in chunks of that
    // many columns (dividing block_n): each consumer's rows of a chunk, rows padded by 16
    // bytes, after the ring in the dynamic shared memory, which must still fit.
    // tma_buffers > 0 stores the chunks out by TMA: chunks of 64 columns (one 128-byte
    // swizzle span), tma_buffers of them dividing block_n, each consumer's tma_buffers
    // unpadded buffers after the ring (the padded one where C's rows are no multiple of 16
    // bytes: room for the larger). Ping-pong consumers each stage a whole block's rows.
    transform.smt.constrain_params(%bm, %bn, %stages, %store_columns, %tma_buffers, %consumers, %pingpong)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%m: !smt.int, %n: !smt.int, %s: !smt.int, %w: !smt.int, %b: !smt.int, %c: !smt.int, %t: !smt.int):
      %zero = smt.int.constant 0
      %one = smt.int.constant 1
      %turns = smt.int.cmp gt %t, %zero
      %tile_sets = smt.ite %turns, %c, %one : !smt.int
      %staged_rows = smt.int.mul %m, %tile_sets
      %direct = smt.eq %w, %zero : !smt.int
      %divisor = smt.ite %direct, %n, %w : !smt.int
      %columns_left = smt.int.mod %n, %divisor
      %divides = smt.eq %columns_left, %zero : !smt.int
      smt.assert %divides
      %span = smt.int.constant 64
      %by_tma = smt.int.cmp gt %b, %zero
      %chunk = smt.ite %by_tma, %w, %span : !smt.int
      %one_span = smt.eq %chunk, %span : !smt.int
      smt.assert %one_span
      %span_turn = smt.int.mul %span, %b
      %turn = smt.ite %by_tma, %span_turn, %n : !smt.int
      %turns_left = smt.int.mod %n, %turn
      %turns_divide = smt.eq %turns_left, %zero : !smt.int
      smt.assert %turns_divide
      %stage_bytes = smt.int.constant 128
      %max_shared = smt.int.constant 230400
      %ab_rows = smt.int.add %m, %n
      %per_stage = smt.int.mul %ab_rows, %stage_bytes
      %ring = smt.int.mul %per_stage, %s
      %padding = smt.int.constant 8
      %padded = smt.int.add %w, %padding
      %element_bytes = smt.int.constant 2
      %row_bytes = smt.int.mul %padded, %element_bytes
      %buffers = smt.int.mul %staged_rows, %row_bytes
      %tma_rows = smt.int.mul %staged_rows, %stage_bytes
      %tma_bytes = smt.int.mul %tma_rows, %b
      %padded_larger = smt.int.cmp ge %buffers, %tma_bytes
      %larger = smt.ite %padded_larger, %buffers, %tma_bytes : !smt.int
      %staging = smt.ite %direct, %zero, %larger : !smt.int
      %shared = smt.int.add %ring, %staging
      %shared_fits = smt.int.cmp le %shared, %max_shared
      smt.assert %shared_fits
    }
    // The epilogue is tiled to the blocks, the matmul and its fill fused in: the block's
    // f32 accumulator tile becomes a temporary the wgmma rewrite stores through the
    // epilogue's body into the f16 output instead.
    %cvt = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %cvt_b, %forall_b = transform.structured.tile_using_forall %cvt tile_sizes [%bm, %bn]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_b, %forall_b0 = transform.structured.fuse_into_containing_op %mm into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b1 = transform.structured.fuse_into_containing_op %fill into %forall_b0
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
        pingpong = %pingpong
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %ws = transform.schedir.nvgpu.warp_specialize_tma_ring %wgmma stages = %stages
        consumers = %consumers producer_registers = %producer_regs
        consumer_registers = %consumer_regs pingpong = %pingpong stagger = %stagger
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %launch_ws = transform.get_parent_op %ws <{op_name = "gpu.launch"}> : (!transform.any_op) -> !transform.any_op
    // persistent = the blocks of a persistent grid (132: one per SM of an H100 SXM or
    // H200, 114 of an H100 PCIe; the small grids test many tiles per block), each looping
    // over the tiles in raster groups (each consumer warpgroup on its rows of them); 0: a
    // block per tile, in raster groups.
    transform.schedir.nvgpu.persistent_tiles %launch_ws ctas = %persistent group = %raster
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    // store_columns = 0: each thread stores its epilogue's values (bias, relu, f16)
    // straight from its registers; > 0: through shared memory, chunk by chunk, in
    // 16-byte pieces.
    %stores = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %func_m : (!transform.any_op) -> !transform.any_op
    transform.schedir.nvgpu.stage_accumulator_store %stores columns = %store_columns
        tma_buffers = %tma_buffers tma_box_rows = %tma_box_rows stmatrix = %stmatrix
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
