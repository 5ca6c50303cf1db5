// Schedule (d) at tensor level (reference/schedules/d_matmul_bias_relu_gpu_vectorized.mlir
// up to bufferization): tile to blocks and threads with fusion, tile k by 8,
// vectorize_children_and_apply_patterns, canonicalize + fold_tensor_subset_ops_into_vector_transfers,
// CSE, hoist_loop_invariant_subsets, canonicalize. Upstream's result: per thread an scf.for
// carrying a vector<4x1xf32> accumulator over vector.contract of 4x8 and 8x1 reads, then a
// vector epilogue written into the thread's slice.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_bc = affine_map<(d0, d1) -> (d1)>
module attributes {transform.with_named_sequence} {
  func.func @matmul_bias_relu(%A: tensor<256x512xf32>, %B: tensor<512x128xf32>,
                              %bias: tensor<128xf32>, %C: tensor<256x128xf32>)
      -> tensor<256x128xf32> {
    %zero = arith.constant 0.0 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<256x128xf32>) -> tensor<256x128xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<256x512xf32>, tensor<512x128xf32>)
                        outs(%acc : tensor<256x128xf32>) -> tensor<256x128xf32>
    %out = linalg.generic {indexing_maps = [#map_id, #map_bc, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<256x128xf32>, tensor<128xf32>)
        outs(%C : tensor<256x128xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<256x128xf32>
    return %out : tensor<256x128xf32>
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %ew = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op

    // Blocks: 64x32 tiles.
    %ew_b, %forall_b = transform.structured.tile_using_forall %ew tile_sizes [64, 32]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_b, %fb1 = transform.structured.fuse_into_containing_op %mm into %forall_b
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %fb2 = transform.structured.fuse_into_containing_op %fill into %fb1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Threads: 16x32 threads via num_threads (tile = 4x1 per thread).
    %ew_t, %forall_t = transform.structured.tile_using_forall %ew_b num_threads [16, 32]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_t, %ft1 = transform.structured.fuse_into_containing_op %mm_b into %forall_t
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %ft2 = transform.structured.fuse_into_containing_op %fill_b into %ft1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Reduction loop, k step 8.
    %mm_k, %k_loop = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, 8]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Vectorize every structured op in the function (invalidates handles to
    // ops nested in %func, e.g. %k_loop: re-match afterwards).
    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op

    // Keep the accumulator in vector registers across the k loop.
    %loops = transform.structured.match ops{["scf.for"]} in %func_v
      : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    // Forward the fill's transfer_write into the reads (tensor semantics), so
    // the tensor that used to hold the accumulator becomes dead.
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
    } : !transform.any_op

    transform.yield
  }
}
