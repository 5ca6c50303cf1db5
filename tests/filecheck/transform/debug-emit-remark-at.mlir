// RUN: schedir-opt %s --split-input-file --verify-diagnostics
// UPSTREAM-LACKS: debug_extension
// (iree-opt does not register the debug extension.) Cases follow upstream's uses in
// mlir/test/Dialect/Transform/test-interpreter.mlir: a remark at each payload op of an op
// handle; for a value handle, at the value with a note naming the result or argument.

module attributes {transform.with_named_sequence} {
  // expected-remark @below {{function}}
  func.func @f(%x: f32) -> f32 {
    // expected-remark @below {{add}}
    %0 = arith.addf %x, %x : f32
    // expected-remark @below {{add}}
    %1 = arith.addf %0, %x : f32
    return %1 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "function" : !transform.any_op
    %adds = transform.structured.match ops{["arith.addf"]} in %f : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %adds, "add" : !transform.any_op
    // An empty handle emits nothing.
    %none = transform.structured.match ops{["arith.mulf"]} in %f : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %none, "never" : !transform.any_op
    transform.yield
  }
}

// -----

// A value handle: the remark is at the value, with a note saying what it is.
module attributes {transform.with_named_sequence} {
  func.func @g(%x: f32) -> f32 {
    // expected-remark @below {{result}}
    // expected-note @below {{value handle points to an op result #0}}
    %0 = arith.addf %x, %x : f32
    return %0 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.get_result %add[0] : (!transform.any_op) -> !transform.any_value
    transform.debug.emit_remark_at %v, "result" : !transform.any_value
    transform.yield
  }
}

// -----

// As a match op it may run inside a foreach_match matcher (here: for every arith.addf).
module attributes {transform.with_named_sequence} {
  func.func @h(%x: f32) -> f32 {
    // expected-remark @below {{matched}}
    %0 = arith.addf %x, %x : f32
    %1 = arith.mulf %0, %x : f32
    return %1 : f32
  }
  transform.named_sequence @match_add(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["arith.addf"] : !transform.any_op
    transform.debug.emit_remark_at %op, "matched" : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @noop(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %root @match_add -> @noop : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 1 : i64 -> !transform.any_param
    // expected-error @below {{operand #0 must be any transform handle type, but got '!transform.any_param'}}
    transform.debug.emit_remark_at %p, "param" : !transform.any_param
    transform.yield
  }
}
