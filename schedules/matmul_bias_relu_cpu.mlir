// f32 matmul + bias + relu on the CPU: the epilogue is tiled into 64x64 output blocks
// (scf.forall, run as loops on the CPU) and the matmul and its fill are fused into each
// block, so the matmul result never leaves the block's buffer (64x64, L1/L2). The matmul
// is then scheduled as schedules/matmul_cpu.mlir does (k blocks of 64, 8x32 register
// tiles accumulated as vector<8x32xf32> over k, contraction lowered to FMAs) and the
// epilogue runs on 8x32 vectors (bias broadcast along the rows, maximumf with 0).
// Any static fill + linalg.matmul + bias/relu linalg.generic with M, N, K multiples of 64.
// Payload: examples/matmul_bias_relu_cpu.mlir (1024x1024x1024).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %epilogue = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op

    // Output blocks of 64x64; the matmul and the fill are fused into them.
    %epilogue_b, %blocks = transform.structured.tile_using_forall %epilogue tile_sizes [64, 64]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_b, %blocks1 = transform.structured.fuse_into_containing_op %mm into %blocks
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %blocks2 = transform.structured.fuse_into_containing_op %fill into %blocks1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // The matmul: k blocks of 64, 8x32 register tiles, one k at a time.
    %mm_k, %k_blocks = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, 64]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_r, %rows, %cols = transform.structured.tile_using_for %mm_k tile_sizes [8, 32, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm_1, %k_loop = transform.structured.tile_using_for %mm_r tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The epilogue: 8x32 vectors.
    %epilogue_r, %erows, %ecols = transform.structured.tile_using_for %epilogue_b
        tile_sizes [8, 32]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)

    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op

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

    %root_b = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root
        <{bufferize_function_boundaries = true}>
      : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{["func.func"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    %func_h = transform.structured.hoist_redundant_vector_transfers %func_b
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_h {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_transpose
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
