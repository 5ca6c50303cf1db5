// Row softmax on the CPU: linalg.softmax is decomposed into max-reduce / exp / sum-reduce
// / div, and all four are fused into one loop over the rows (scf.forall with one row per
// iteration, run as a loop on the CPU), so each row is read from memory once and stays in
// L1 for the four passes over it. Inside a row every pass runs on 64-wide vectors: the
// reductions keep a vector<1x64xf32> partial result (tile_reduction_using_for, hoisted
// into loop-carried registers) reduced across lanes once per row; exp is the polynomial
// of math.polynomial_approximation, so it vectorizes instead of calling expf per lane.
// Not yet: decompose_interface writes exp and div into the same destination (as upstream),
// so one-shot-bufferize gives the exp row a buffer of its own, allocated and filled by a
// memref.copy per row (4 KiB, in L1); an in-place div would need neither.
// Any static linalg.softmax over dimension 1 of a 2-D f32 tensor whose rows are a
// multiple of 64 long (any number of rows).
// Payload: examples/softmax_cpu.mlir (4096x1024).
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

    // One row per iteration, everything fused into it.
    %div_r, %rows = transform.structured.tile_using_forall %div tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sum_r, %rows1 = transform.structured.fuse_into_containing_op %sum into %rows
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sum_r, %rows2 = transform.structured.fuse_into_containing_op %fill_sum into %rows1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %exp_r, %rows3 = transform.structured.fuse_into_containing_op %exp into %rows2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %max_r, %rows4 = transform.structured.fuse_into_containing_op %max into %rows3
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_max_r, %rows5 = transform.structured.fuse_into_containing_op %fill_max into %rows4
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Along the row: 64-wide partial reductions and 64-wide elementwise steps.
    %max_init, %max_part, %max_comb, %max_loop =
        transform.structured.tile_reduction_using_for %max_r by tile_sizes = [0, 64]
      : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_init, %sum_part, %sum_comb, %sum_loop =
        transform.structured.tile_reduction_using_for %sum_r by tile_sizes = [0, 64]
      : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %par = transform.merge_handles %exp_r, %div_r : !transform.any_op
    %par_c, %cols = transform.structured.tile_using_for %par tile_sizes [0, 64]
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
    // The partial results leave memory: loop-carried vectors.
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
      transform.apply_patterns.math.polynomial_approximation
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
