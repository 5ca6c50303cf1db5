// Elementwise chains on the GPU: the last linalg.generic is tiled into 4x512 blocks
// (#gpu.block<y>, #gpu.block<x>) and every producer generic is fused into the block
// tiles; each block then runs 4x128 threads, four contiguous elements of a row per thread
// (num_threads, so partial tiles at the edges stay statically mapped), columns on
// threadIdx.x. Each thread's tile is vectorized to the vector shape of the largest tile,
// 1x4 (`vectorize ... vector_sizes`), masked where a tile at an edge is smaller: where
// the sizes make every tile full (rows a multiple of 512 long, say) the masks fold away
// and, with the 16-byte aligned kernel arguments, each array is read with one
// ld.global.v4 and the result written with one st.global.v4 per thread; at other sizes
// the lowering (`split-masked-transfers`) gives each masked access a branch: one 16-byte
// access where the mask is full and the address aligned (all but the edge tiles when rows
// are a multiple of 4 long), the masked one otherwise. The fused producer's tile stays in
// registers (its masked write and the consumer's read of it fold away). The math on
// vectors is scalarized into libdevice calls. Bufferization, then the foralls become the
// grid and the threads. Measured on the H200 at 16384^2: 4.43 TB/s (one element per
// thread 3.59; 8x512 blocks, two rows per thread, 4.42; torch.compile 4.44, Triton 4.42,
// same run).
// Knobs (schedir-tune searches them; `selected` is the choice above): the block tile
// (block_rows x block_cols); the threads stay 4x128 (block_dims is a static attribute
// upstream), so a block tile sets the thread tile, whose shape the vector shape
// (vector_rows x vector_cols) must be (a constraint ties them).
// Payload: examples/elementwise_cuda.mlir (two generics; any chain ending in one).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %generics = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %producers, %last = transform.split_handle %generics overflow_result = 0
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Blocks: 4x128 tiles of the result.
    %rows = transform.tune.knob<"block_rows"> = 4 from options = [4, 8, 16] -> !transform.param<i64>
    %cols = transform.tune.knob<"block_cols"> = 512 from options = [128, 256, 512, 1024]
      -> !transform.param<i64>
    // Each of the 4x128 threads gets a tile of at most (block_rows / 4) x (block_cols / 128)
    // elements: the vector shape of its ops.
    %vec_rows = transform.tune.knob<"vector_rows"> = 1 from options = [1, 2, 4] -> !transform.param<i64>
    %vec_cols = transform.tune.knob<"vector_cols"> = 4 from options = [1, 2, 4, 8] -> !transform.param<i64>
    transform.smt.constrain_params(%rows, %cols, %vec_rows, %vec_cols)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%r: !smt.int, %c: !smt.int, %vr: !smt.int, %vc: !smt.int):
      %four = smt.int.constant 4
      %lanes = smt.int.constant 128
      %thread_rows = smt.int.mul %vr, %four
      %thread_cols = smt.int.mul %vc, %lanes
      %rows_match = smt.eq %r, %thread_rows : !smt.int
      %cols_match = smt.eq %c, %thread_cols : !smt.int
      smt.assert %rows_match
      smt.assert %cols_match
    }
    %last_b, %blocks = transform.structured.tile_using_forall %last tile_sizes [%rows, %cols]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %producers_b, %blocks2 = transform.structured.fuse_into_containing_op %producers into %blocks
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Threads: 4x128 per block, 1x4 elements each.
    %last_t, %threads = transform.structured.tile_using_forall %last_b num_threads [4, 128]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %producers_t, %threads2 = transform.structured.fuse_into_containing_op %producers_b into %threads
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    // Vectors of the thread tile's largest shape, masked where a tile at the edge is
    // smaller (any size works; full tiles' masks fold away where the sizes make every tile
    // full). The ops are matched again: the clean-up above may rebuild the loops.
    %tiles = transform.structured.match ops{["linalg.generic"]} in %func
      : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %tiles vector_sizes [%vec_rows, %vec_cols]
      : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
      transform.apply_patterns.vector.lower_masked_transfers
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op

    %root_b = transform.apply_registered_pass "one-shot-bufferize"
        with options = {"bufferize-function-boundaries" = true,
                        "function-boundary-type-conversion" = "identity-layout-map"} to %root
      : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{["func.func"]} in %root_b
      : (!transform.any_op) -> !transform.any_op
    %launch = transform.gpu.map_forall_to_blocks %func_b generate_gpu_launch
      : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [128, 4, 1]
      : (!transform.any_op) -> !transform.any_op
    %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_g {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_g : !transform.any_op
    transform.yield
  }
}
