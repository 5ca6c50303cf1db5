// Elementwise chains on the GPU: the last linalg.generic is tiled into 4x128 blocks
// (#gpu.block<y>, #gpu.block<x>) and every producer generic is fused into the block
// tiles; each block then runs 4x128 threads, one element per thread (num_threads, so
// partial tiles at the edges stay statically mapped), columns on threadIdx.x for
// coalesced accesses. Bufferization, then the foralls become the grid and the threads.
// Payload: examples/elementwise_cuda.mlir (two generics; any chain ending in one).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %generics = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %producers, %last = transform.split_handle %generics overflow_result = 0
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Blocks: 4x128 tiles of the result.
    %last_b, %blocks = transform.structured.tile_using_forall %last tile_sizes [4, 128]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %producers_b, %blocks2 = transform.structured.fuse_into_containing_op %producers into %blocks
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Threads: 4x128 per block, one element each.
    %last_t, %threads = transform.structured.tile_using_forall %last_b num_threads [4, 128]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %producers_t, %threads2 = transform.structured.fuse_into_containing_op %producers_b into %threads
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

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
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [128, 4, 1]
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
