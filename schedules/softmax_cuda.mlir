// Row softmax on the GPU, one row per block: linalg.softmax is decomposed into max-reduce /
// exp / sum-reduce / div and all four are fused into the row's block (#gpu.block<x>); the
// row's exponentials (8192 f32 = 32 KiB for 8192-wide rows), its maximum and its sum are
// block buffers, placed in shared memory, so x is read once and y written once. Inside a
// block 256 threads (#gpu.thread<x>): the parallel ops split the row into 256 contiguous
// pieces (num_threads, so odd row lengths are split statically; chunks of 256 in an
// scf.for, one element per thread, measured 13x slower); each reduction is tiled with
// tile_reduction_using_forall over the 256 threads, cyclically (tile_sizes [0, 1], so a
// warp reads 32 consecutive elements at a time), into 256 partial results in shared
// memory, which one thread combines. A gpu.barrier follows every thread-level loop.
// Payload: examples/softmax_cuda.mlir (any linalg.softmax over dimension 1 of a 2-D tensor).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %decomposed = transform.structured.decompose_interface %sm
      : (!transform.any_op) -> !transform.any_op
    %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill_max, %max, %exp, %fill_sum, %sum, %div = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                !transform.any_op, !transform.any_op, !transform.any_op)

    // Blocks: 8 rows each.
    %div_b, %forall = transform.structured.tile_using_forall %div tile_sizes [1]
        (mapping = [#gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sum_b, %f1 = transform.structured.fuse_into_containing_op %sum into %forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sum_b, %f2 = transform.structured.fuse_into_containing_op %fill_sum into %f1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %exp_b, %f3 = transform.structured.fuse_into_containing_op %exp into %f2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %max_b, %f4 = transform.structured.fuse_into_containing_op %max into %f3
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_max_b, %f5 = transform.structured.fuse_into_containing_op %fill_max into %f4
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Threads: parallel ops on 8x32 threads; reductions (and their fills) one row per
    // thread along y.
    %par = transform.merge_handles %exp_b, %div_b : !transform.any_op
    %par_t, %par_forall = transform.structured.tile_using_forall %par num_threads [0, 256]
        (mapping = [#gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fills = transform.merge_handles %fill_max_b, %fill_sum_b : !transform.any_op
    %fills_t, %fills_forall = transform.structured.tile_using_forall %fills num_threads [1]
        (mapping = [#gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %red = transform.merge_handles %max_b, %sum_b : !transform.any_op
    %pfill, %part, %comb, %red_forall = transform.structured.tile_reduction_using_forall %red
        by num_threads = [0, 256], tile_sizes = [0, 1], mapping = [#gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // The partial results' initial values, one per thread (filled by all threads at once,
    // they would race with the partial reductions).
    %pfill_t, %pfill_forall = transform.structured.tile_using_forall %pfill num_threads [0, 256]
        (mapping = [#gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The combining reductions (256 partials each) on one thread: a read-modify-write of
    // the block's result by every thread would race.
    %comb_t, %comb_forall = transform.structured.tile_using_forall %comb num_threads [1]
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
    } : !transform.any_op
    transform.apply_cse to %func_g : !transform.any_op
    transform.yield
  }
}
