// relu(A * B + bias) on the GPU in the style of reference schedule (b): the epilogue is
// tiled into 64x32 blocks (#gpu.block<y>, #gpu.block<x>) with the matmul and its fill
// fused in; inside a block 8x32 threads each own a 8x1 strip (num_threads, so the partial
// tiles of odd sizes stay statically mapped), columns on threadIdx.x for coalesced loads
// of B and stores of the result; the matmul's reduction runs in 16-wide k steps. The
// per-thread 8x1 accumulator is a private buffer (registers or local memory).
// Payload: examples/matmul_bias_relu_cuda.mlir (fill + matmul + one epilogue generic).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %ew = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op

    // Blocks: 64x32 tiles of the result.
    %ew_b, %forall_b = transform.structured.tile_using_forall %ew tile_sizes [64, 32]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_b, %forall_b1 = transform.structured.fuse_into_containing_op %mm into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b2 = transform.structured.fuse_into_containing_op %fill into %forall_b1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Threads: 8x32 per block, an 8x1 strip each.
    %ew_t, %forall_t = transform.structured.tile_using_forall %ew_b num_threads [8, 32]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_t, %forall_t1 = transform.structured.fuse_into_containing_op %mm_b into %forall_t
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %forall_t2 = transform.structured.fuse_into_containing_op %fill_b into %forall_t1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Sequential reduction loop inside each thread.
    %mm_k, %k_loop = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, 16]
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
    transform.apply_cse to %func_g : !transform.any_op
    transform.apply_patterns to %func_g {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
