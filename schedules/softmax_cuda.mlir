// Row softmax on the GPU, one row per block: linalg.softmax is decomposed into max-reduce /
// exp / sum-reduce / div, and all four are fused into the row's block (#gpu.block<x>).
// Rows in registers (regions 0-2 of the knob "threads", T = 256, 512, 1024
// threads per block, #gpu.thread<x>): thread t owns the contiguous piece t of the row
// (N/T elements: tile_using_forall / tile_reduction_using_forall num_threads, exp fused
// into the sum's and the div's pieces) in each of the three passes. Static pieces (N a
// multiple of T) are vectorized: with the 16-byte aligned arguments a piece of 16 floats
// is four ld.global.v4, all in flight at once, and its result four st.global.v4. The
// max's and the sum's partials (one per thread, in shared memory) are reduced across the
// block by transform.schedir.gpu.reduce_to_all_reduce: one gpu.all_reduce per thread,
// shfl.sync butterflies within each warp and one exchange of the warp results through
// shared memory; each thread combines the result with the row's init (merge_in_threads:
// every thread holds the row's max and sum, no thread merges alone). Once the passes are
// mapped onto the same threads their reads of x are equal and x is never written:
// transform.schedir.gpu.forward_reads replaces the sum's and the div's reads by the
// max's, so the row is read once and stays in registers (x - max and exp are computed
// again from them). A row too long for registers makes pieces of many floats (N/T
// registers each); a dynamic piece (N not a multiple of T, e.g. 1000) stays a scalar
// loop, correct but read three times, its exp kept in a per-thread local buffer (32
// bytes of stack at 8191x1000): for such rows region 3 (chunks) has no local memory.
// Contiguous pieces are not coalesced (a warp's ld.global.v4 spans 2 KB, 16 bytes in 64):
// on the H200 at 8192^2 (benchmarks/gpu.py, one run) softmax took 0.196 ms with 512
// threads in registers, 0.187 with 1024, 0.155 with chunks; torch.compile 0.151, Triton 0.133.
// Chunks in registers (regions 5-8, T = 512, 256, 1024, 128 threads): the chunks
// of region 3 (thread t owns float t of each chunk of T: a warp's load is 128 contiguous
// bytes) with each thread's static tiles vectorized and, once mapped, the chunk loops
// unrolled by 8192 / T (transform.loop.unroll): at 8192 columns each thread issues its
// 8192 / T loads of x back to back (all in flight), forward_reads makes the sum's and the
// div's reads of x the max's (the row read once, kept in registers; exp of it computed
// again per pass) and LLVM keeps the partials in registers across the unrolled chunks. A
// longer row runs groups of 8192 / T chunks (a remainder loop, x re-read per pass); a row
// that is no multiple of T ends in a partial (scalar) chunk. 2 barriers per row (the
// all-reduces' exchanges): each thread combines the reduced value with the init and
// forward_reads makes the readers' loads of the published value the value each thread
// holds (the publication's barrier then goes; was 6: thread 0's merge and its publication).
// Measured on the H200 at 8192^2 (benchmarks/gpu.py, one run, 6 barriers): 0.138 ms with
// 512 threads, 0.139 with 256, 0.150 with 1024 (with 11 barriers: 0.174, 0.138, 0.153);
// chunks 0.158, torch.compile 0.153, Triton 0.135. 256 selected (the same time with fewer
// threads per barrier).
// Chunks of four (region 9, 256 threads): region 6 with chunks of 1024, thread t owning
// floats 4t..4t+3 of each (one 16-byte load and store per chunk: 8 ld.global.v4 and 8
// st.global.v4 per thread at 8192 columns, 6 barriers, 48 registers); the 4-wide partials
// are combined per thread before the block's all-reduce, and their per-chunk barriers go
// (barrier_slots' slots of width 4). In every region, forward_reads also forwards the
// reads of the published max (now the value each thread holds: the same forwarding): the
// div's exp(x - max) is the sum's (32 ex2 per thread at 8192 columns instead of 64).
// Measured on the H200 (benchmarks/gpu.py, one run, 22:06, copy 4.09 TB/s): 8192^2 region
// 6 (selected) 0.135 ms (was 0.137 before exp was computed once), region 9 0.136, Triton
// 0.134, torch.compile 0.154; 8191x1000: region 6 0.026 ms (was 0.031), region 9 0.053,
// torch eager 0.025, Triton 0.035. Region 9 is not selected.
// Chunks of four with 512 threads (region 10): region 9 with chunks of 2048 (4
// ld.global.v4 and 4 st.global.v4 per thread at 8192 columns, Triton's tutorial layout),
// nvvm.minctasm 4 (32 registers: 4 blocks, 64 warps per SM).
// Its passes' last partial chunks are peeled (static) and the threads' tiles are 4 wide
// (tile sizes, not a number of threads; each chunk's exp fused into the div's and the
// sum's tiles, found through the tag softmax.chunk on the chunks' consumers): at 1000
// columns threads t < 250 each load 4 floats with one ld.global.v4 per pass (x again from
// L1 in the sum and the div: the passes' guards keep forward_reads from seeing one load)
// and store one st.global.v4, 8 ex2 and 2 barriers, where it was one partial scalar chunk
// (0.0619 ms at 8191x1000, see below); a last chunk no multiple of 4 (1001) stays scalar.
// At 8192 columns (no partial chunk) the PTX is the same as before.
// Measured on the H200 (2026-11-29 03:53, one run, benchmarks/gpu.py's cases and timer,
// copy 4.15 TB/s): 8192^2 region 10 0.1333 ms (0.97x copy), region 6 0.1343, Triton
// 0.1331, eager 0.2787; 8191x1000: region 10 0.0401 ms (was 0.0619 before the peeling),
// region 6 0.0380, the row-per-warp region 0.0277, eager 0.0232, Triton 0.0466. Region 6
// stayed selected then (region 10 0.7% faster at 8192^2, 5% slower at 8191x1000; now the
// default chooses by row length, below). In the
// same run, hand-written CUDA rows (float4 loads, one row per 512-thread block, the
// region-10 layout) took 0.1326 ms and copy_ 0.1295: the schedules run at the memory
// path's speed; the same kernel as a persistent grid (4 blocks per SM looping over rows,
// no prefetch of the next row) took 0.1637.
// Measured on the H200 (one run, 01:08, benchmarks/gpu.py's cases and timer, copy 4.14
// TB/s; every region with 2 barriers per row): 8192^2 region 10 0.1315 ms (4.08 TB/s),
// region 9 0.1323, region 6 0.1328, region 5 0.1334; Triton 0.1314, torch.compile 0.1501,
// eager 0.2786. The barriers were not what limited it: region 6's PTX with main's 6
// barriers timed 0.1338 ms beside 0.1340 with 2 (same timer); nor were the loads' cache
// path (ld.global.nc: 0.1340), the division (x * rcp(sum): 0.1343, div.full: 0.1344) or
// the stores (st.global.cs: 0.1353, slower); 6 blocks of 256 per SM (40 registers, spills)
// took 0.1453. What is left is DRAM: every region reads and writes each byte once.
// x * (1 / sum) (transform.schedir.gpu.divide_by_reciprocal on %div, within tolerance by
// construction: the sum is at least 1, one of its terms being exp(0)) is not applied: no
// faster on the H200 (region 10: 0.1324 ms with it, 0.1315 without).
// A second run (01:28, the device ~1.5% slower throughout): 8192^2 region 10 0.1335 ms,
// region 6 0.1356, Triton 0.1336; 8191x1000: region 10 0.0619 ms (a row of 1000 is half a
// chunk of 2048: a partial, scalar chunk, half the threads idle), the row-per-warp region
// 0.0270 (benchmarks/gpu.py's softmax_odd row), region 6 0.026 (22:06 run), Triton 0.0519,
// eager 0.0234. Region 6 stayed selected then: region 10 gained 1% at 8192 columns and lost
// 2.3x at 1000 (before the peeling); the default now chooses by row length (below).
// Chunks (region 3): the previous schedule, for rows too long for registers: each op
// runs over the row in chunks of 512 (scf.for), one element per thread and chunk
// (coalesced), partials accumulated over the chunks, exp cloned into the sum's and the
// div's loops, x re-read from L2 by each pass. Measured on the H200 at 8192^2 (same run):
// 0.159 ms; torch.compile 0.152 ms, Triton 0.135 ms.
// Warps (region 4, for short rows: 8191x1000 took 0.28x copy with 512-thread blocks): one
// row per block of 32 threads; max, sum and div run over the row in chunks of 128 (the
// last chunk peeled, static), lane l owning elements 4l..4l+3 of each chunk (16-byte
// loads and stores where the rows are 16-byte aligned; exp fused into the sum's and the
// div's lanes), its partials kept in registers across the chunks
// (hoist_redundant_vector_transfers), the lanes' partials and the warp's 32 lanes combined
// by transform.schedir.gpu.reduce_to_subgroup_reduce (5 shfl.sync.bfly, no shared
// exchange); the few barriers left (no chunk loop has one) synchronize one warp.
// The default ("threads" = 11) is the region by row length N, chosen before any handle is
// taken by transform.alternatives over three guards (transform.match.structured.dim on the
// div's dimension 1, transform.match.param.cmpi, transform.structured.multitile_sizes as
// the divisibility check): the row per warp (4) where N < 2048, the chunks of four with
// 512 threads (10) where N >= 8192 and 2048 divides N, the chunks in registers with 256
// threads (6) otherwise. Measured on the H200 (2026-11-29 06:36, one run, benchmarks/gpu.py's
// timer, L2 flushed, copy_ 0.1294 ms at 8192^2): 8192^2 region 10 0.1336 ms (0.968x
// copy), region 6 0.1358, Triton 0.1337; 16384x8192 region 10 0.2621, region 6 0.2651,
// Triton 0.2625, copy_ 0.2581; 8191x1000 the row per warp 0.0241 (2.72 TB/s, 0.96x its
// 2.84 TB/s at 8192x1024), region 6 0.0340, region 10 0.0345, Triton 0.0330.
// What is left against the copy is a fixed cost, not a rate: from 8192 to 16384 rows
// region 10's time grows by 0.1285 ms and copy_'s by 0.1287, and 2 T(8192) - T(16384) is
// 5.1 us for region 10, 4.9 for Triton, 0.7 for copy_ (the start and drain of a grid of
// whole rows, each row's store waiting for all its loads; not the L2 flush's dirty lines:
// without the flush, 07:30 run, region 10 0.1341 ms, copy_ 0.1288). In the same run no layout
// changed it at 8192^2: region 10's own PTX with blocks per SM capped by dynamic shared
// memory took 0.1336 ms at 3 per SM (as at 4), 0.1452 at 2, 0.2013 at 1; its loads with
// .L2::256B prefetch 0.1341; region 10 without nvvm.minctasm (40 registers, 3 blocks per
// SM) 0.1340; 8 contiguous floats a thread in 256 threads 0.1410; region 9 0.1345. ncu
// (one launch each, clocks not locked): region 6 129.0 us, region 10 127.0, Triton 127.9,
// 82-84% of DRAM peak in all three, 16 sectors per request in every load and store;
// Triton's kernel (512 threads, 4 ld.global.v4 and 4 st.global.v4 a thread, as region
// 10) has 40 registers (3 blocks per SM, 69% achieved occupancy), region 10 32 (4, 94%).
// Payload: examples/softmax_cuda.mlir (any linalg.softmax over dimension 1 of a 2-D tensor).
// A row within one chunk (T elements or fewer) works in every region.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %decomposed = transform.structured.decompose_interface %sm
      : (!transform.any_op) -> !transform.any_op
    // Knob "threads": one of the regions below (0-10), or 11 (selected): the region by row
    // length N (the div's dimension 1), the first of these alternatives that matches: a
    // row per warp (4) where N < 2048; chunks of four floats with 512 threads (10) where
    // N >= 8192 and 2048 divides N; chunks in registers with 256 threads (6) otherwise.
    // The alternatives only read the payload (the function they roll back is unchanged);
    // every handle is taken after them. Each region reads the knob (one choice: the
    // alternatives are isolated from above).
    %func_len = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %region = transform.alternatives %func_len : !transform.any_op -> !transform.param<i64> {
    ^bb0(%s: !transform.any_op):
      %threads = transform.tune.knob<"threads"> = 11
          from options = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] -> !transform.param<i64>
      %by_length = transform.param.constant 11 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %threads, %by_length : !transform.param<i64>
      %gens = transform.structured.match ops{["linalg.generic"]} in %s
        : (!transform.any_op) -> !transform.any_op
      %g_max, %g_exp, %g_sum, %g_div = transform.split_handle %gens
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                  !transform.any_op)
      %n = transform.match.structured %g_div : (!transform.any_op) -> !transform.param<i64> {
      ^bb0(%d: !transform.any_op):
        %dim = transform.match.structured.dim %d[1] : (!transform.any_op) -> !transform.param<i64>
        transform.match.structured.yield %dim : !transform.param<i64>
      }
      %one = transform.param.constant 1 : i64 -> !transform.param<i64>
      %short = transform.param.constant 2047 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %n, %one : !transform.param<i64>
      transform.match.param.cmpi le %n, %short : !transform.param<i64>
      %warps = transform.param.constant 4 : i64 -> !transform.param<i64>
      transform.yield %warps : !transform.param<i64>
    }, {
    ^bb0(%s: !transform.any_op):
      %threads = transform.tune.knob<"threads"> = 11
          from options = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] -> !transform.param<i64>
      %by_length = transform.param.constant 11 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %threads, %by_length : !transform.param<i64>
      %gens = transform.structured.match ops{["linalg.generic"]} in %s
        : (!transform.any_op) -> !transform.any_op
      %g_max, %g_exp, %g_sum, %g_div = transform.split_handle %gens
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                  !transform.any_op)
      %n = transform.match.structured %g_div : (!transform.any_op) -> !transform.param<i64> {
      ^bb0(%d: !transform.any_op):
        %dim = transform.match.structured.dim %d[1] : (!transform.any_op) -> !transform.param<i64>
        transform.match.structured.yield %dim : !transform.param<i64>
      }
      %long = transform.param.constant 8192 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %n, %long : !transform.param<i64>
      // Silenceable where 2048 does not divide N (or N is dynamic).
      %lo, %hi, %at = transform.structured.multitile_sizes %g_div dimension = 1
          target_size = 2048 divisor = 2048 : (!transform.any_op) -> !transform.param<i64>
      %fours = transform.param.constant 10 : i64 -> !transform.param<i64>
      transform.yield %fours : !transform.param<i64>
    }, {
    ^bb0(%s: !transform.any_op):
      %threads = transform.tune.knob<"threads"> = 11
          from options = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] -> !transform.param<i64>
      %by_length = transform.param.constant 11 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %threads, %by_length : !transform.param<i64>
      %chunks = transform.param.constant 6 : i64 -> !transform.param<i64>
      transform.yield %chunks : !transform.param<i64>
    }, {
    ^bb0(%s: !transform.any_op):
      %threads = transform.tune.knob<"threads"> = 11
          from options = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] -> !transform.param<i64>
      transform.yield %threads : !transform.param<i64>
    }
    %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill_max, %max, %exp, %fill_sum, %sum, %div = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                !transform.any_op, !transform.any_op, !transform.any_op)
    %div_b, %forall = transform.structured.tile_using_forall %div tile_sizes [1]
        (mapping = [#gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sum_b, %f1 = transform.structured.fuse_into_containing_op %sum into %forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sum_b, %f2 = transform.structured.fuse_into_containing_op %fill_sum into %f1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func0 = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %func0 : !transform.any_op
    %exp_b, %f3 = transform.structured.fuse_into_containing_op %exp into %f2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %max_b, %f4 = transform.structured.fuse_into_containing_op %max into %f3
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_max_b, %f5 = transform.structured.fuse_into_containing_op %fill_max into %f4
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // The regions of knob "threads": rows in registers with 256, 512 or 1024 threads per
    // block (0-2), chunks of 512 (3), a row per warp (4), chunks in registers with 512, 256,
    // 1024 or 128 threads (5-8), chunks of four with 256 threads (9) or 512 (10) (one
    // region each: block_dims is static); the region by row length chosen above.
    transform.tune.alternatives<"threads_region"> selected_region = %region
        : !transform.param<i64> {
      // Registers, 256 threads: thread t owns the contiguous piece t of the row (N/256
      // elements) in every pass; max and sum partials by tile_reduction_using_forall.
      %div_t, %div_forall = transform.structured.tile_using_forall %div_b num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d, %df = transform.structured.fuse_into_containing_op %exp_b into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_forall = transform.structured.tile_reduction_using_forall %red
          by num_threads = [0, 256], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %max_f, %sum_f = transform.split_handle %red_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s, %sf = transform.structured.fuse_into_containing_op %exp_o into %sum_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Static pieces become vectors (16-byte loads and stores); dynamic ones stay loops.
      %func_v = transform.structured.vectorize_children_and_apply_patterns %func
        : (!transform.any_op) -> !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [256, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // The sum's and the div's reads of x are the max's: x stays in registers.
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Registers, 512 threads: thread t owns the contiguous piece t of the row (N/512
      // elements) in every pass; max and sum partials by tile_reduction_using_forall.
      %div_t, %div_forall = transform.structured.tile_using_forall %div_b num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d, %df = transform.structured.fuse_into_containing_op %exp_b into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_forall = transform.structured.tile_reduction_using_forall %red
          by num_threads = [0, 512], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %max_f, %sum_f = transform.split_handle %red_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s, %sf = transform.structured.fuse_into_containing_op %exp_o into %sum_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Static pieces become vectors (16-byte loads and stores); dynamic ones stay loops.
      %func_v = transform.structured.vectorize_children_and_apply_patterns %func
        : (!transform.any_op) -> !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [512, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // The sum's and the div's reads of x are the max's: x stays in registers.
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Registers, 1024 threads: thread t owns the contiguous piece t of the row (N/1024
      // elements) in every pass; max and sum partials by tile_reduction_using_forall.
      %div_t, %div_forall = transform.structured.tile_using_forall %div_b num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d, %df = transform.structured.fuse_into_containing_op %exp_b into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_forall = transform.structured.tile_reduction_using_forall %red
          by num_threads = [0, 1024], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %max_f, %sum_f = transform.split_handle %red_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s, %sf = transform.structured.fuse_into_containing_op %exp_o into %sum_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Static pieces become vectors (16-byte loads and stores); dynamic ones stay loops.
      %func_v = transform.structured.vectorize_children_and_apply_patterns %func
        : (!transform.any_op) -> !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [1024, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // The sum's and the div's reads of x are the max's: x stays in registers.
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Chunks of 512 (see above). div: chunks of 512, one element per thread; exp cloned into it.
      %div_c, %div_loop = transform.structured.tile_using_for %div_b tile_sizes [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %div_t, %div_forall = transform.structured.tile_using_forall %div_c num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // exp: cloned into the div's chunks and threads (it also feeds the sum) before
      // any canonicalization, so that a chunk loop of one iteration (a row within one
      // chunk) is still there to fuse into; then moved into the sum's.
      %exp_d1, %dl = transform.structured.fuse_into_containing_op %exp_b into %div_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d2, %df = transform.structured.fuse_into_containing_op %exp_d1 into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      // reductions: partials 1x512 accumulated over chunks.
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_part_f, %sum_part_f = transform.split_handle %part_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_loop, %sum_loop = transform.split_handle %red_loop
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s1, %sl = transform.structured.fuse_into_containing_op %exp_o into %sum_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s2, %sf = transform.structured.fuse_into_containing_op %exp_s1 into %sum_part_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the block: per-thread gpu.all_reduce (warp shuffles); every thread
      // combines the result with the row's init (merge_in_threads: no merge by thread 0).
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [512, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // The published results' reads become each thread's own values; their barriers go.
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Warps (region 4): one row per block of 32 threads (a warp), in chunks of 128
      // (a peeled last chunk): lane l owns elements 4l..4l+3 of each chunk (one 16-byte
      // load or store when the rows are 16-byte aligned) in the max, the sum (exp fused)
      // and the div; the lanes' partials (4 per lane) and the warp's 32 lanes are
      // combined by transform.schedir.gpu.reduce_to_subgroup_reduce (shuffles only, no
      // shared exchange); lane 0 merges them into the row's max / sum.
      %div_c, %div_loop = transform.structured.tile_using_for %div_b tile_sizes [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %div_t, %div_forall = transform.structured.tile_using_forall %div_c tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d1, %dl = transform.structured.fuse_into_containing_op %exp_b into %div_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d2, %df = transform.structured.fuse_into_containing_op %exp_d1 into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_part_f, %sum_part_f = transform.split_handle %part_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_loop, %sum_loop = transform.split_handle %red_loop
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s1, %sl = transform.structured.fuse_into_containing_op %exp_o into %sum_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s2, %sf = transform.structured.fuse_into_containing_op %exp_s1 into %sum_part_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Every chunk static: the last one peeled off each loop (its lanes past the end idle).
      %loops = transform.merge_handles %dl, %max_loop, %sl : !transform.any_op
      %loops_for = transform.cast %loops : !transform.any_op to !transform.op<"scf.for">
      transform.foreach %loops_for : !transform.op<"scf.for"> {
      ^bb0(%one: !transform.op<"scf.for">):
        transform.sequence %one : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%l: !transform.op<"scf.for">):
          %main, %rest = transform.loop.peel %l
            : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
          transform.yield
        }
        transform.yield
      }
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fills = transform.merge_handles %fill_max_b, %fill_sum_b : !transform.any_op
      %fills_t, %fills_forall = transform.structured.tile_using_forall %fills num_threads [1]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sg, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %comb lanes = 32
          mapping = [#gpu.thread<y>, #gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %merge_t, %merge_f = transform.structured.tile_using_forall %merge num_threads [1]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Only the lanes' static tiles become vectors (a dynamic one stays scalar).
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f5
        : (!transform.any_op) -> !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [32, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
        transform.apply_patterns.memref.fold_memref_alias_ops
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // The lanes' accumulators into registers across the chunks; then the chunk loops
      // touch no shared memory, and their barriers go.
      %func_h = transform.structured.hoist_redundant_vector_transfers %func_g
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_h {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Chunks in registers (region 5): region 3 with its chunk loops unrolled (see above).
      // Chunks of 512 (see above). div: chunks of 512, one element per thread; exp cloned into it.
      %div_c, %div_loop = transform.structured.tile_using_for %div_b tile_sizes [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %div_t, %div_forall = transform.structured.tile_using_forall %div_c num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // exp: cloned into the div's chunks and threads (it also feeds the sum) before
      // any canonicalization, so that a chunk loop of one iteration (a row within one
      // chunk) is still there to fuse into; then moved into the sum's.
      %exp_d1, %dl = transform.structured.fuse_into_containing_op %exp_b into %div_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d2, %df = transform.structured.fuse_into_containing_op %exp_d1 into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      // reductions: partials 1x512 accumulated over chunks.
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_part_f, %sum_part_f = transform.split_handle %part_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_loop, %sum_loop = transform.split_handle %red_loop
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s1, %sl = transform.structured.fuse_into_containing_op %exp_o into %sum_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s2, %sf = transform.structured.fuse_into_containing_op %exp_s1 into %sum_part_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the block: per-thread gpu.all_reduce (warp shuffles); every thread
      // combines the result with the row's init (merge_in_threads: no merge by thread 0).
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Each thread's static tiles become vectors (dynamic ones stay scalar loops).
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f5
        : (!transform.any_op) -> !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [512, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Chunk loops of a static trip count unrolled: every chunk's load is issued before
      // the first is used, and the later passes' reads of x become the first pass's.
      %loops = transform.structured.match ops{["scf.for"]} in %func_g
        : (!transform.any_op) -> !transform.any_op
      %loops_for = transform.cast %loops : !transform.any_op to !transform.op<"scf.for">
      transform.foreach %loops_for : !transform.op<"scf.for"> {
      ^bb0(%one: !transform.op<"scf.for">):
        transform.sequence %one : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%l: !transform.op<"scf.for">):
          transform.loop.unroll %l {factor = 16} : !transform.op<"scf.for">
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.memref.fold_memref_alias_ops
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Chunks in registers, 256 threads (region 6): region 5 with chunks of 256.
      // Chunks of 256 (see above). div: chunks of 256, one element per thread; exp cloned into it.
      %div_c, %div_loop = transform.structured.tile_using_for %div_b tile_sizes [0, 256]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %div_t, %div_forall = transform.structured.tile_using_forall %div_c num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // exp: cloned into the div's chunks and threads (it also feeds the sum) before
      // any canonicalization, so that a chunk loop of one iteration (a row within one
      // chunk) is still there to fuse into; then moved into the sum's.
      %exp_d1, %dl = transform.structured.fuse_into_containing_op %exp_b into %div_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d2, %df = transform.structured.fuse_into_containing_op %exp_d1 into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      // reductions: partials 1x256 accumulated over chunks.
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 256]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_part_f, %sum_part_f = transform.split_handle %part_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_loop, %sum_loop = transform.split_handle %red_loop
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s1, %sl = transform.structured.fuse_into_containing_op %exp_o into %sum_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s2, %sf = transform.structured.fuse_into_containing_op %exp_s1 into %sum_part_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the block: per-thread gpu.all_reduce (warp shuffles); every thread
      // combines the result with the row's init (merge_in_threads: no merge by thread 0).
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Each thread's static tiles become vectors (dynamic ones stay scalar loops).
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f5
        : (!transform.any_op) -> !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [256, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Chunk loops of a static trip count unrolled: every chunk's load is issued before
      // the first is used, and the later passes' reads of x become the first pass's.
      %loops = transform.structured.match ops{["scf.for"]} in %func_g
        : (!transform.any_op) -> !transform.any_op
      %loops_for = transform.cast %loops : !transform.any_op to !transform.op<"scf.for">
      transform.foreach %loops_for : !transform.op<"scf.for"> {
      ^bb0(%one: !transform.op<"scf.for">):
        transform.sequence %one : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%l: !transform.op<"scf.for">):
          transform.loop.unroll %l {factor = 32} : !transform.op<"scf.for">
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.memref.fold_memref_alias_ops
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Chunks in registers, 1024 threads (region 7): region 5 with chunks of 1024.
      // Chunks of 1024 (see above). div: chunks of 1024, one element per thread; exp cloned into it.
      %div_c, %div_loop = transform.structured.tile_using_for %div_b tile_sizes [0, 1024]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %div_t, %div_forall = transform.structured.tile_using_forall %div_c num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // exp: cloned into the div's chunks and threads (it also feeds the sum) before
      // any canonicalization, so that a chunk loop of one iteration (a row within one
      // chunk) is still there to fuse into; then moved into the sum's.
      %exp_d1, %dl = transform.structured.fuse_into_containing_op %exp_b into %div_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d2, %df = transform.structured.fuse_into_containing_op %exp_d1 into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      // reductions: partials 1x1024 accumulated over chunks.
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 1024]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_part_f, %sum_part_f = transform.split_handle %part_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_loop, %sum_loop = transform.split_handle %red_loop
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s1, %sl = transform.structured.fuse_into_containing_op %exp_o into %sum_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s2, %sf = transform.structured.fuse_into_containing_op %exp_s1 into %sum_part_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the block: per-thread gpu.all_reduce (warp shuffles); every thread
      // combines the result with the row's init (merge_in_threads: no merge by thread 0).
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Each thread's static tiles become vectors (dynamic ones stay scalar loops).
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f5
        : (!transform.any_op) -> !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [1024, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Chunk loops of a static trip count unrolled: every chunk's load is issued before
      // the first is used, and the later passes' reads of x become the first pass's.
      %loops = transform.structured.match ops{["scf.for"]} in %func_g
        : (!transform.any_op) -> !transform.any_op
      %loops_for = transform.cast %loops : !transform.any_op to !transform.op<"scf.for">
      transform.foreach %loops_for : !transform.op<"scf.for"> {
      ^bb0(%one: !transform.op<"scf.for">):
        transform.sequence %one : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%l: !transform.op<"scf.for">):
          transform.loop.unroll %l {factor = 8} : !transform.op<"scf.for">
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.memref.fold_memref_alias_ops
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Chunks in registers, 128 threads (region 8): region 5 with chunks of 128.
      // Chunks of 128 (see above). div: chunks of 128, one element per thread; exp cloned into it.
      %div_c, %div_loop = transform.structured.tile_using_for %div_b tile_sizes [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %div_t, %div_forall = transform.structured.tile_using_forall %div_c num_threads [0, 128]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // exp: cloned into the div's chunks and threads (it also feeds the sum) before
      // any canonicalization, so that a chunk loop of one iteration (a row within one
      // chunk) is still there to fuse into; then moved into the sum's.
      %exp_d1, %dl = transform.structured.fuse_into_containing_op %exp_b into %div_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d2, %df = transform.structured.fuse_into_containing_op %exp_d1 into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      // reductions: partials 1x128 accumulated over chunks.
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 128]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_part_f, %sum_part_f = transform.split_handle %part_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_loop, %sum_loop = transform.split_handle %red_loop
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s1, %sl = transform.structured.fuse_into_containing_op %exp_o into %sum_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s2, %sf = transform.structured.fuse_into_containing_op %exp_s1 into %sum_part_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 128]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the block: per-thread gpu.all_reduce (warp shuffles); every thread
      // combines the result with the row's init (merge_in_threads: no merge by thread 0).
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Each thread's static tiles become vectors (dynamic ones stay scalar loops).
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f5
        : (!transform.any_op) -> !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [128, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Chunk loops of a static trip count unrolled: every chunk's load is issued before
      // the first is used, and the later passes' reads of x become the first pass's.
      %loops = transform.structured.match ops{["scf.for"]} in %func_g
        : (!transform.any_op) -> !transform.any_op
      %loops_for = transform.cast %loops : !transform.any_op to !transform.op<"scf.for">
      transform.foreach %loops_for : !transform.op<"scf.for"> {
      ^bb0(%one: !transform.op<"scf.for">):
        transform.sequence %one : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%l: !transform.op<"scf.for">):
          transform.loop.unroll %l {factor = 64} : !transform.op<"scf.for">
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.memref.fold_memref_alias_ops
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Chunks in registers, 256 threads, 4 floats each (region 9): region 6 with chunks of
      // 1024, thread t owning floats 4t..4t+3 of each chunk (a 16-byte access; a warp's
      // load is 512 contiguous bytes), 8 chunks per thread at 8192 columns. The 1024
      // partials of a reduction: each thread combines its 4 (tile_reduction_using_forall
      // of the combiner), then the block's 256 as region 6 does. The per-chunk barriers
      // are eliminated since barrier_slots knows the 4-float slots (offset 4 * tid).
      %div_c, %div_loop = transform.structured.tile_using_for %div_b tile_sizes [0, 1024]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %div_t, %div_forall = transform.structured.tile_using_forall %div_c num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // exp: cloned into the div's chunks and threads (it also feeds the sum) before
      // any canonicalization, so that a chunk loop of one iteration (a row within one
      // chunk) is still there to fuse into; then moved into the sum's.
      %exp_d1, %dl = transform.structured.fuse_into_containing_op %exp_b into %div_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_d2, %df = transform.structured.fuse_into_containing_op %exp_d1 into %div_forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      // reductions: partials 1x256 accumulated over chunks.
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 1024]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_part_f, %sum_part_f = transform.split_handle %part_forall
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %max_loop, %sum_loop = transform.split_handle %red_loop
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s1, %sl = transform.structured.fuse_into_containing_op %exp_o into %sum_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s2, %sf = transform.structured.fuse_into_containing_op %exp_s1 into %sum_part_f
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the block: per-thread gpu.all_reduce (warp shuffles); every thread
      // combines the result with the row's init (merge_in_threads: no merge by thread 0).
      // The 1024 partials: each thread first combines its 4 (registers), then the block's 256.
      %pfill4, %part4, %comb4, %comb_forall = transform.structured.tile_reduction_using_forall %comb
          by num_threads = [0, 256], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %pfill4_t, %pfill4_forall = transform.structured.tile_using_forall %pfill4 num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb4 mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Each thread's static tiles become vectors (dynamic ones stay scalar loops).
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f5
        : (!transform.any_op) -> !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [256, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Chunk loops of a static trip count unrolled: every chunk's load is issued before
      // the first is used, and the later passes' reads of x become the first pass's.
      %loops = transform.structured.match ops{["scf.for"]} in %func_g
        : (!transform.any_op) -> !transform.any_op
      %loops_for = transform.cast %loops : !transform.any_op to !transform.op<"scf.for">
      transform.foreach %loops_for : !transform.op<"scf.for"> {
      ^bb0(%one: !transform.op<"scf.for">):
        transform.sequence %one : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%l: !transform.op<"scf.for">):
          transform.loop.unroll %l {factor = 8} : !transform.op<"scf.for">
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.memref.fold_memref_alias_ops
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      transform.yield
    }, {
      // Chunks in registers, 512 threads, 4 floats each (region 10): region 9 with chunks of
      // 2048 and 512 threads (Triton's tutorial layout at 8192 columns: 16 warps, four
      // 16-byte accesses per thread), 4 chunks per thread at 8192 columns.
      %div_c, %div_loop = transform.structured.tile_using_for %div_b tile_sizes [0, 2048]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // exp: cloned into the div's chunks (it also feeds the sum) before any
      // canonicalization, so that a chunk loop of one iteration (a row within one chunk)
      // is still there to fuse into; then moved into the sum's.
      %exp_d1, %dl = transform.structured.fuse_into_containing_op %exp_b into %div_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_o = transform.get_producer_of_operand %sum_b[0]
        : (!transform.any_op) -> !transform.any_op
      // reductions: partials 1x2048 accumulated over chunks.
      %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 2048]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %max_loop, %sum_loop = transform.split_handle %red_loop
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %exp_s1, %sl = transform.structured.fuse_into_containing_op %exp_o into %sum_loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Each chunk's consumer (the div, the max's and the sum's partials) is tagged so that
      // the peeled chunks' clones can be found.
      %consumers = transform.merge_handles %div_c, %part : !transform.any_op
      transform.annotate %consumers "softmax.chunk" : !transform.any_op
      // The last partial chunk of each pass peeled (static sizes).
      %chunk_loops = transform.merge_handles %div_loop, %max_loop, %sum_loop : !transform.any_op
      %chunk_fors = transform.cast %chunk_loops : !transform.any_op to !transform.op<"scf.for">
      transform.foreach %chunk_fors : !transform.op<"scf.for"> {
      ^bb0(%one: !transform.op<"scf.for">):
        transform.sequence %one : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%l: !transform.op<"scf.for">):
          %main, %rest = transform.loop.peel %l
            : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
          transform.yield
        }
        transform.yield
      }
      %func_p = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_p {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      // Thread t owns elements 4t..4t+3 of each chunk (tile sizes, not a number of
      // threads: a short last chunk keeps the same owners, its threads past the end
      // idle), in the main and the peeled chunks alike, each chunk's exp fused in.
      %chunk_cons = transform.structured.match ops{["linalg.generic"]} attributes {softmax.chunk} in %f5
        : (!transform.any_op) -> !transform.any_op
      transform.foreach %chunk_cons : !transform.any_op {
      ^bb0(%c: !transform.any_op):
        %prod = transform.get_producer_of_operand %c[0] : (!transform.any_op) -> !transform.any_op
        %cons_t, %cons_f = transform.structured.tile_using_forall %c tile_sizes [0, 4]
            (mapping = [#gpu.thread<x>])
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
        // The div's and the sum's input is their chunk's exp (the max's is x).
        transform.sequence %prod : !transform.any_op failures(suppress) {
        ^bb1(%p: !transform.any_op):
          transform.match.operation_name %p ["linalg.generic"] : !transform.any_op
          %exp_t, %ef = transform.structured.fuse_into_containing_op %p into %cons_f
            : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
          transform.yield
        }
        transform.yield
      }
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the block: per-thread gpu.all_reduce (warp shuffles); every thread
      // combines the result with the row's init (merge_in_threads: no merge by thread 0).
      // The 2048 partials: each thread first combines its 4 (registers), then the block's 512.
      %pfill4, %part4, %comb4, %comb_forall = transform.structured.tile_reduction_using_forall %comb
          by num_threads = [0, 512], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %pfill4_t, %pfill4_forall = transform.structured.tile_using_forall %pfill4 num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb4 mapping = [#gpu.thread<x>]
          {merge_in_threads}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Each thread's static tiles become vectors (dynamic ones stay scalar loops).
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f5
        : (!transform.any_op) -> !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %root_b = transform.apply_registered_pass "one-shot-bufferize"
          with options = {"bufferize-function-boundaries" = true,
                          "function-boundary-type-conversion" = "identity-layout-map"} to %root
        : (!transform.any_op) -> !transform.any_op
      %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
      %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [512, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      // Four blocks of 512 per SM (all 64 warps): at most 32 registers a thread (40 without).
      %ctas = transform.param.constant 4 : i32 -> !transform.param<i32>
      transform.annotate %mapped "nvvm.minctasm" = %ctas : !transform.any_op, !transform.param<i32>
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Chunk loops of a static trip count unrolled: every chunk's load is issued before
      // the first is used, and the later passes' reads of x become the first pass's.
      %loops = transform.structured.match ops{["scf.for"]} in %func_g
        : (!transform.any_op) -> !transform.any_op
      %loops_for = transform.cast %loops : !transform.any_op to !transform.op<"scf.for">
      transform.foreach %loops_for : !transform.op<"scf.for"> {
      ^bb0(%one: !transform.op<"scf.for">):
        transform.sequence %one : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%l: !transform.op<"scf.for">):
          transform.loop.unroll %l {factor = 4} : !transform.op<"scf.for">
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.memref.fold_memref_alias_ops
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_patterns to %func_g {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      transform.yield
    }
    transform.yield
  }
}
