// f32 matmul on the CPU (AVX-512 or AVX2 through LLVM): the fill is fused into 64x64
// output blocks (scf.forall, run as loops on the CPU); inside a block the reduction runs
// in 64-deep k blocks (the B block stays in L2) and each 8x32 register tile of C is
// accumulated over its k block as a vector<8x32xf32> loop-carried value: per k step one
// row of B (two 16-wide loads), eight broadcasts of A and sixteen FMAs (the contraction
// lowered to outer products, then to vector.fma). hoist_redundant_vector_transfers after
// bufferization keeps the accumulator in registers across the k loop.
// Any static linalg.matmul (with its fill) whose M, N and K are multiples of 64.
// Payload: examples/matmul_cpu.mlir (linalg.fill + linalg.matmul, 1024x1024x1024).
// Knobs (schedir-tune searches them; `selected` is the hand-picked choice above): the
// cache block of C (block_m x block_n), the k block (block_k) and the register tile
// (reg_m x reg_n). Register tiles that do not divide the block stay scalar loops (slow,
// still correct), so the constraint at the end keeps only those that do.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op

    %bm = transform.tune.knob<"block_m"> = 64 from options = [32, 64, 128, 256]
      -> !transform.param<i64>
    %bn = transform.tune.knob<"block_n"> = 64 from options = [32, 64, 128, 256]
      -> !transform.param<i64>
    %bk = transform.tune.knob<"block_k"> = 64 from options = [32, 64, 128, 256]
      -> !transform.param<i64>
    %rm = transform.tune.knob<"reg_m"> = 8 from options = [2, 4, 8, 16]
      -> !transform.param<i64>
    %rn = transform.tune.knob<"reg_n"> = 32 from options = [16, 32, 64]
      -> !transform.param<i64>

    // Cache blocks: 64x64 of C (the fill with them), k in blocks of 64.
    %mm_b, %blocks = transform.structured.tile_using_forall %mm tile_sizes [%bm, %bn]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
      -> (!transform.any_op, !transform.any_op)
    %fill_b, %blocks1 = transform.structured.fuse_into_containing_op %fill into %blocks
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %k_blocks = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, %bk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    // Register tiles: 8x32 of C, one k at a time.
    %mm_r, %rows, %cols = transform.structured.tile_using_for %mm_k tile_sizes [%rm, %rn, 0]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
      -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %mm_1, %k_loop = transform.structured.tile_using_for %mm_r tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op

    // Vectorize: the matmul tile becomes a vector.contract, the fill a transfer_write.
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    // The accumulator's read/write pair leaves the k loop (tensor level).
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
    // Whatever still reads and writes C around a loop does it once (memref level).
    %func_h = transform.structured.hoist_redundant_vector_transfers %func_b
      : (!transform.any_op) -> !transform.any_op

    // vector.contract -> outer products -> FMAs on 1-D rows; transfers to 1-D loads.
    transform.apply_patterns to %func_h {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_transpose
      transform.apply_patterns.canonicalization
    } : !transform.any_op

    // The register tile divides the cache block (a remainder would stay scalar loops):
    // block_m mod reg_m = 0 and block_n mod reg_n = 0. schedir-tune never builds a point
    // that breaks it; schedir-run fails with a diagnostic if the selection does.
    transform.smt.constrain_params(%bm, %bn, %rm, %rn)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> () {
    ^bb0(%m: !smt.int, %n: !smt.int, %r_m: !smt.int, %r_n: !smt.int):
      %c0 = smt.int.constant 0
      %rem_m = smt.int.mod %m, %r_m
      %rem_n = smt.int.mod %n, %r_n
      %m_ok = smt.eq %rem_m, %c0 : !smt.int
      %n_ok = smt.eq %rem_n, %c0 : !smt.int
      smt.assert %m_ok
      smt.assert %n_ok
    }
    transform.yield
  }
}
