// Row layer normalization on the CPU (two row reductions and an elementwise epilogue,
// see examples/layernorm_cpu.mlir): all five ops (two fills, the row sum, the row sum of
// squared deviations, the epilogue) are fused into one loop over the rows (scf.forall
// with one row per iteration, run as a loop on the CPU), so each row is read from memory
// once and stays in L1 for its three passes. Along the row every pass runs on 64-wide
// vectors: the reductions keep a vector<1x64xf32> partial sum (tile_reduction_using_for,
// hoisted into loop-carried registers) reduced across lanes once per row; the per-row
// mean and 1/sqrt(var + eps) are loop invariants of the epilogue loop.
// Any static payload of that shape whose rows are a multiple of 64 long.
// Payload: examples/layernorm_cpu.mlir (4096x1024).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill_sum, %sum, %fill_sq, %sq, %norm = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                !transform.any_op, !transform.any_op)
    // One row per iteration, everything fused into it.
    %norm_r, %rows = transform.structured.tile_using_forall %norm tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sq_r, %f1 = transform.structured.fuse_into_containing_op %sq into %rows
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sq_r, %f2 = transform.structured.fuse_into_containing_op %fill_sq into %f1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sum_r, %f3 = transform.structured.fuse_into_containing_op %sum into %f2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sum_r, %f4 = transform.structured.fuse_into_containing_op %fill_sum into %f3
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Along the row: 64-wide partial sums and a 64-wide epilogue.
    %s_fill, %s_part, %s_comb, %s_loop =
        transform.structured.tile_reduction_using_for %sum_r by tile_sizes = [0, 64]
      : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %q_fill, %q_part, %q_comb, %q_loop =
        transform.structured.tile_reduction_using_for %sq_r by tile_sizes = [0, 64]
      : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %norm_c, %cols = transform.structured.tile_using_for %norm_r tile_sizes [0, 64]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
    transform.apply_patterns to %func_b {
      transform.apply_patterns.vector.reorder_multi_reduction_dims lowering_strategy = innerreduction
      transform.apply_patterns.vector.multi_reduction_flattening lowering_strategy = innerreduction
      transform.apply_patterns.vector.multi_reduction_unrolling lowering_strategy = innerreduction
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
