// Tiles the matmul of small.mlir; `spare` is a knob the schedule never uses, so the
// points that differ only in it compile to the same code (the code-identity tests).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %tm = transform.tune.knob<"tile_m"> = 8 from options = [4, 8] -> !transform.param<i64>
    %spare = transform.tune.knob<"spare"> = 1 from options = [1, 2, 3] -> !transform.param<i64>
    %t, %l1 = transform.structured.tile_using_for %mm tile_sizes [%tm, 0, 0]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
