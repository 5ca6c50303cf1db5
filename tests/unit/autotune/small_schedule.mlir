// Tiles the matmul of small.mlir; the tile sizes are knobs (the autotuner's tests).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %tm = transform.tune.knob<"tile_m"> = 8 from options = [4, 8, 16] -> !transform.param<i64>
    %tn = transform.tune.knob<"tile_n"> = 4 from options = [4, 7, 32] -> !transform.param<i64>
    %t, %l1, %l2 = transform.structured.tile_using_for %mm tile_sizes [%tm, %tn, 0]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
      -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
