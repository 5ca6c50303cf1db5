// f32 matmul on the CPU (AVX2/AVX-512 through LLVM), the GotoBLAS loop nest:
//   for each block of block_n columns of C:
//     for each block of block_m rows (the fill zeroes this block of C, fused into it):
//       for each k block of block_k:
//         pack A[block rows, k block] (block_m x block_k, contiguous);
//         for each panel of reg_n columns of the block:
//           pack B[k block, panel] (block_k x reg_n, contiguous, on the stack, in L1);
//           for each reg_m rows of the block:
//             micro-kernel: a reg_m x reg_n register tile of C accumulated over the k block.
// The micro-kernel is a vector.contract lowered to outer products, then to vector.fma:
// per k step one row of the packed B panel (reg_n/16 full-width loads on AVX-512),
// reg_m broadcasts of A and reg_m * reg_n / 16 FMAs; the accumulator's transfers are
// hoisted out of the k loop (hoist_redundant_vector_transfers, after the subviews are
// folded into the transfers), so it lives in registers across the whole k block.
// The default 6x64 uses 24 of AVX-512's 32 zmm registers for accumulators, 4 for the
// row of B and 1 for the broadcast of A (two FMA pipes of latency 4 need at least 8
// independent accumulators). On AVX2 (16 ymm registers) it would spill: 6x16 (12
// accumulators) is AVX2's tile, which benchmarks/cpu.py selects on hosts without AVX-512.
// Why each piece (at 1024^3 the rows of A, B and C are 4 KiB apart: a page each, and all
// in the same few L1 sets):
// - packing B keeps the micro-kernel's B stream contiguous and in L1;
// - packing A spreads the reg_m rows the micro-kernel reads over the L1 sets;
// - blocks of C outside the k loop (with the fill fused into them) keep the block of C
//   the micro-kernels load and store in the cache, just zeroed, instead of in memory;
// - both packing copies run one row at a time: a whole block_k x reg_n copy as one
//   vector does not fit the registers and goes through the stack.
// Any static linalg.matmul with its fill: where a tile size does not divide its
// dimension (512 = 85 * 6 + 2 rows in a 512-row block), the last, partial tile of that
// loop is peeled into a static tile of its own, vectorized like the others.
// The selected blocks (measured at 1024^3 on a Zen 3, thread clock, against numpy's
// single-threaded OpenBLAS in the same process; a sampling profile of the kernel split
// its time into micro-kernel and the passes around it): what costs outside the
// micro-kernel is the number of passes over C (the 6 rows of a register tile are 4 KiB
// apart, their loads and stores miss: K / block_k passes), over A (its packing, once per
// column block: N / block_n passes) and over B (its panels, packed once per row block:
// M / block_m passes), not whether a block fits L2. So one column block of 1024, k blocks
// of 512 and row blocks of 512 (2 passes over C, 1 over A, 2 over B) beat L2-sized blocks
// (block_n, block_m, block_k) = (512, 256, 256) (4, 2 and 4 passes) by about 6% (0.85x ->
// 0.90x numpy), although the 512 x 512 block of A is in L3 and the 512 x 16 panel of B
// fills L1: the micro-kernel reads each row of both in order, and the hardware
// prefetchers keep up. unroll_k 8 rather than 4 measured about 1% faster, within the
// noise, and compiled 15% slower: 4 is kept.
// The register tile, measured on an AVX-512 Xeon (2 shared cores; benchmarks/cpu.py,
// wall clock, median time, schedir vs numpy's OpenBLAS in the same run, 1024^3, blocks
// 1024/512/512, unroll_k 4; two runs each): 6x64 0.98x to 1.05x numpy (about 190
// GFLOP/s), 4x64 0.96x, 12x32 0.93x to 0.96x, 14x32 0.82x to 0.84x (0.89x with unroll_k
// 8), 6x16 0.68x; with 6x64, unroll_k 2 0.78x and 8 0.99x, block_k 256 0.95x, block_m
// 256 0.94x, block_n 512 0.94x, block_m 1024 0.99x (B's panels packed once instead of
// twice: no measurable gain, nor would packing them once per (k, n) block for all row
// blocks give one). 6x64 reads a whole 64-float row of the B panel (one cache line per zmm)
// per k step and broadcasts only 6 floats of A; 14x32 broadcasts 14 per 2 loads of B.
// Its compile takes about 1 s.
// Payload: examples/matmul_cpu.mlir (linalg.fill + linalg.matmul, 1024x1024x1024).
// Knobs (schedir-tune searches them; `selected`: the blocks are the best found by hand
// on a Zen 3 with AVX2, the register tile AVX-512's, see above and benchmarks/cpu.py):
// the cache blocks (block_n, block_m, block_k), the register tile (reg_m x reg_n), whose reg_n is
// also the width of the packed B panel, and the k steps per iteration of the
// micro-kernel's loop (unroll_k);
// the constraint at the end keeps the register tiles whose accumulators fit AVX-512's
// registers.
module attributes {transform.with_named_sequence} {
  // Peels the last iteration of each loop whose step does not divide its trip; a loop
  // with nothing to peel fails silenceably, and that failure is suppressed.
  transform.named_sequence @peel_each(%loops: !transform.any_op {transform.readonly}) {
    transform.foreach %loops : !transform.any_op {
    ^bb0(%loop: !transform.any_op):
      transform.sequence %loop : !transform.any_op failures(suppress) {
      ^bb1(%l: !transform.any_op):
        %for = transform.cast %l : !transform.any_op to !transform.op<"scf.for">
        %main, %rest = transform.loop.peel %for
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
      }
    }
    transform.yield
  }

