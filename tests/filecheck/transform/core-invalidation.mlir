// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// Consuming a handle invalidates every handle to the same payload op...
module attributes {transform.with_named_sequence} {
  // expected-note @below {{ancestor payload op}}
  // expected-note @below {{nested payload op}}
  func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
    return %r : tensor<4x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %mm <{op_name = "func.func"}> : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{handle to invalidated ops}}
    %alias = transform.cast %f : !transform.any_op to !transform.op<"func.func">
    // expected-note @below {{invalidated by this transform op that consumes its operand #0}}
    transform.apply_registered_pass "canonicalize" to %f : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{op uses a handle invalidated by a previously executed transform op}}
    transform.annotate %alias "tagged" : !transform.op<"func.func">
    transform.yield
  }
}

// -----

// ... and every handle to ops nested in it.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{ancestor payload op}}
  func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
    // expected-note @below {{nested payload op}}
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
    return %r : tensor<4x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %mm <{op_name = "func.func"}> : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0}}
    %f2 = transform.apply_registered_pass "canonicalize" to %f : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{op uses a handle invalidated by a previously executed transform op}}
    transform.annotate %mm "tagged" : !transform.any_op
    transform.yield
  }
}

// -----

// Consuming a handle that points to the same payload op twice is a silenceable failure.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{repeated target op}}
  func.func @f() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %ret : (!transform.any_op) -> !transform.any_op
    %twice = transform.merge_handles %f, %f : !transform.any_op
    // expected-error @below {{a handle passed as operand #0 and consumed by this operation points to a payload entity more than once}}
    transform.apply_registered_pass "canonicalize" to %twice : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A pass can only run on an op isolated from above; the pass manager says so at the payload op.
module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
    // expected-error @below {{trying to schedule a pass on an operation not marked as 'IsolatedFromAbove'}}
    // expected-note @below {{target op}}
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
    return %r : tensor<4x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pass pipeline failed}}
    transform.apply_registered_pass "canonicalize" to %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
