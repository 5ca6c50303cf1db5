// f16 x f16 -> f16 matmul with f32 accumulation on Hopper's tensor cores (sm_90a): the
// schedule of matmul_f16_ring_cuda.mlir (see there: TMA ring of `stages` buffers, one
// warpgroup of wgmma m64n<block_n>k16 into f32 accumulators in registers, edge tiles of
// sizes the tiles do not divide loaded whole with TMA's zero fill and stored under
// bounds), for the payload's f32 matmul followed by an elementwise linalg.generic of
// arith.truncf into the f16 result (upstream style: linalg.matmul accumulates in its
// output's type, so f32 accumulation with an f16 result is a matmul into f32 and a
// conversion). The conversion is tiled to the blocks with the matmul and its fill fused
// in; the wgmma rewrite (transform.schedir.nvgpu.rewrite_matmul_as_wgmma) then stores the
// accumulators rounded to f16 (round to nearest even, as arith.truncf) straight from the
// registers into the f16 output, and the block's f32 temporary and the generic are gone.
// Limits: K >= 64; K or N no multiple of 8 (rows of no multiple of 16 bytes, which TMA
// cannot describe) runs with the host staging A or B into padded rows.
// Knobs: block_m, block_n, stages (as matmul_f16_ring_cuda.mlir).
// Payload: examples/matmul_f16_f16out_cuda.mlir (fill + matmul into f32 + truncf generic).
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
    // The conversion to f16 is tiled to the blocks, the matmul and its fill fused in:
    // the block's f32 accumulator tile becomes a temporary the wgmma rewrite stores
    // through (rounded) into the f16 output instead.
    %cvt = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %cvt_b, %forall_b = transform.structured.tile_using_forall %cvt tile_sizes [%bm, %bn]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_b, %forall_b0 = transform.structured.fuse_into_containing_op %mm into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b1 = transform.structured.fuse_into_containing_op %fill into %forall_b0
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
