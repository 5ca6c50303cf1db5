// Differential case from tests/filecheck/transform/structured-fuse.mlir (@not_tileable).
// Only TilingInterface ops (a definite error).
module attributes {transform.with_named_sequence} {
  func.func @not_tileable() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only TilingInterface ops are supported}}
    %t, %l = transform.structured.fuse %f tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
