// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// foreach_match's checks of its matcher -> action pairs (upstream's
// ForeachMatchOp::verifySymbolUses) and of matcher bodies (upstream's matchBlock): the
// message and place upstream reports, with the "symbol declaration" notes.

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    // expected-error @below {{expected operations in the match part to implement MatchOpInterface}}
    transform.annotate %op "x" : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  // expected-error @below {{must provide consumed/readonly status for arguments of external or called ops}}
  transform.named_sequence @m(%op: !transform.any_op) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  // expected-note @below {{symbol declaration}}
  transform.named_sequence @m(%op: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %r = transform.apply_registered_pass "canonicalize" to %op : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{does not expect matcher symbol to consume its operand #0}}
    transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  // expected-note @below {{symbol declaration}}
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{the number of action results (1) for @a doesn't match the number of extra op results (0)}}
    transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_param {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{mismatching type interfaces for matcher result and action argument #0of matcher @m and action @a}}
    transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  // expected-note @below {{symbol declaration}}
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) -> !transform.any_param {
    %p = transform.param.constant 1 : i64 -> !transform.any_param
    transform.yield %p : !transform.any_param
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{mismatching type interfaces for action result #0 of action @a and op result}}
    transform.foreach_match in %root @m -> @a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  // expected-note @below {{symbol declaration}}
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}, %p: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %p = transform.param.constant 1 : i64 -> !transform.any_param
    // expected-error @below {{mismatching type interfaces for operand and matcher argument #1 of matcher @m}}
    transform.foreach_match in %root, %p @m -> @a : (!transform.any_op, !transform.any_param) -> !transform.any_op
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  // expected-note @below {{symbol declaration}}
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %p = transform.param.constant 1 : i64 -> !transform.any_param
    // expected-error @below {{the number of operands (2) doesn't match the number of matcher arguments (1) for @m}}
    transform.foreach_match in %root, %p @m -> @a : (!transform.any_op, !transform.any_param) -> !transform.any_op
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a() {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{mismatching number of matcher results and action arguments between @m (1) and @a (0)}}
    transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
// -----

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_param {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{unresolved matcher symbol @missing}}
    transform.foreach_match in %root @missing -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
