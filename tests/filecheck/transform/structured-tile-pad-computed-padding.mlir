// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// A padding value computed in the pad's body is not tileable (upstream's
// getConstantPaddingValue fails). As upstream, the tiler's errors are reported at the
// pad; tile_using_forall then fails silenceably at the transform op ("failed to apply"),
// tile_using_for fails definitely without a message of its own.
module attributes {transform.with_named_sequence} {
  func.func @computed_padding(%a: tensor<10xindex>) -> tensor<12xindex> {
    // expected-error @below {{'tensor.pad' op failed to tile operation}}
    // expected-error @below {{'tensor.pad' op failed to generate tiling loops}}
    // expected-note @below {{when applied to this op}}
    %p = tensor.pad %a low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %i : index
    } : tensor<10xindex> to tensor<12xindex>
    return %p : tensor<12xindex>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.tile_using_forall failed to apply}}
    %t, %l = transform.structured.tile_using_forall %p tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @computed_padding_for(%a: tensor<10xindex>) -> tensor<12xindex> {
    // expected-error @below {{'tensor.pad' op failed to tile operation}}
    // expected-error @below {{'tensor.pad' op failed to generate tiling loops}}
    %p = tensor.pad %a low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %i : index
    } : tensor<10xindex> to tensor<12xindex>
    return %p : tensor<12xindex>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %p tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
