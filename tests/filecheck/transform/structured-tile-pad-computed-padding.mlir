// RUN: schedir-opt %s --split-input-file --verify-diagnostics
// UPSTREAM-LACKS: nothing; the location differs: upstream reports this failure at the
// tensor.pad ("failed to tile operation", "failed to generate tiling loops") and at the
// transform op ("failed to apply"), schedir at the transform op with a note at the pad.

// A padding value computed in the pad's body is not tileable (upstream's
// getConstantPaddingValue fails): the tiling fails (upstream reports it at the pad).
module attributes {transform.with_named_sequence} {
  func.func @computed_padding(%a: tensor<10xindex>) -> tensor<12xindex> {
    // expected-note @below {{when applied to this op}}
    %p = tensor.pad %a low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %i : index
    } : tensor<10xindex> to tensor<12xindex>
    return %p : tensor<12xindex>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'tensor.pad' op failed to tile operation}}
    %t, %l = transform.structured.tile_using_forall %p tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
