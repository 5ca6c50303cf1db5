// f32 matmul on the GPU with a register-resident accumulator (schedule (d) of the
// reference, scaled up): 128x128 output tiles per block (#gpu.block<y>, #gpu.block<x>)
// with the fill fused; 16x16 threads per block (num_threads, so partial tiles of odd sizes
// stay statically mapped), each computing an 8x8 tile, columns on threadIdx.x; the
// reduction runs in 16-wide k steps. Vectorization turns each thread's tile into a
// vector.contract per k step, and hoisting the accumulator's transfer_read/transfer_write
// out of the k loop keeps the 8x8 accumulator in registers (64 of them) across k: A and
// B are read straight from global memory through L1, 16 bytes at a time where the sizes
// make the rows 16-byte aligned (the kernel's pointer arguments carry `align 16`).
// `nvvm.minctasm` = 2 (annotated on the launch) caps the kernel at 128 registers so that
// two blocks share an SM: without it ptxas takes 161 and one block per SM ran at half
// the speed on the H200 (4096^3: 16.7 TFLOP/s uncapped, 31.7 capped with 8-wide k steps,
// 34.4 with 16-wide ones; cuBLAS 51.4).
// Statically sized thread tiles (shapes that the tiles divide, e.g. 4096^3) are
// vectorized; at odd sizes the thread tiles are dynamic, stay scalar loops and are still
// correct.
// matmul_smem_cuda.mlir stages the A/B tiles in shared memory (promote after
// bufferization, copies tiled over the threads on buffers) and is faster at 4096^3.
// Knobs (schedir-tune searches them; `selected` is the choice above): the block tile of
// C (block_m x block_n) and the k step (block_k); the threads stay 16x16 (block_dims is
// a static attribute upstream).
// Payload: examples/matmul_cuda.mlir (linalg.fill + linalg.matmul).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %bm = transform.tune.knob<"block_m"> = 128 from options = [32, 64, 128, 256] -> !transform.param<i64>
    %bn = transform.tune.knob<"block_n"> = 128 from options = [32, 64, 128, 256] -> !transform.param<i64>
    %bk = transform.tune.knob<"block_k"> = 16 from options = [4, 8, 16, 32] -> !transform.param<i64>
    %mm_b, %forall_b = transform.structured.tile_using_forall %mm tile_sizes [%bm, %bn]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b1 = transform.structured.fuse_into_containing_op %fill into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_t, %forall_t = transform.structured.tile_using_forall %mm_b num_threads [16, 16]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %forall_t1 = transform.structured.fuse_into_containing_op %fill_b into %forall_t
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %k_loop = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, %bk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %func_v : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %root_b = transform.apply_registered_pass "one-shot-bufferize"
        with options = {"bufferize-function-boundaries" = true,
                        "function-boundary-type-conversion" = "identity-layout-map"} to %root
      : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{["func.func"]} in %root_b : (!transform.any_op) -> !transform.any_op
    %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [16, 16, 1] : (!transform.any_op) -> !transform.any_op
    %ctas = transform.param.constant 2 : i32 -> !transform.param<i32>
    transform.annotate %mapped "nvvm.minctasm" = %ctas : !transform.any_op, !transform.param<i32>
    %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}> : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_g {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_g : !transform.any_op
    transform.yield
  }
}
