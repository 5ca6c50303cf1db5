// Row softmax of an f16 matrix on the GPU with f32 math, scheduled as softmax_cuda (whose
// comment explains the structure): the payload is already decomposed (row max, exp, row
// sum, division), so the six ops are matched directly; x is read as f16 and widened in
// each op that reads it (max, and exp cloned into the sum and the division), the partials
// (and the row max and sum each thread publishes in its slot) are f32 in shared memory, y
// is narrowed to f16 where it is written.
// One row per block. Rows in registers (regions 0-2 of the knob "threads", T = 256, 512
// selected, 1024): thread t owns the contiguous piece t of the row in every pass; static
// pieces are vectors (16 halves: two ld.global.v4 per thread at 8192 columns and 512
// threads), and transform.schedir.gpu.forward_reads makes the sum's and the division's
// reads of x the max's. Chunks (region 3): per-thread partials over chunks of 512, x
// re-read by each pass. The partials are reduced across the block by
// transform.schedir.gpu.reduce_to_all_reduce (shfl.sync), each thread combining the result
// with the row's init (merge_in_threads) and forward_reads making the readers' loads of the
// published value the value each thread holds: one barrier per reduction where the reads
// are vector transfers (the static pieces), two where they stay in shared memory.
// Payload: examples/softmax_f16_cuda.mlir (fill, max, exp, fill, sum, div over rows).
// A row within one chunk (T elements or fewer) works in every region.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
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

    // Knob: rows in registers with 256, 512 or 1024 threads per block, or chunks of 512
    // (one region each: block_dims is static).
    transform.tune.alternatives<"threads"> selected_region = 1 {
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
    }
    transform.yield
  }
}
