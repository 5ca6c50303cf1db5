// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A 2-D convolution without a unit window dimension has no 1-D form: the default
// silenceable failure, noting the op; under failures(suppress) the schedule goes on.
// CHECK-LABEL: func.func @no_unit_window
// CHECK: linalg.conv_2d_nhwc_hwcf {kept}
module attributes {transform.with_named_sequence} {
  func.func @no_unit_window(%y: tensor<1x9x9x3xf32>, %v: tensor<3x3x3x5xf32>, %p: tensor<1x7x7x5xf32>) -> tensor<1x7x7x5xf32> {
    %1 = linalg.conv_2d_nhwc_hwcf ins(%y, %v : tensor<1x9x9x3xf32>, tensor<3x3x3x5xf32>) outs(%p : tensor<1x7x7x5xf32>) -> tensor<1x7x7x5xf32>
    return %1 : tensor<1x7x7x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %c = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %r : (!transform.any_op) -> !transform.any_op
      %d = transform.structured.decompose %c : (!transform.any_op) -> !transform.any_op
      transform.yield
    }
    %c2 = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.annotate %c2 "kept" : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_a_convolution(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    // expected-note @below {{when applied to this op}}
    %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.decompose failed to apply}}
    %d = transform.structured.decompose %m : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @pooling_without_unit_window(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3xf32>, %o: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
    // expected-note @below {{when applied to this op}}
    %0 = linalg.pooling_nhwc_max ins(%x, %w : tensor<1x6x6x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    return %0 : tensor<1x4x4x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.pooling_nhwc_max"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.decompose failed to apply}}
    %d = transform.structured.decompose %m : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @wrong_kind() {
    // expected-note @below {{when applied to this op}}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform applied to the wrong op kind}}
    %d = transform.structured.decompose %r : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
