// f16 x f16 -> f32 matmul on Hopper's tensor cores (sm_90a): each block computes a
// block_m x block_n tile of C with one warpgroup (128 threads); per 64-wide k step,
// thread 0 loads the A (block_m x 64) and B (64 x block_n) tiles into shared memory with
// TMA (128B-swizzled boxes: A in one, B in one 64 x 64 box per 64 columns, the boxes one
// after another), and the warpgroup multiplies them with wgmma (m64n<block_n>k16,
// block_m / 64 x 4 instructions per step) into f32 accumulators that stay in registers
// across the k loop; a ring of `stages` tile buffers in dynamic shared memory with
// full/empty mbarriers keeps the loads stages - 1 steps ahead of the MMAs; after the loop
// each thread stores its accumulators to C.
// Steps: tile the matmul to blocks (#gpu.block<y>, #gpu.block<x>) with the fill fused,
// tile the block's reduction by 64, bufferize, promote the A and B tiles into
// #gpu.address_space<workgroup> buffers (linalg.copy from global memory), map the blocks
// to a gpu.launch of 128 threads, fold the subviews of subviews (the copies then read
// subviews of the arguments, whose offsets become TMA coordinates), rewrite the copies
// as TMA loads (transform.nvgpu.rewrite_copy_as_tma, 128B swizzle: 64 f16 = one 128-byte
// row, wider rows in 64-column chunks), the matmul as wgmma
// (transform.schedir.nvgpu.rewrite_matmul_as_wgmma, which erases the zero fill: the
// accumulators start at zero) and pipeline the k loop into the ring
// (transform.schedir.nvgpu.pipeline_tma_ring). Kernels that use wgmma compile for
// sm_90a. The TMA descriptors are built on the host at each call
// (cuTensorMapEncodeTiled) and passed to the kernel in global memory.
// Sizes the tiles do not divide: the edge tiles' copies load whole boxes (TMA zero-fills
// what lies past the tensors, so an edge k adds zeros) and the store of C is bounded
// (masked stores: only the rows and columns inside C). TMA needs 16-byte global row
// strides: where K or N is no multiple of 8 the host stages A or B into rows of a 16-byte
// pitch before the launch (schedir/gpu/host.py); K >= 64 (a smaller K makes promotion
// allocate tiles narrower than the 128-byte rows: a diagnostic at the copy).
// Knobs: block_m (rows of C per block: block_m / 64 m64 MMAs per k16), block_n (columns:
// the wgmma's N) and stages (1: no ring; 3 measured fastest on the H200 at 4096^3 and
// 8192^3), with block_m * block_n / 128 <= 128 accumulator registers per thread (64x256
// and 128x128 at most) and the ring within the block's shared memory.
// Payload: examples/matmul_f16_ring_cuda.mlir (linalg.fill + linalg.matmul); for an f16
// result see matmul_f16_f16out_cuda.mlir.
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
