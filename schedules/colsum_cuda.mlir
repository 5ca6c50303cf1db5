// Column sums on the GPU (a reduction over the outer dimension): 32 columns per block
// (#gpu.block<x>), one column per thread (#gpu.thread<x>, a warp per block): each lane
// walks down its column, so a warp reads 32 consecutive floats of a row at a time (one
// 128-byte line per load), and writes its sum once. Nothing is reduced across lanes, so
// this schedule has no shuffle; splitting the rows over several warps (partials in shared
// memory, upstream's tile_reduction_using_forall over #gpu.thread<y>) needs a static
// partial buffer, which a column count that is not a multiple of 32 does not give yet.
// Payload: examples/colsum_cuda.mlir (fill + column reduction, any 2-D size).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %ops = transform.structured.match ops{["linalg.fill", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %fill, %red = transform.split_handle %ops
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %red_b, %forall = transform.structured.tile_using_forall %red tile_sizes [0, 32]
        (mapping = [#gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %f1 = transform.structured.fuse_into_containing_op %fill into %forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %red_t, %red_f = transform.structured.tile_using_forall %red_b num_threads [0, 32]
        (mapping = [#gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %fill_f = transform.structured.tile_using_forall %fill_b num_threads [32]
        (mapping = [#gpu.thread<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
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
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [32, 1, 1]
      : (!transform.any_op) -> !transform.any_op
    %func_g = transform.get_parent_op %mapped <{op_name = "func.func"}>
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_g {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.apply_cse to %func_g : !transform.any_op
    transform.yield
  }
}
