// relu(A * B + bias) on the GPU: reference schedule (d) scaled up, the matmul's
// accumulator in registers. The epilogue is tiled into 128x128 blocks (#gpu.block<y>,
// #gpu.block<x>) with the matmul and its fill fused in; 16x16 threads per block
// (num_threads, so partial tiles of odd sizes stay statically mapped) each own an 8x8
// tile, columns on threadIdx.x; the reduction runs in 8-wide k steps. Vectorization makes
// each thread's work a vector.contract per k step plus the vector epilogue, and hoisting
// the accumulator's transfers out of the k loop keeps it in registers; bias + relu are
// applied to the registers before the one store. Statically sized thread tiles (e.g.
// 4096^3) are vectorized; odd sizes leave dynamic thread tiles as scalar loops (correct).
// `nvvm.minctasm` = 2 on the launch keeps the kernel at 128 registers, two blocks per SM
// (see matmul_cuda.mlir; 4096^3 on the H200: 17.1 TFLOP/s without, 32.9 with).
// Not yet: A/B tiles in shared memory (see matmul_cuda.mlir).
// Payload: examples/matmul_bias_relu_cuda.mlir (fill + matmul + one epilogue generic).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %ew = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op

    %ew_b, %forall_b = transform.structured.tile_using_forall %ew tile_sizes [128, 128]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_b, %fb1 = transform.structured.fuse_into_containing_op %mm into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %fb2 = transform.structured.fuse_into_containing_op %fill into %fb1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    %ew_t, %forall_t = transform.structured.tile_using_forall %ew_b num_threads [16, 16]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_t, %ft1 = transform.structured.fuse_into_containing_op %mm_b into %forall_t
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %ft2 = transform.structured.fuse_into_containing_op %fill_b into %ft1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    %mm_k, %k_loop = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, 8]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %func_v
      : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.apply_patterns to %func_v {
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
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [16, 16, 1]
      : (!transform.any_op) -> !transform.any_op
    %ctas = transform.param.constant 2 : i32 -> !transform.param<i32>
    transform.annotate %mapped "nvvm.minctasm" = %ctas : !transform.any_op, !transform.param<i32>
    %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_g {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_g : !transform.any_op
    transform.yield
  }
}
