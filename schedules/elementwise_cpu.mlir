// An elementwise chain on the CPU, fused into one loop nest: the last linalg.generic is
// tiled into 4x128 blocks (scf.forall, run as loops on the CPU) and its producer fused
// into each block, so the intermediate never goes to memory; both are vectorized to
// vector<4x128xf32> (masked where a block at the border is partial, so any shape works)
// and exp is the polynomial of math.polynomial_approximation, so it vectorizes instead
// of calling expf per lane.
// Any static pair of 2-D elementwise linalg.generic ops, the first feeding the second.
// Payload: examples/elementwise_cpu.mlir (2048x2048, swish(a * b + c)).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %ops = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %producer, %consumer = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // 4x128 blocks of the result, the producer fused into each.
    %consumer_t, %loop = transform.structured.tile_using_forall %consumer tile_sizes [4, 128]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %producer_t, %loop1 = transform.structured.fuse_into_containing_op %producer into %loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    // Vectors of the block size (masked on partial blocks). The ops are matched again: the
    // clean-up above may rebuild the loop (a single-iteration dimension is dropped) and
    // upstream's handles do not follow ops moved into a new loop.
    %tiles = transform.structured.match ops{["linalg.generic"]} in %func
      : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %tiles vector_sizes [4, 128] : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
      transform.apply_patterns.vector.lower_masked_transfers
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    %root_b = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root
        <{bufferize_function_boundaries = true}>
      : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{["func.func"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.math.polynomial_approximation
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