  // Matches a matmul whose B is a tile (a subview) of a larger buffer: a matmul too small
  // to be tiled reads its B in place.
  transform.named_sequence @match_tiled_b(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    transform.match.operation_name %op ["linalg.matmul"] : !transform.any_op
    %b = transform.get_producer_of_operand %op[1] : (!transform.any_op) -> !transform.any_op
    transform.match.operation_name %b ["memref.subview"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }

  // Matches a matmul whose A is a tile (a subview) of a larger buffer.
  transform.named_sequence @match_tiled_a(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    transform.match.operation_name %op ["linalg.matmul"] : !transform.any_op
    %a = transform.get_producer_of_operand %op[0] : (!transform.any_op) -> !transform.any_op
    transform.match.operation_name %a ["memref.subview"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op

    %bn = transform.tune.knob<"block_n"> = 1024 from options = [64, 128, 256, 512, 1024]
      -> !transform.param<i64>
    %bm = transform.tune.knob<"block_m"> = 512 from options = [64, 128, 256, 512, 1024]
      -> !transform.param<i64>
    %bk = transform.tune.knob<"block_k"> = 512 from options = [64, 128, 256, 512]
      -> !transform.param<i64>
    %rm = transform.tune.knob<"reg_m"> = 6 from options = [2, 4, 6, 8, 12, 14]
      -> !transform.param<i64>
    %rn = transform.tune.knob<"reg_n"> = 64 from options = [8, 16, 32, 64]
      -> !transform.param<i64>
    %uk = transform.tune.knob<"unroll_k"> = 4 from options = [1, 2, 4, 8]
      -> !transform.param<i64>

    // Column blocks of C, then row blocks of block_m; the fill joins each block, so the
    // block_m x block_n block of C is zeroed just before the k loop accumulates into it
    // (the micro-kernels then read C from the cache, not from memory).
    %mm_m, %nm:2 = transform.structured.fuse %mm tile_sizes [%bm, %bn, 0] interchange [1, 0, 2]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
      -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // The fill of a block, one row at a time.
    %fill_m = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill_r, %fill_rows = transform.structured.tile_using_for %fill_m tile_sizes [1, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %k_blocks = transform.structured.tile_using_for %mm_m tile_sizes [0, 0, %bk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    // Where a tile size does not divide its dimension, the last, partial tile of each
    // loop is peeled off (inner loops first): every tile has a static shape then.
    transform.include @peel_each failures(propagate) (%k_blocks) : (!transform.any_op) -> ()
    transform.include @peel_each failures(propagate) (%nm#1) : (!transform.any_op) -> ()
    transform.include @peel_each failures(propagate) (%nm#0) : (!transform.any_op) -> ()
    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op

    %root_b = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root
        <{bufferize_function_boundaries = true}>
      : (!transform.any_op) -> !transform.any_op

    %func_b = transform.structured.match ops{["func.func"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    // Pack the A block: a contiguous block_m x block_k copy, made once per block (its rows
    // sit block_k floats apart, not 4 KiB: the micro-kernel's reg_m rows of A then
    // spread over the L1 sets instead of all landing in one).
    %mm_block = transform.collect_matching @match_tiled_a in %root_b
      : (!transform.any_op) -> !transform.any_op
    %mm_a = transform.structured.promote %mm_block
        <{operands_to_promote = [0], alignment = 64}>
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // Panels of reg_n columns of each block, the partial one peeled.
    %mm_blocks = transform.structured.match ops{["linalg.matmul"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    %panels = transform.foreach %mm_blocks : !transform.any_op -> !transform.any_op {
    ^bb0(%blk: !transform.any_op):
      %mm_p, %panels1 = transform.structured.tile_using_for %blk tile_sizes [0, %rn, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      transform.yield %panels1 : !transform.any_op
    }
    transform.include @peel_each failures(propagate) (%panels) : (!transform.any_op) -> ()
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // Pack the B panel: a contiguous block_k x reg_n copy on the stack.
    %mm_panel = transform.collect_matching @match_tiled_b in %root_b
      : (!transform.any_op) -> !transform.any_op
    %mm_promoted = transform.structured.promote %mm_panel
        <{operands_to_promote = [1], use_alloca, alignment = 64}>
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %mm_packed = transform.structured.match ops{["linalg.matmul"]} in %root_b
      : (!transform.any_op) -> !transform.any_op

    // Register tiles of reg_m rows, the partial one peeled.
    %rows = transform.foreach %mm_packed : !transform.any_op -> !transform.any_op {
    ^bb0(%tile: !transform.any_op):
      %mm_r, %rows1 = transform.structured.tile_using_for %tile tile_sizes [%rm, 0, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      transform.yield %rows1 : !transform.any_op
    }
    transform.include @peel_each failures(propagate) (%rows) : (!transform.any_op) -> ()
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // The packing copy, one row of the panel at a time: copied whole, its block_k x reg_n
    // vector would not fit the registers and would go through the stack.
    %copies = transform.structured.match ops{["linalg.copy"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    %copy_r, %copy_rows = transform.structured.tile_using_for %copies tile_sizes [1, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tiles = transform.structured.match ops{["linalg.matmul"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    // The k loop of the micro-kernel, unroll_k k steps per iteration (a k tile of
    // unroll_k: its contraction lowers to unroll_k outer products in a row); a k block
    // that unroll_k does not divide gets a peeled tail.
    %k_loop = transform.foreach %tiles : !transform.any_op -> !transform.any_op {
    ^bb0(%t: !transform.any_op):
      %mm_1, %k1 = transform.structured.tile_using_for %t tile_sizes [0, 0, %uk]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      transform.yield %k1 : !transform.any_op
    }
    transform.include @peel_each failures(propagate) (%k_loop) : (!transform.any_op) -> ()
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op

    // Vectorize: each tile becomes a vector.contract, the fill and the packing copy
    // transfers; the subviews fold into the transfers' indices.
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func_b
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    // The packing buffer is allocated once, before the loops (no stack growth per panel).
    transform.bufferization.buffer_loop_hoisting %func_v : !transform.any_op
    // The accumulator's read/write pair leaves the k loop.
    %func_h = transform.structured.hoist_redundant_vector_transfers %func_v
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

    // The register tile must fit the vector registers: reg_m * reg_n / W accumulators,
    // reg_n / W for the row of B and one for the broadcast of A, where W is the floats
    // per register. The bound is AVX-512's (32 registers of 16 floats; 6x64, 12x32 and
    // 14x32 are its tiles with enough independent accumulators for two FMA pipes); on AVX2
    // (16 registers of 8 floats) only tiles with reg_m * reg_n / 8 + reg_n / 8 + 1 <= 16
    // (6x16 and smaller) keep their accumulators in registers, and a larger one spills
    // on every k step and loses when measured (benchmarks/cpu.py picks per instruction
    // set). A tile beyond the bound (8x64 and taller) spills on both and is never built.
    transform.smt.constrain_params(%rm, %rn)
        : (!transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%r_m: !smt.int, %r_n: !smt.int):
      %c1 = smt.int.constant 1
      %c16 = smt.int.constant 16
      %c32 = smt.int.constant 32
      %tile = smt.int.mul %r_m, %r_n
      %acc = smt.int.div %tile, %c16
      %row = smt.int.div %r_n, %c16
      %used = smt.int.add %acc, %row, %c1
      %fits = smt.int.cmp le %used, %c32
      smt.assert %fits
    }
    transform.yield
  }
}
