// Differential case from tests/filecheck/transform/structured-tile-using-for.mlir (@not_tileable).
// Only TilingInterface ops tile.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{target op}}
  func.func @not_tileable() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only ops implementing TilingInterface are supported}}
    %t, %l = transform.structured.tile_using_for %f tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
