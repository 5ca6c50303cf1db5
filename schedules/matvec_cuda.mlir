// Matrix-vector product y = A x on the GPU, structured as rowsum_cuda: one row of A per
// block (#gpu.block<x>), T threads (#gpu.thread<x>) accumulating per-thread partial dot
// products over the row in chunks of T (tile_reduction_using_for, one shared-memory slot
// per thread; x is read from L2 by every block), the T partials reduced across the block
// by transform.schedir.gpu.reduce_to_all_reduce (gpu.all_reduce: shfl.sync butterflies
// and one exchange of the warp results through shared memory), and thread 0 writing y[i].
// Knob "threads" (tune.alternatives, a region per block size): region 5 (chunks of four,
// below) selected.
// Measured on the H200 at 8192^2 (same run, copy 4.08 TB/s): 512 threads 0.074 ms
// (0.89x copy), 256 and 1024 0.075; torch.compile 0.068 ms, eager 0.100 ms.
// Payload: examples/matvec_cuda.mlir (fill + linalg.matvec, any size).
// Region 3 of the knob (pieces, not measured yet): 512 threads, thread t reducing the
// contiguous piece t of the row (and of x) (tile_reduction_using_forall num_threads [0, 512]);
// static pieces (N a multiple of 512) are vectorized: at 8192 columns four
// ld.global.v4 per thread and operand, all in flight before the thread's sum; the
// partials are reduced as in the other regions.
// Region 4 (warps): a row per block of one warp, as rowsum's region 4: lane l adds the
// products of 4 adjacent elements of each chunk of 128 (16-byte loads of the row and of x)
// in registers, one gpu.subgroup_reduce per row; up to 32 blocks per SM share x through
// L1 (a row per 512-thread block reads x from L2 in every block). Measured (H200,
// 2026-11-29 01:28 run, copy 4.12 TB/s) at 8192^2: 0.074 ms (0.88x copy) against the
// default's 0.073 (0.90x); pieces 0.086, Triton 0.080, torch eager 0.097.
// Region 5 (chunks of four): 512 threads, the row in chunks of 2048, thread t owning the 4
// adjacent floats 4t..4t+3 of each chunk of the row and of x (one ld.global.v4 of each a
// chunk: a warp reads 512 contiguous bytes), the chunk loop unrolled (at 8192 columns 4
// ld.global.v4 of the row and 4 of x per thread, all issued before the first is used; 34
// registers, no spills), the partials in registers (forward_reads), each thread's 4
// combined before the block's all-reduce. The chunk loop's last partial chunk is peeled
// (static) and the threads' tiles are 4 wide (tile sizes, not a number of threads): at 1000
// columns thread t < 250 loads elements 4t..4t+3 with one ld.global.v4 of the row and of x
// (the other threads idle); a remainder no multiple of 4 (1001) stays scalar.
// Measured on the H200 (2026-11-29 03:53, one process, benchmarks/gpu.py's cases and
// timer, copy 4.15 TB/s; three rounds of 8 at 8192^2, the first one's schedir rows lost to
// the log's length): region 5 0.0720 and 0.0723 ms (0.90x copy), 1024 threads 0.0720 and
// 0.0714, 512 threads (the old default) 0.0735 and 0.0741, 256 0.0758 and 0.0752, warps
// 0.0744 and 0.0750; Triton 0.0768, 0.0744, 0.0754; eager 0.099. At 8191x1000: region 5
// 0.0271 ms, 512 threads 0.0294, 1024 0.0496, warps 0.0230, eager 0.0236, Triton 0.0424.
// Region 5 is selected: faster than the 512-thread region at both sizes (1024 threads
// is as fast at 8192^2 but 1.8x slower at 1000 columns). A hand-written CUDA matvec of
// the same layout (float4 loads, one row per 512-thread block, y written once by lane 0)
// took 0.0699 ms in the same run (3.84 TB/s of reads): region 5 also stores the fill's 0
// to y[i] and reads it back after the all-reduce.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %ops = transform.structured.match ops{["linalg.fill", "linalg.matvec"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill, %red = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Blocks: one row each.
    %red_b, %forall = transform.structured.tile_using_forall %red tile_sizes [1]
        (mapping = [#gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %f1 = transform.structured.fuse_into_containing_op %fill into %forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Knob: threads per block (256, 512, 1024; pieces of 512; a warp; chunks of four with
    // 512), one region each.
    transform.tune.alternatives<"threads"> selected_region = 5 {
      // 256 threads: per-thread partials over chunks of 256 (one slot per thread, in
      // shared memory), reduced across the block by warp shuffles; thread 0 writes the row.
      %pfill, %part, %comb, %loop = transform.structured.tile_reduction_using_for %red_b
          by tile_sizes = [0, 256]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_f = transform.structured.tile_using_forall %part num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_f = transform.structured.tile_using_forall %pfill num_threads [0, 256]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b num_threads [1]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
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
      transform.yield
    }, {
      // 512 threads: per-thread partials over chunks of 512 (one slot per thread, in
      // shared memory), reduced across the block by warp shuffles; thread 0 writes the row.
      %pfill, %part, %comb, %loop = transform.structured.tile_reduction_using_for %red_b
          by tile_sizes = [0, 512]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_f = transform.structured.tile_using_forall %part num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_f = transform.structured.tile_using_forall %pfill num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b num_threads [1]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
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
      transform.yield
    }, {
      // 1024 threads: per-thread partials over chunks of 1024 (one slot per thread, in
      // shared memory), reduced across the block by warp shuffles; thread 0 writes the row.
      %pfill, %part, %comb, %loop = transform.structured.tile_reduction_using_for %red_b
          by tile_sizes = [0, 1024]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %part_t, %part_f = transform.structured.tile_using_forall %part num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_f = transform.structured.tile_using_forall %pfill num_threads [0, 1024]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b num_threads [1]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
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
      transform.yield
    }, {
      // Pieces, 512 threads: thread t reduces the contiguous piece t of the row (N/512
      // elements, tile_reduction_using_forall num_threads) into its partial; static
      // pieces are vectorized (16-byte loads, all in flight before the reduction).
      %pfill, %part, %comb, %red_forall = transform.structured.tile_reduction_using_forall %red_b
          by num_threads = [0, 512], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %pfill_t, %pfill_f = transform.structured.tile_using_forall %pfill num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b num_threads [1]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb mapping = [#gpu.thread<x>]
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
      transform.yield
    }, {
      // Warps (region 4): a row per block of one warp (block 32 x 1); the row runs in
      // chunks of 128 (a peeled last chunk), lane l adding the products of the 4 adjacent
      // elements 4l..4l+3 of each chunk of the row and of x (one 16-byte load of each when
      // the rows are 16-byte aligned) into a vector<4xf32> in registers; the lane's 4
      // partials, then the warp's 32, are combined by gpu.subgroup_reduce (shuffles only):
      // no shared exchange, no barrier. Up to 32 blocks per SM: x is read from L1 by
      // most of them.
      %pfill, %part, %comb, %loop = transform.structured.tile_reduction_using_for %red_b
          by tile_sizes = [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %loop_for = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
      transform.sequence %loop_for : !transform.op<"scf.for"> failures(suppress) {
      ^bb0(%l: !transform.op<"scf.for">):
        %main, %rest = transform.loop.peel %l
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
        transform.yield
      }
      %func0 = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func0 {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      // Lane l owns partials 4l..4l+3 in every chunk (tile sizes, not a number of
      // threads: a short last chunk keeps the same owners, its lanes past the end idle).
      %parts = transform.structured.match ops{["linalg.generic"]} in %forall
        : (!transform.any_op) -> !transform.any_op
      %part_t, %part_f = transform.structured.tile_using_forall %parts tile_sizes [1, 4]
          (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_f = transform.structured.tile_using_forall %pfill tile_sizes [1, 4]
          (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b num_threads [1]
          (mapping = [#gpu.thread<y>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sg, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %comb lanes = 32
          mapping = [#gpu.thread<y>, #gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %merge_t, %merge_f = transform.structured.tile_using_forall %merge num_threads [1]
          (mapping = [#gpu.thread<y>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Only the lanes' static tiles become vectors (the tail stays scalar): a vectorized
      // copy of the whole block's partials would run in every thread.
      %tiles = transform.structured.match ops{["linalg.generic"]} in %forall
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
      // Every thread reads only the partials it wrote (and lane 0 its row's): no barrier.
      %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [32, 1, 1]
          sync_after_distribute = false
        : (!transform.any_op) -> !transform.any_op
      %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
        : (!transform.any_op) -> !transform.any_op
      // The lane's accumulator into registers across the chunks (the partials' reads and
      // writes made direct, then hoisted out of the chunk loop).
      transform.apply_patterns to %func_g {
        transform.apply_patterns.memref.fold_memref_alias_ops
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      transform.apply_cse to %func_g : !transform.any_op
      %func_h = transform.structured.hoist_redundant_vector_transfers %func_g
        : (!transform.any_op) -> !transform.any_op
      transform.yield
    }, {
      // Chunks of four (region 5): the row in chunks of 2048 (tile_reduction_using_for:
      // per-thread partials of 2048 floats a row), thread t owning the 4 adjacent floats
      // 4t..4t+3 of each chunk of the row and of x (one ld.global.v4 of each a chunk, a
      // warp's 512 contiguous bytes), the chunk loop unrolled (at 8192 columns the
      // thread's 4 loads of the row are issued back to back) and the partials kept in
      // registers (forward_reads); each thread combines its 4 partials, then the block's
      // 512 are all-reduced and thread 0 writes the row. The last partial chunk is peeled
      // (static), the threads' tiles are 4 wide.
      %pfill, %part, %comb, %loop = transform.structured.tile_reduction_using_for %red_b
          by tile_sizes = [0, 2048]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %loop_for = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
      transform.sequence %loop_for : !transform.op<"scf.for"> failures(suppress) {
      ^bb0(%l: !transform.op<"scf.for">):
        %main, %rest = transform.loop.peel %l
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
        transform.yield
      }
      %func0 = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func0 {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      %parts = transform.structured.match ops{["linalg.generic"]} in %forall
        : (!transform.any_op) -> !transform.any_op
      %part_t, %part_f = transform.structured.tile_using_forall %parts tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill_t, %pfill_f = transform.structured.tile_using_forall %pfill tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b num_threads [1]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // The 2048 partials: each thread first combines its 4 (registers), then the block's 512.
      %pfill4, %part4, %comb4, %comb_f = transform.structured.tile_reduction_using_forall %comb
          by num_threads = [0, 512], tile_sizes = [], mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %pfill4_t, %pfill4_f = transform.structured.tile_using_forall %pfill4 num_threads [0, 512]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %ar, %merge = transform.schedir.gpu.reduce_to_all_reduce %comb4 mapping = [#gpu.thread<x>]
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
      // Each thread's static tiles become vectors (dynamic ones stay scalar loops).
      %tiles = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %forall
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
      // Chunk loops of a static trip count unrolled: every chunk's loads are issued
      // before the first is used.
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
