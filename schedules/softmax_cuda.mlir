// Row softmax on the GPU, schedule (c) of the reference made GPU-ready: linalg.softmax is
// decomposed into max-reduce / exp / sum-reduce / div; each block takes 8 rows and fuses
// all of them (the row maxima, the exponentials and the sums are block buffers, placed in
// shared memory); inside a block the parallel ops run on 8x32 threads (num_threads, so
// the odd row length is split statically) and each row reduction on one thread of y.
// A gpu.barrier follows every thread-level loop.
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
    %div_b, %forall = transform.structured.tile_using_forall %div tile_sizes [8]
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
    %par_t, %par_forall = transform.structured.tile_using_forall %par num_threads [8, 32]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %red = transform.merge_handles %fill_max_b, %max_b, %fill_sum_b, %sum_b : !transform.any_op
    %red_t, %red_forall = transform.structured.tile_using_forall %red num_threads [8]
        (mapping = [#gpu.thread<y>])
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
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [32, 8, 1]
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
