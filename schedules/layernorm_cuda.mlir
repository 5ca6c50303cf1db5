// Row layer normalization on the GPU (two row reductions and an elementwise epilogue, see
// examples/layernorm_cuda.mlir), structured like softmax_cuda: one row per block
// (#gpu.block<x>) with the epilogue, both reductions and their fills fused into it.
// Rows in registers (regions 0-2 of the knob "threads", T = 256, 512, 1024
// threads per block, #gpu.thread<x>): thread t owns the contiguous piece t of the row
// (N/T elements: tile_using_forall / tile_reduction_using_forall num_threads) in the sum,
// the sum of squared deviations and the epilogue. Static pieces (N a multiple of T) are
// vectorized: 16 floats are four ld.global.v4 in flight and four st.global.v4. The two
// partials (one per thread, in shared memory) are reduced across the block by
// transform.schedir.gpu.reduce_to_all_reduce (one gpu.all_reduce per thread: shfl.sync
// butterflies in each warp, the warp results exchanged through shared memory), each thread
// combining the result with the row's init itself (merge_in_threads: every thread holds the
// row's value, no thread merges alone). transform.schedir.gpu.forward_reads then makes the
// later passes' reads of x (never written) the first pass's: the row is read once and
// stays in registers. A dynamic piece (N not a multiple of T) stays a scalar loop,
// correct but read per pass (region 3, chunks, may then be faster).
// Contiguous pieces are not coalesced: on the H200 at 8192^2 (benchmarks/gpu.py, one run)
// layernorm took 0.215 ms with 512 threads in registers, 0.178 with 1024, 0.154 with chunks;
// torch.compile 0.131, Triton 0.135.
// Chunks in registers (regions 5-8, T = 512, 256, 1024, 128 threads): region 3's
// chunks (thread t owns float t of each chunk of T: coalesced) with each thread's static
// tiles vectorized and, once mapped, the chunk loops unrolled by 8192 / T: at 8192 columns
// each thread issues its 8192 / T loads of x back to back, forward_reads makes the second
// reduction's and the epilogue's reads of x the first's (the row read once, in registers),
// gamma and beta are read once each. Longer rows run groups of 8192 / T chunks (x re-read
// per pass), a row no multiple of T ends in a partial chunk. 2 barriers per row (the
// all-reduces' exchanges): each thread combines the reduced value with the init and
// forward_reads makes the readers' loads of the published value the value each thread
// holds (the publication's barrier then goes; was 6: thread 0's merge and its publication).
// Measured on the H200 at 8192^2 (benchmarks/gpu.py, one run, 6 barriers): 0.142 ms with
// 512 threads, 0.147 with 256, 0.140 with 1024; chunks 0.156, torch.compile 0.133, Triton
// 0.137. With 2 barriers (one run, 01:08, benchmarks/gpu.py's cases and timer, copy 4.14
// TB/s): 0.1350 ms with 1024 threads (region 7), 0.1380 with 512 (region 5), 0.1435 with
// 256; torch.compile 0.1324, Triton 0.1334, eager 0.2193. A second run (01:28, the device
// ~1% slower throughout): region 7 0.1360 ms, Triton 0.1353, eager 0.2201. Region 5 stayed
// selected: at 1000 columns region 7's whole row is one partial chunk (as softmax's region
// 10's, which lost 2.3x there against region 6); region 9 (below) is selected now.
// Chunks of four with 512 threads (region 9): softmax's region 10 for layernorm: chunks of
// 2048, thread t owning floats 4t..4t+3 of each (at 8192 columns 4 ld.global.v4 of x, 4 of
// gamma, 4 of beta and 4 st.global.v4 per thread), the chunk loops unrolled, each
// reduction's 4 partials combined per thread before the block's all-reduce (2 barriers a
// row), nvvm.minctasm 4 (32 registers, no spills: 4 blocks, 64 warps per SM). The passes'
// last partial chunks are peeled (static) and the threads' tiles are 4 wide (tile sizes):
// at 1000 columns threads t < 250 each load x, gamma and beta with one ld.global.v4 and
// store one st.global.v4 (x is loaded again, from L1, in the second reduction and the
// epilogue: the three passes' guards keep forward_reads from seeing one load); a last
// chunk no multiple of 4 (1001) stays scalar.
// Measured on the H200 (2026-11-29 03:53, one run, benchmarks/gpu.py's cases and timer,
// copy 4.15 TB/s): 8192^2 region 9 0.1332 ms (4.03 TB/s, 0.97x copy; without minctasm
// 0.1339), region 7 0.1360, region 5 0.1400; Triton 0.1344, eager 0.2189 (torch.compile
// not timed; 0.1324 on 01:08); 8191x1000: region 9 0.0333 ms, region 5 0.0366, region 7
// 0.0656, the row-per-warp region 0.0244, Triton 0.0370, eager 0.0325. Region 9 is
// the default's choice for rows of 2048 and more: faster than region 5 at both sizes and
// than Triton at 8192^2. The default ("threads" = 10) is the region by row length N
// (transform.alternatives, as softmax's default): the row per warp (4) where N < 2048
// (27% faster than region 9 at 8191x1000 in that run), region 9 otherwise.
// Chunks (region 3): the previous schedule: the epilogue and the reductions over the row
// in chunks of 512 (scf.for), one element per thread and chunk, partials accumulated
// over the chunks, x re-read (from L2) by both reductions and the epilogue. Measured on
// the H200 at 8192^2 (same run): 0.157 ms; torch.compile 0.132 ms, Triton 0.136.
// Warps (region 4, for short rows): one row per block of 32 threads, the passes over the
// row in chunks of 128 (the last peeled, static), lane l owning elements 4l..4l+3 of each
// chunk (16-byte loads and stores where the rows are 16-byte aligned), its partials in
// registers across the chunks, the lanes' partials and the warp's 32 lanes combined by
// transform.schedir.gpu.reduce_to_subgroup_reduce (5 shfl.sync.bfly each, no shared
// exchange); no chunk loop has a barrier.
// In every region the zero fills of the two reductions (row sums, partials) are annotated
// with distinct names so that CSE does not merge them into one destination, which
// bufferization would have to copy (a memref.copy of a shared buffer run by every thread).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // Knob "threads": one of the regions below (0-9), or 10 (selected): the region by row
    // length N (the normalization's dimension 1), the first of these alternatives that
    // matches: a row per warp (4) where N < 2048, chunks of four floats with 512 threads
    // (9) otherwise. The alternatives only read the payload (the function they roll back is
    // unchanged); every handle is taken after them. Each region reads the knob (one
    // choice: the alternatives are isolated from above).
    %func_len = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %region = transform.alternatives %func_len : !transform.any_op -> !transform.param<i64> {
    ^bb0(%s: !transform.any_op):
      %threads = transform.tune.knob<"threads"> = 10
          from options = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] -> !transform.param<i64>
      %by_length = transform.param.constant 10 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %threads, %by_length : !transform.param<i64>
      %gens = transform.structured.match ops{["linalg.generic"]} in %s
        : (!transform.any_op) -> !transform.any_op
      %g_sum, %g_sq, %g_norm = transform.split_handle %gens
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      %n = transform.match.structured %g_norm : (!transform.any_op) -> !transform.param<i64> {
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
      %threads = transform.tune.knob<"threads"> = 10
          from options = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] -> !transform.param<i64>
      %by_length = transform.param.constant 10 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %threads, %by_length : !transform.param<i64>
      %fours = transform.param.constant 9 : i64 -> !transform.param<i64>
      transform.yield %fours : !transform.param<i64>
    }, {
    ^bb0(%s: !transform.any_op):
      %threads = transform.tune.knob<"threads"> = 10
          from options = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] -> !transform.param<i64>
      transform.yield %threads : !transform.param<i64>
    }
    %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill_sum, %sum, %fill_sq, %sq, %norm = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                !transform.any_op, !transform.any_op)
    transform.annotate %fill_sum "layernorm.sum" : !transform.any_op
    transform.annotate %fill_sq "layernorm.sq" : !transform.any_op

    // Blocks: one row each.
    %norm_f, %forall = transform.structured.tile_using_forall %norm tile_sizes [1]
        (mapping = [#gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sq_f, %f1 = transform.structured.fuse_into_containing_op %sq into %forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sq_f, %f2 = transform.structured.fuse_into_containing_op %fill_sq into %f1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sum_f, %f3 = transform.structured.fuse_into_containing_op %sum into %f2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sum_f, %f4 = transform.structured.fuse_into_containing_op %fill_sum into %f3
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // sum has two uses (sq and the epilogue), so it was fused twice: CSE merges the copies.
    %func0 = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %func0 : !transform.any_op
    %row_ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %f4
      : (!transform.any_op) -> !transform.any_op
    %fill_sum_b, %sum_b, %fill_sq_b, %sq_b, %norm_b = transform.split_handle %row_ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                !transform.any_op, !transform.any_op)

    // The regions of knob "threads": rows in registers with 256, 512 or 1024 threads per
    // block (0-2), chunks of 512 (3), a row per warp (4), chunks in registers with 512,
    // 256, 1024 or 128 threads (5-8), chunks of four with 512 threads (9) (one region
    // each: block_dims is static); the region by row length chosen above.
    transform.tune.alternatives<"threads_region"> selected_region = %region
        : !transform.param<i64> {
      // Registers, 256 threads: thread t owns the contiguous piece t of the row (N/256
      // elements) in every pass; sum and sum-of-squares partials by
      // tile_reduction_using_forall.
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_b num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_forall = transform.structured.tile_reduction_using_forall %red
          by num_threads = [0, 256], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
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
      // The squares' and the epilogue's reads of x (and of gamma, beta) are the first:
      // x stays in registers.
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Registers, 512 threads: thread t owns the contiguous piece t of the row (N/512
      // elements) in every pass; sum and sum-of-squares partials by
      // tile_reduction_using_forall.
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_b num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_forall = transform.structured.tile_reduction_using_forall %red
          by num_threads = [0, 512], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
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
      // The squares' and the epilogue's reads of x (and of gamma, beta) are the first:
      // x stays in registers.
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Registers, 1024 threads: thread t owns the contiguous piece t of the row (N/1024
      // elements) in every pass; sum and sum-of-squares partials by
      // tile_reduction_using_forall.
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_b num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_forall = transform.structured.tile_reduction_using_forall %red
          by num_threads = [0, 1024], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
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
      // The squares' and the epilogue's reads of x (and of gamma, beta) are the first:
      // x stays in registers.
      transform.schedir.gpu.forward_reads in %func_g : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      // Each thread holds the published results: their barriers order nothing now.
      transform.apply_patterns to %func_g {
        transform.apply_patterns.gpu.eliminate_barriers
      } : !transform.any_op
      transform.yield
    }, {
      // Chunks of 512 (see above). Epilogue: chunks of 512, one element per thread.
      %norm_c, %norm_loop = transform.structured.tile_using_for %norm_b tile_sizes [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_c num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Reductions: partials 1x512 accumulated over chunks.
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
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
      // Warps (region 4): one row per block of 32 threads, in chunks of 128 (the last
      // peeled): lane l owns elements 4l..4l+3 of each chunk (16-byte loads and stores
      // where aligned) in the sum, the sum of squared deviations and the epilogue; the
      // lanes' partials (in registers across the chunks) and the warp's 32 lanes are
      // combined by transform.schedir.gpu.reduce_to_subgroup_reduce (shuffles only).
      %norm_c, %norm_loop = transform.structured.tile_using_for %norm_b tile_sizes [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_c tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Reductions: partials 1x512 accumulated over chunks.
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Every chunk static: the last one peeled off each loop.
      %loops = transform.merge_handles %norm_loop, %red_loop : !transform.any_op
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
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fills = transform.merge_handles %fill_sum_b, %fill_sq_b : !transform.any_op
      %fills_t, %fills_forall = transform.structured.tile_using_forall %fills num_threads [1]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the warp: per-lane gpu.subgroup_reduce, then lane 0 merges the
      // reduced value into the row's sum / sum of squares.
      %ar, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %comb lanes = 32
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
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f4
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
      // Chunks in registers, 512 threads (region 5): region 3 with chunks of 512, its
      // static tiles vectorized and its chunk loops unrolled (see above).
      // Chunks of 512 (see above). Epilogue: chunks of 512, one element per thread.
      %norm_c, %norm_loop = transform.structured.tile_using_for %norm_b tile_sizes [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_c num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Reductions: partials 1x512 accumulated over chunks.
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
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
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f4
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
      // Chunks in registers, 256 threads (region 6): region 3 with chunks of 256, its
      // static tiles vectorized and its chunk loops unrolled (see above).
      // Chunks of 256 (see above). Epilogue: chunks of 256, one element per thread.
      %norm_c, %norm_loop = transform.structured.tile_using_for %norm_b tile_sizes [0, 256]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_c num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Reductions: partials 1x256 accumulated over chunks.
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 256]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
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
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f4
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
      // Chunks in registers, 1024 threads (region 7): region 3 with chunks of 1024, its
      // static tiles vectorized and its chunk loops unrolled (see above).
      // Chunks of 1024 (see above). Epilogue: chunks of 1024, one element per thread.
      %norm_c, %norm_loop = transform.structured.tile_using_for %norm_b tile_sizes [0, 1024]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_c num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Reductions: partials 1x1024 accumulated over chunks.
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 1024]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
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
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f4
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
      // Chunks of 128 (see above). Epilogue: chunks of 128, one element per thread.
      %norm_c, %norm_loop = transform.structured.tile_using_for %norm_b tile_sizes [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_c num_threads [0, 128]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Reductions: partials 1x128 accumulated over chunks.
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_forall = transform.structured.tile_using_forall %part num_threads [0, 128]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
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
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f4
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
      // Chunks of four, 512 threads (region 9): softmax's region 10 for layernorm: chunks
      // of 2048, thread t owning the 4 adjacent floats 4t..4t+3 of each (one ld.global.v4
      // of x, of gamma and of beta and one st.global.v4 a chunk), 4 chunks per thread at
      // 8192 columns, the chunk loops unrolled; each reduction's 4-wide partials combined
      // per thread before the block's all-reduce. 2 barriers a row, no spills.
      %norm_c, %norm_loop = transform.structured.tile_using_for %norm_b tile_sizes [0, 2048]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Reductions: partials 1x2048 accumulated over chunks.
      %red = transform.merge_handles %sum_b, %sq_b : !transform.any_op
      %pfill, %part, %comb, %red_loop = transform.structured.tile_reduction_using_for %red
          by tile_sizes = [0, 2048]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      // The last partial chunk of each pass peeled (static sizes): the threads' tiles of 4
      // are then static in it too where its length is a multiple of 4.
      %chunk_loops = transform.merge_handles %norm_loop, %red_loop : !transform.any_op
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
      // Thread t owns elements 4t..4t+3 of each chunk (tile sizes, not a number of threads:
      // a short last chunk keeps the same owners, its threads past the end idle): the
      // epilogue's and the partials' tiles, main and peeled chunks alike.
      %chunk_ops = transform.structured.match ops{["linalg.generic"]} in %f4
        : (!transform.any_op) -> !transform.any_op
      %chunk_t, %chunk_forall = transform.structured.tile_using_forall %chunk_ops tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_sum, %pfill_sq = transform.split_handle %pfill
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill_sq "layernorm.sq" : !transform.any_op
      %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // The 2048 partials: each thread first combines its 4 (registers), then the block's 512.
      %pfill4, %part4, %comb4, %comb_forall = transform.structured.tile_reduction_using_forall %comb
          by num_threads = [0, 512], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %pfill4_sum, %pfill4_sq = transform.split_handle %pfill4
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %pfill4_sum "layernorm.sum" : !transform.any_op
      transform.annotate %pfill4_sq "layernorm.sq" : !transform.any_op
      %pfill4_t, %pfill4_forall = transform.structured.tile_using_forall %pfill4 num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Partials across the block: per-thread gpu.all_reduce (warp shuffles); every thread
      // combines the result with the row's init (merge_in_threads: no merge by thread 0).
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
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %f4
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
      // Four blocks of 512 per SM (all 64 warps): at most 32 registers a thread (39 without).
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
