// f32 matmul on the GPU: 64x64 output tiles per block (#gpu.block<y>, #gpu.block<x>)
// with the fill fused; 16x16 threads per block, each computing a 4x4 register tile
// (num_threads, so partial tiles of odd sizes stay statically mapped), columns on
// threadIdx.x; the reduction runs in 8-wide k steps inside each thread.
// Not yet: A/B tiles staged in shared memory (needs structured.promote or
// bufferize_to_allocation with a workgroup memory space) and a register-resident
// accumulator across k steps (needs vectorization and hoisting, schedule d).
// Payload: examples/matmul_cuda.mlir (linalg.fill + linalg.matmul).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op

    %mm_b, %forall_b = transform.structured.tile_using_forall %mm tile_sizes [64, 64]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b1 = transform.structured.fuse_into_containing_op %fill into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    %mm_t, %forall_t = transform.structured.tile_using_forall %mm_b num_threads [16, 16]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %forall_t1 = transform.structured.fuse_into_containing_op %fill_b into %forall_t
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    %mm_k, %k_loop = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, 8]
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
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [16, 16, 1]
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
