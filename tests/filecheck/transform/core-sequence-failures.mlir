// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A silenceable failure in a failures(suppress) sequence is dropped; the rest runs.
// CHECK-LABEL: func.func @suppressed
// CHECK: return {after}
module attributes {transform.with_named_sequence} {
  func.func @suppressed() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %ret = transform.structured.match ops{["func.return"]} in %arg0 : (!transform.any_op) -> !transform.any_op
      %a, %b = transform.split_handle %ret : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %ret "after" : !transform.any_op
      transform.yield
    }
    transform.yield
  }
}

// -----

// With failures(propagate) it stops the sequence and reaches the top level as an error.
module attributes {transform.with_named_sequence} {
  func.func @propagated() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(propagate) {
    ^bb0(%arg0: !transform.any_op):
      %ret = transform.structured.match ops{["func.return"]} in %arg0 : (!transform.any_op) -> !transform.any_op
      // expected-error @below {{expected to contain 2 payloads but it contains 1 payloads}}
      %a, %b = transform.split_handle %ret : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %ret "never" : !transform.any_op
      transform.yield
    }
    transform.yield
  }
}

// -----

// An included sequence runs with the include's failure mode; its results are forwarded.
// CHECK-LABEL: func.func @included
// CHECK: return {from_callee}
module attributes {transform.with_named_sequence} {
  func.func @included() {
    return
  }
  transform.named_sequence @find_return(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %ret = transform.structured.match ops{["func.return"]} in %op : (!transform.any_op) -> !transform.any_op
    transform.yield %ret : !transform.any_op
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.include @find_return failures(propagate) (%root) : (!transform.any_op) -> !transform.any_op
    transform.annotate %ret "from_callee" : !transform.any_op
    transform.yield
  }
}
