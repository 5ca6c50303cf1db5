// Row layer normalization on the GPU (two row reductions and an elementwise epilogue, see
// examples/layernorm_cuda.mlir): each block takes 8 rows and fuses both reductions and
// their fills into its tile (the row sums are block buffers, placed in shared memory);
// inside a block each row reduction runs on one thread along y, and the epilogue on 8x32
// threads (num_threads, so the odd row length is split statically), columns on
// threadIdx.x. A gpu.barrier follows every thread-level loop.
// Payload: examples/layernorm_cuda.mlir (fill, reduce, fill, reduce, elementwise).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill_sum, %sum, %fill_sq, %sq, %norm = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                !transform.any_op, !transform.any_op)

    // Blocks: 8 rows each.
    %norm_b, %forall = transform.structured.tile_using_forall %norm tile_sizes [8]
        (mapping = [#gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sq_b, %f1 = transform.structured.fuse_into_containing_op %sq into %forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sq_b, %f2 = transform.structured.fuse_into_containing_op %fill_sq into %f1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sum_b, %f3 = transform.structured.fuse_into_containing_op %sum into %f2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sum_b, %f4 = transform.structured.fuse_into_containing_op %fill_sum into %f3
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Threads: the epilogue on 8x32 threads, the reductions one row per thread along y.
    %norm_t, %norm_forall = transform.structured.tile_using_forall %norm_b num_threads [8, 32]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %red = transform.merge_handles %fill_sum_b, %sum_b, %fill_sq_b, %sq_b : !transform.any_op
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
