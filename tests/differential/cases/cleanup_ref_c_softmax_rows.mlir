// Reference schedule (c) with its canonicalize + CSE clean-up.
// Schedule (c): row softmax (linalg.softmax over dim 1).
//   1. decompose linalg.softmax into fill/max-reduce/exp/fill/sum-reduce/div,
//   2. block level: tile the final div by 8 rows (scf.forall -> #gpu.block<x>)
//      and fuse every producer into it (exp, used by both sum and div, gets
//      fused twice: that is upstream behaviour, not a bug in this script),
//   3. thread level: parallel ops on an 8x32 thread grid, row reductions on
//      8 threads (#gpu.thread<y>) with a sequential reduction per thread,
//   4. canonicalize/CSE (also removes the now-dead untiled originals).
// Run: iree-opt --transform-interpreter c_softmax_rows.mlir
module attributes {transform.with_named_sequence} {
  func.func @softmax(%x: tensor<1024x512xf32>) -> tensor<1024x512xf32> {
    %init = tensor.empty() : tensor<1024x512xf32>
    %y = linalg.softmax dimension(1)
           ins(%x : tensor<1024x512xf32>) outs(%init : tensor<1024x512xf32>)
           -> tensor<1024x512xf32>
    return %y : tensor<1024x512xf32>
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %decomposed = transform.structured.decompose_interface %sm
      : (!transform.any_op) -> !transform.any_op

    // Walk order of structured.match gives the ops in program order here.
    %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill_max, %max, %exp, %fill_sum, %sum, %div = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op,
                                !transform.any_op, !transform.any_op, !transform.any_op)

    // Block level: 8 rows per block, 128 blocks.
    %div_b, %forall = transform.structured.tile_using_forall %div tile_sizes [8]
        (mapping = [#gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sum_b, %f1 = transform.structured.fuse_into_containing_op %sum into %forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_sum_b, %f2 = transform.structured.fuse_into_containing_op %fill_sum into %f1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // exp has two consumers in the forall (sum and div): it is tiled twice,
    // and so is max below; %exp_b is mapped to 2 payload ops, %max_b to 2.
    %exp_b, %f3 = transform.structured.fuse_into_containing_op %exp into %f2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %max_b, %f4 = transform.structured.fuse_into_containing_op %max into %f3
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_max_b, %f5 = transform.structured.fuse_into_containing_op %fill_max into %f4
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Thread level. Parallel ops: 8x32 threads, 1x16 elements each.
    %par = transform.merge_handles %exp_b, %div_b : !transform.any_op
    %par_t, %par_forall = transform.structured.tile_using_forall %par tile_sizes [1, 16]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Reductions and their fills: one row per thread along y.
    %red = transform.merge_handles %fill_max_b, %max_b, %fill_sum_b, %sum_b : !transform.any_op
    %red_t, %red_forall = transform.structured.tile_using_forall %red tile_sizes [1]
        (mapping = [#gpu.thread<y>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    transform.yield
  }
}
