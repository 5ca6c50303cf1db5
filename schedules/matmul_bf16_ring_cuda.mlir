// bf16 x bf16 -> f32 matmul on Hopper's tensor cores (sm_90a): the same schedule as
// matmul_f16_ring_cuda.mlir (see there for the steps): per 64-wide k step thread 0 loads the
// A (block_m x 64) and B (64 x block_n, in 64-column chunks) bf16 tiles with TMA
// (128B-swizzled: 64 bf16 = one 128-byte row) into a ring of `stages` buffers with
// full/empty mbarriers, and one warpgroup runs wgmma m64n<block_n>k16 .bf16 into f32
// accumulators kept in registers across the k loop, stored to C after it.
// Sizes the tiles do not divide: TMA's zero fill and a bounded store (K and N multiples
// of 8, K >= 64; see matmul_f16_ring_cuda.mlir).
// Knobs: block_m, block_n and stages (3 selected), with block_m * block_n / 128 <= 128
// accumulator registers per thread.
// Payload: examples/matmul_bf16_ring_cuda.mlir (linalg.fill + linalg.matmul).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %bm = transform.tune.knob<"block_m"> = 128 from options = [64, 128] -> !transform.param<i64>
    %bn = transform.tune.knob<"block_n"> = 128 from options = [64, 128, 256] -> !transform.param<i64>
    %stages = transform.tune.knob<"stages"> = 3 from options = [1, 2, 3, 4] -> !transform.param<i64>
    // One warpgroup holds the block's f32 accumulators: block_m * block_n / 128 registers
    // per thread, at most 128 (64x256 or 128x128; 128x256 needs two consumer warpgroups).
    // The ring of A (block_m x 64) and B (64 x block_n) f16 tiles fits the 227 KiB of
    // dynamic shared memory a block may have (less 2 KiB for barriers and alignment).
    transform.smt.constrain_params(%bm, %bn, %stages)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%m: !smt.int, %n: !smt.int, %s: !smt.int):
      %threads = smt.int.constant 128
      %max_acc = smt.int.constant 128
      %tile = smt.int.mul %m, %n
      %acc = smt.int.div %tile, %threads
      %fits = smt.int.cmp le %acc, %max_acc
      smt.assert %fits
      %stage_bytes = smt.int.constant 128
      %max_ring = smt.int.constant 230400
      %rows = smt.int.add %m, %n
      %per_stage = smt.int.mul %rows, %stage_bytes
      %ring = smt.int.mul %per_stage, %s
      %ring_fits = smt.int.cmp le %ring, %max_ring
      smt.assert %ring_fits
    }
    %mm_b, %forall_b = transform.structured.tile_using_forall %mm tile_sizes [%bm, %bn]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b1 = transform.structured.fuse_into_containing_op %fill into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %k_loop = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, 64]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    %root_b = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root
        <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    %mm_kb = transform.structured.match ops{["linalg.matmul"]} in %root_b : (!transform.any_op) -> !transform.any_op
    %mm_p = transform.structured.promote %mm_kb <{operands_to_promote = [0, 1],
        memory_space = #gpu.address_space<workgroup>}> : (!transform.any_op) -> !transform.any_op
    %func_p = transform.structured.match ops{["func.func"]} in %root_b : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_p {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_p : !transform.any_op
    %launch = transform.gpu.map_forall_to_blocks %func_p generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [128, 1, 1] : (!transform.any_op) -> !transform.any_op
    %func_m = transform.get_parent_op %mapped <{op_name = "func.func"}> : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_m {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %copies = transform.structured.match ops{["linalg.copy"]} in %func_m : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm_s = transform.structured.match ops{["linalg.matmul"]} in %func_m : (!transform.any_op) -> !transform.any_op
    %wgmma = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm_s : (!transform.any_op) -> !transform.any_op
    %ring = transform.schedir.nvgpu.pipeline_tma_ring %wgmma stages = %stages
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}
