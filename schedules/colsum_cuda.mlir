// Column sums on the GPU (a reduction over the outer dimension of an MxN matrix), in two
// kernels:
// 1. the rows are split into G chunks, one block each (tile_reduction_using_forall over
//    #gpu.block<x>; knob "blocks", G = 128 selected, the fastest measured, see below):
//    each of its
//    T threads (knob "threads": 256, 512 selected, 1024) owns 4 adjacent columns of a
//    chunk of 4T (transform.structured.fuse over the columns, then tile_using_forall
//    tile_sizes 4 over #gpu.thread<x>, so a warp reads 512 contiguous bytes of a row per
//    load) and walks down the block's rows in steps of R (knob "row_step", R = 8): each
//    step is one vector<Rx4xf32> read, R 16-byte loads in flight, added into a
//    vector<4xf32> accumulator that hoist_loop_invariant_subsets keeps in registers
//    across the steps; the last partial step (rows not a multiple of R) is peeled off
//    and stays scalar; the accumulator is written once per column chunk. The partials'
//    zeros are fused down to each thread's 4 columns (fuse_into_containing_op into the
//    block through its shared output, linalg.swap_extract_slice_with_fill and
//    tensor.merge_consecutive_insert_extract_slice so that the block's slice of the
//    partials is one rank-reducing slice, which bufferizes in place; transform.structured.
//    fuse through the chunk loop's iter_args; fuse_into_containing_op into the thread's
//    forall), vectorized, and folded into the accumulator's first value: no kernel
//    zeroes the partials and none reads them back (the previous schedule's first kernel
//    wrote N x G zeros that the second read again); each thread still stores its 4 zeros
//    before its sums (no fold of a transfer_write under another yet);
// 2. the G partials of each column are added by a warp (upstream's merge op, tiled as
//    rowsum's warp region: a column per block of 32 threads, any column count; the G
//    partials in chunks of 128, lane l adding the 4 adjacent partials 4l..4l+3 of each
//    chunk with one 16-byte load into a vector<4xf32> in registers, then
//    transform.schedir.gpu.reduce_to_subgroup_reduce: one gpu.subgroup_reduce, 5
//    shfl.sync.bfly, no barrier). The previous merge (a thread per column, 128 per block)
//    put 64 blocks of 128 threads on the 132 SMs at 8192 columns, 8 at 1000.
// Kernel 1 crosses no lanes: no shuffle and no shared memory. Each forall of blocks
// is mapped on its own (map_forall_to_blocks on the forall).
// Knobs: "blocks" (tune.alternatives, since num_threads is static upstream: G = 128, 256,
// 512 row chunks; G must be a multiple of 128, the merge's chunk), "threads" (a
// tune.knob of region indices 0, 1, 2 for T = 256, 512, 1024: one param selects both the
// chunk of 4T columns and the block size, which map_nested_forall_to_threads takes
// statically), "row_step" (tune.knob: rows per vector step, 4, 8 or 16).
// Measured on the H200 (benchmarks/gpu.py, one run, copy 4.08 TB/s), 8192^2: G = 128
// 0.095 ms (0.69x copy; with 1024 threads 0.097), G = 256 0.110 (0.60x), G = 512 0.159;
// row_step 4, 8, 16 alike (0.108 at G = 256); torch eager 0.083, torch.compile and Triton
// 0.095 (the three-kernel schedule before: 0.41x). 8191x1000: G = 256 0.030 ms (0.27x;
// eager 0.034, torch.compile 0.037, Triton 0.035; before: 0.09x), but the same run timed
// the same G = 256 kernel with other row steps at 0.063-0.065 ms, so the odd-size
// ranking of the regions (0.051-0.066 ms) is not settled by that run.
// The PTX at 8192^2 (ptxas sm_90: 0 bytes local memory): kernel 1's row loop is unrolled
// into 8 groups of 8 ld.global.v4 (8 loads in flight per thread), but the N x G partials
// (tile_reduction_using_forall appends the G dimension last) make each thread's 4 zero
// stores and 4 sum stores scalar st.global.b32 512 bytes apart: 2M single-sector stores
// against 8M load sectors. Next: G x N partials (split_reduction insert_split_dimension = 0,
// the G dimension over the blocks) for one coalesced 16-byte store per thread, the merge a
// thread per column walking G rows (coalesced across lanes). At 8191x1000 the default's
// one chunk of 2048 columns keeps 250 of 512 threads busy in 128 blocks; measured (H200,
// 15:20 run): default 0.066 ms, threads = 256 0.052, 512 row chunks of 256 threads 0.067,
// with row step 4 0.063 (eager 0.034): more blocks alone do not help, so the odd size is
// not limited by the grid's width (next: the per-row-step latency chain, 8 dependent
// iterations of 8 loads per thread, and the two launches).
// Payload: examples/colsum_cuda.mlir (fill + column reduction, any 2-D size; column
// counts that are multiples of 4 get 16-byte loads throughout).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %func_a = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.alternatives %func_a : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %s
        : (!transform.any_op) -> !transform.any_op
      %fill, %red = transform.split_handle %ops
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %pfill, %part, %comb = transform.tune.alternatives<"blocks"> selected_region = 0
          -> !transform.any_op, !transform.any_op, !transform.any_op {
        // Only where G divides the rows (upstream's split fails definitely otherwise):
        // the silenceable check moves transform.alternatives on to the next region.
        %lo, %hi, %at = transform.structured.multitile_sizes %red dimension = 0
            target_size = 128 divisor = 128 : (!transform.any_op) -> !transform.param<i64>
        %e, %f, %p, %c = transform.structured.split_reduction %red
            {split_factor = 128, insert_split_dimension = 0}
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
        transform.yield %f, %p, %c : !transform.any_op, !transform.any_op, !transform.any_op
      }, {
        // Only where G divides the rows (upstream's split fails definitely otherwise):
        // the silenceable check moves transform.alternatives on to the next region.
        %lo, %hi, %at = transform.structured.multitile_sizes %red dimension = 0
            target_size = 256 divisor = 256 : (!transform.any_op) -> !transform.param<i64>
        %e, %f, %p, %c = transform.structured.split_reduction %red
            {split_factor = 256, insert_split_dimension = 0}
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
        transform.yield %f, %p, %c : !transform.any_op, !transform.any_op, !transform.any_op
      }, {
        // Only where G divides the rows (upstream's split fails definitely otherwise):
        // the silenceable check moves transform.alternatives on to the next region.
        %lo, %hi, %at = transform.structured.multitile_sizes %red dimension = 0
            target_size = 512 divisor = 512 : (!transform.any_op) -> !transform.param<i64>
        %e, %f, %p, %c = transform.structured.split_reduction %red
            {split_factor = 512, insert_split_dimension = 0}
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
        transform.yield %f, %p, %c : !transform.any_op, !transform.any_op, !transform.any_op
      }
      %threads = transform.tune.knob<"threads"> = 1 from options = [0, 1, 2]
        -> !transform.param<i64>
      %chunk = transform.tune.alternatives<"threads_chunk"> selected_region = %threads
          : !transform.param<i64> -> !transform.param<i64> {
        %c = transform.param.constant 1024 -> !transform.param<i64>
        transform.yield %c : !transform.param<i64>
      }, {
        %c = transform.param.constant 2048 -> !transform.param<i64>
        transform.yield %c : !transform.param<i64>
      }, {
        %c = transform.param.constant 4096 -> !transform.param<i64>
        transform.yield %c : !transform.param<i64>
      }
      // Kernel 1's grid: G blocks walking the column chunks in turn (region 0), or a block
      // per row chunk and column chunk (region 1: G x ceil(N / 4T) blocks in y, x).
      %grid = transform.tune.knob<"grid"> = 0 from options = [0, 1] -> !transform.param<i64>
      %forall_g = transform.tune.alternatives<"grid_shape"> selected_region = %grid
          : !transform.param<i64> -> !transform.any_op {
        %part_b, %forall = transform.structured.tile_using_forall %part tile_sizes [1, 0, 0]
            (mapping = [#gpu.block<x>])
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
        %pfill_g, %forall_g = transform.structured.fuse_into_containing_op %pfill into %forall
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
        %func_s = transform.structured.match ops{["func.func"]} in %s
          : (!transform.any_op) -> !transform.any_op
        transform.apply_patterns to %func_s {
          transform.apply_patterns.linalg.swap_extract_slice_with_fill
          transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice
          transform.apply_patterns.canonicalization
        } : !transform.any_op
        %part_c, %chunks = transform.structured.fuse %part_b tile_sizes [0, 0, %chunk]
          : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
        %chunks_for = transform.cast %chunks : !transform.any_op to !transform.op<"scf.for">
        transform.sequence %chunks_for : !transform.op<"scf.for"> failures(suppress) {
        ^bb0(%loop: !transform.op<"scf.for">):
          %main, %rest = transform.loop.peel %loop
            : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
          transform.yield
        }
        %func0 = transform.structured.match ops{["func.func"]} in %s
          : (!transform.any_op) -> !transform.any_op
        transform.apply_patterns to %func0 {
          transform.apply_patterns.canonicalization
          transform.apply_patterns.linalg.tiling_canonicalization
        } : !transform.any_op
        transform.yield %forall_g : !transform.any_op
      }, {
        // Whole column chunks only (the threads of a block are static): where 4T does not
        // divide the columns, transform.alternatives moves on to the N x G schedule.
        transform.tune.alternatives<"grid_guard"> selected_region = %threads
            : !transform.param<i64> {
          %lo, %hi, %at = transform.structured.multitile_sizes %part dimension = 2
              target_size = 1024 divisor = 1024 : (!transform.any_op) -> !transform.param<i64>
          transform.yield
        }, {
          %lo, %hi, %at = transform.structured.multitile_sizes %part dimension = 2
              target_size = 2048 divisor = 2048 : (!transform.any_op) -> !transform.param<i64>
          transform.yield
        }, {
          %lo, %hi, %at = transform.structured.multitile_sizes %part dimension = 2
              target_size = 4096 divisor = 4096 : (!transform.any_op) -> !transform.param<i64>
          transform.yield
        }
        %part_b, %forall = transform.structured.tile_using_forall %part tile_sizes [1, 0, %chunk]
            (mapping = [#gpu.block<y>, #gpu.block<x>])
          : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
        %pfill_g, %forall_g = transform.structured.fuse_into_containing_op %pfill into %forall
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
        %func_s = transform.structured.match ops{["func.func"]} in %s
          : (!transform.any_op) -> !transform.any_op
        transform.apply_patterns to %func_s {
          transform.apply_patterns.linalg.swap_extract_slice_with_fill
          transform.apply_patterns.canonicalization
          transform.apply_patterns.linalg.tiling_canonicalization
        } : !transform.any_op
        transform.yield %forall_g : !transform.any_op
      }
      %chunk_ops = transform.structured.match ops{["linalg.generic"]} in %forall_g
        : (!transform.any_op) -> !transform.any_op
      %chunk_fills = transform.structured.match ops{["linalg.fill"]} in %forall_g
        : (!transform.any_op) -> !transform.any_op
      %part_t, %thread_foralls = transform.structured.tile_using_forall %chunk_ops tile_sizes [0, 0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.foreach %chunk_fills, %thread_foralls : !transform.any_op, !transform.any_op {
      ^bb0(%f: !transform.any_op, %t: !transform.any_op):
        %f_t, %t2 = transform.structured.fuse_into_containing_op %f into %t
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
        transform.yield
      }
      %step = transform.tune.knob<"row_step"> = 8 from options = [4, 8, 16]
        -> !transform.param<i64>
      transform.foreach %part_t : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        %part_r, %rows = transform.structured.tile_using_for %tile tile_sizes [0, %step, 0]
          : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
        %rows_for = transform.cast %rows : !transform.any_op to !transform.op<"scf.for">
        transform.sequence %rows_for : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%loop: !transform.op<"scf.for">):
          %main, %rest = transform.loop.peel %loop
            : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
          transform.yield
        }
        transform.yield
      }
      // Kernel 2: C columns per block, a warp per column.
      %comb_b, %merge_grid = transform.structured.tile_using_forall %comb tile_sizes [0, 1]
          (mapping = [#gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_b, %mg = transform.structured.fuse_into_containing_op %fill into %merge_grid
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %mpfill, %mpart, %mcomb, %mloop = transform.structured.tile_reduction_using_for %comb_b
          by tile_sizes = [128, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %mpart_t, %mpart_f = transform.structured.tile_using_forall %mpart tile_sizes [4, 1]
          (mapping = [#gpu.thread<x>, #gpu.thread<y>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %mpfill_t, %mpfill_f = transform.structured.tile_using_forall %mpfill tile_sizes [1, 4]
          (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b tile_sizes [1]
          (mapping = [#gpu.thread<y>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sg, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %mcomb lanes = 32
          mapping = [#gpu.thread<y>, #gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %merge_t, %merge_f = transform.structured.tile_using_forall %merge tile_sizes [1]
          (mapping = [#gpu.thread<y>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func = transform.structured.match ops{["func.func"]} in %s
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      %steps2 = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %forall_g
        : (!transform.any_op) -> !transform.any_op
      %steps3 = transform.structured.match ops{["linalg.generic"]} in %merge_grid
        : (!transform.any_op) -> !transform.any_op
      %tiles = transform.merge_handles %steps2, %steps3 : !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %loops = transform.structured.match ops{["scf.for"]} in %func
        : (!transform.any_op) -> !transform.any_op
      transform.apply_licm to %loops : !transform.any_op
      transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      transform.yield
    }, {
    ^bb0(%s: !transform.any_op):
      %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %s
        : (!transform.any_op) -> !transform.any_op
      %fill, %red = transform.split_handle %ops
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      // Kernel 1's grid: G row chunks, each reduced into its own column of the N x G
      // partials (%pfill, their zeros, is fused into the threads below), merged by %comb.
      %pfill, %part, %comb, %forall = transform.tune.alternatives<"blocks"> selected_region = 0
          -> !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op {
        %f, %p, %c, %l = transform.structured.tile_reduction_using_forall %red
            by num_threads = [128, 0], tile_sizes = [], mapping = [#gpu.block<x>]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
        transform.yield %f, %p, %c, %l
          : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
      }, {
        %f, %p, %c, %l = transform.structured.tile_reduction_using_forall %red
            by num_threads = [256, 0], tile_sizes = [], mapping = [#gpu.block<x>]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
        transform.yield %f, %p, %c, %l
          : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
      }, {
        %f, %p, %c, %l = transform.structured.tile_reduction_using_forall %red
            by num_threads = [512, 0], tile_sizes = [], mapping = [#gpu.block<x>]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
        transform.yield %f, %p, %c, %l
          : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
      }
      // Kernel 1's block: the partials' zeros fused into the block, then into each column
      // chunk and each thread's 4 columns (the accumulator starts as zeros in registers:
      // no kernel zeroes the partials, none reads them back); column chunks of 4T (a
      // partial last chunk peeled, so that every chunk has a static width), 4 columns per
      // thread, R rows per step.
      %pfill_g, %forall_g = transform.structured.fuse_into_containing_op %pfill into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %func_s = transform.structured.match ops{["func.func"]} in %s
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func_s {
        transform.apply_patterns.linalg.swap_extract_slice_with_fill
        transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %threads = transform.tune.knob<"threads"> = 1 from options = [0, 1, 2]
        -> !transform.param<i64>
      %chunk = transform.tune.alternatives<"threads_chunk"> selected_region = %threads
          : !transform.param<i64> -> !transform.param<i64> {
        %c = transform.param.constant 1024 -> !transform.param<i64>
        transform.yield %c : !transform.param<i64>
      }, {
        %c = transform.param.constant 2048 -> !transform.param<i64>
        transform.yield %c : !transform.param<i64>
      }, {
        %c = transform.param.constant 4096 -> !transform.param<i64>
        transform.yield %c : !transform.param<i64>
      }
      %part_c, %chunks = transform.structured.fuse %part tile_sizes [0, %chunk]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      %chunks_for = transform.cast %chunks : !transform.any_op to !transform.op<"scf.for">
      transform.sequence %chunks_for : !transform.op<"scf.for"> failures(suppress) {
      ^bb0(%loop: !transform.op<"scf.for">):
        %main, %rest = transform.loop.peel %loop
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
        transform.yield
      }
      %func0 = transform.structured.match ops{["func.func"]} in %s
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func0 {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      %chunk_ops = transform.structured.match ops{["linalg.generic"]} in %forall
        : (!transform.any_op) -> !transform.any_op
      %chunk_fills = transform.structured.match ops{["linalg.fill"]} in %forall
        : (!transform.any_op) -> !transform.any_op
      %part_t, %thread_foralls = transform.structured.tile_using_forall %chunk_ops tile_sizes [0, 4]
          (mapping = [#gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.foreach %chunk_fills, %thread_foralls : !transform.any_op, !transform.any_op {
      ^bb0(%f: !transform.any_op, %t: !transform.any_op):
        %f_t, %t2 = transform.structured.fuse_into_containing_op %f into %t
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
        transform.yield
      }
      %step = transform.tune.knob<"row_step"> = 8 from options = [4, 8, 16]
        -> !transform.param<i64>
      // Per chunk (the main chunks, the peeled one): R rows per step, a partial last step
      // peeled (nothing to peel when R divides the rows).
      transform.foreach %part_t : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        %part_r, %rows = transform.structured.tile_using_for %tile tile_sizes [%step, 0]
          : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
        %rows_for = transform.cast %rows : !transform.any_op to !transform.op<"scf.for">
        transform.sequence %rows_for : !transform.op<"scf.for"> failures(suppress) {
        ^bb1(%loop: !transform.op<"scf.for">):
          %main, %rest = transform.loop.peel %loop
            : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
          transform.yield
        }
        transform.yield
      }
      // Kernel 2: the merge, a warp per column (blocks of 32 threads: any column count),
      // its G partials in chunks of 128, lane l adding the 4 adjacent partials 4l..4l+3
      // of each chunk (one 16-byte load) into a vector<4xf32> in registers; the lane's 4
      // and the warp's 32 sums combined by one gpu.subgroup_reduce (shuffles only).
      %comb_b, %merge_grid = transform.structured.tile_using_forall %comb tile_sizes [1]
          (mapping = [#gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_b, %mg = transform.structured.fuse_into_containing_op %fill into %merge_grid
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      %mpfill, %mpart, %mcomb, %mloop = transform.structured.tile_reduction_using_for %comb_b
          by tile_sizes = [0, 128]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %mpart_t, %mpart_f = transform.structured.tile_using_forall %mpart tile_sizes [1, 4]
          (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %mpfill_t, %mpfill_f = transform.structured.tile_using_forall %mpfill tile_sizes [1, 4]
          (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b tile_sizes [1]
          (mapping = [#gpu.thread<y>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %sg, %merge = transform.schedir.gpu.reduce_to_subgroup_reduce %mcomb lanes = 32
          mapping = [#gpu.thread<y>, #gpu.thread<x>]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %merge_t, %merge_f = transform.structured.tile_using_forall %merge tile_sizes [1]
          (mapping = [#gpu.thread<y>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

      %func = transform.structured.match ops{["func.func"]} in %s
        : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
        transform.apply_patterns.linalg.tiling_canonicalization
      } : !transform.any_op
      transform.apply_cse to %func : !transform.any_op
      // Vectorize every static tile (the fills and steps of kernel 1, the merge's steps);
      // a dynamic one (the peeled rows, a column count not a multiple of 4) stays scalar.
      %steps2 = transform.structured.match ops{["linalg.generic", "linalg.fill"]} in %forall
        : (!transform.any_op) -> !transform.any_op
      %steps3 = transform.structured.match ops{["linalg.generic"]} in %merge_grid
        : (!transform.any_op) -> !transform.any_op
      %tiles = transform.merge_handles %steps2, %steps3 : !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb0(%tile: !transform.any_op):
        transform.sequence %tile : !transform.any_op failures(suppress) {
        ^bb1(%t: !transform.any_op):
          transform.structured.vectorize %t : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      // The accumulators: out of the step loops into registers.
      %loops = transform.structured.match ops{["scf.for"]} in %func
        : (!transform.any_op) -> !transform.any_op
      transform.apply_licm to %loops : !transform.any_op
      transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
      // The accumulator's first value: the zeros written before the step loop (their read
      // folds to the constant; their write stays, four stores per thread and chunk, until
      // the canonicalization folds a transfer_write under another, as upstream's foldWAW).
      transform.apply_patterns to %func {
        transform.apply_patterns.canonicalization
      } : !transform.any_op

      transform.yield
    }
    %root_b = transform.apply_registered_pass "one-shot-bufferize"
        with options = {"bufferize-function-boundaries" = true,
                        "function-boundary-type-conversion" = "identity-layout-map"} to %root
      : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{["func.func"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    // Kernel 1's grid (2-D in the split region's "grid" = 1), then the merge's.
    %grids_2d = transform.structured.match ops{["scf.forall"]}
        attributes {mapping = [#gpu.block<y>, #gpu.block<x>]} in %func_b
      : (!transform.any_op) -> !transform.any_op
    %grids_1d = transform.structured.match ops{["scf.forall"]}
        attributes {mapping = [#gpu.block<x>]} in %func_b
      : (!transform.any_op) -> !transform.any_op
    %grids = transform.merge_handles %grids_2d, %grids_1d : !transform.any_op
    %grid2, %grid3 = transform.split_handle %grids
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %launch2 = transform.gpu.map_forall_to_blocks %grid2 generate_gpu_launch
      : (!transform.any_op) -> !transform.any_op
    %threads = transform.tune.knob<"threads"> = 1 from options = [0, 1, 2]
      -> !transform.param<i64>
    transform.tune.alternatives<"threads_block"> selected_region = %threads
        : !transform.param<i64> {
      %m = transform.gpu.map_nested_forall_to_threads %launch2 block_dims = [256, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      transform.yield
    }, {
      %m = transform.gpu.map_nested_forall_to_threads %launch2 block_dims = [512, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      transform.yield
    }, {
      %m = transform.gpu.map_nested_forall_to_threads %launch2 block_dims = [1024, 1, 1]
        : (!transform.any_op) -> !transform.any_op
      transform.yield
    }
    %launch3 = transform.gpu.map_forall_to_blocks %grid3 generate_gpu_launch
      : (!transform.any_op) -> !transform.any_op
    %mapped3 = transform.gpu.map_nested_forall_to_threads %launch3 block_dims = [32, 1, 1]
        sync_after_distribute = false
      : (!transform.any_op) -> !transform.any_op
    %func_g = transform.structured.match ops{["func.func"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_g {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.apply_cse to %func_g : !transform.any_op
    transform.apply_patterns to %func_g {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_g : !transform.any_op
    %func_h = transform.structured.hoist_redundant_vector_transfers %func_g
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
