// RUN: schedir-opt %s --split-input-file --verify-diagnostics
// UPSTREAM-LACKS: debug_extension
// (iree-opt does not register the debug extension.) Cases follow upstream's
// mlir/test/Dialect/Transform/param-type.mlir and test-interpreter.mlir: the parameter's
// attributes printed as a list (`1 : i64, 2 : i64`) after the optional message, at the
// transform op or at each payload op of the anchor.

module attributes {transform.with_named_sequence} {
  // expected-remark @below {{sizes 4 : i64, 8 : i64}}
  func.func @f() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.param.constant 4 : i64 -> !transform.param<i64>
    %b = transform.param.constant 8 : i64 -> !transform.param<i64>
    %ab = transform.merge_handles %a, %b : !transform.param<i64>
    // expected-remark @below {{4 : i64, 8 : i64}}
    transform.debug.emit_param_as_remark %ab : !transform.param<i64>
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_param_as_remark %ab, "sizes" at %f : !transform.param<i64>, !transform.any_op
    %n = transform.num_associations %ab : (!transform.param<i64>) -> !transform.param<i64>
    // expected-remark @below {{associations 2 : i64}}
    transform.debug.emit_param_as_remark %n, "associations" : !transform.param<i64>
    %s = transform.param.constant "tag" -> !transform.any_param
    // expected-remark @below {{"tag"}}
    transform.debug.emit_param_as_remark %s : !transform.any_param
    transform.yield
  }
}

// -----

// An anchor with no payload ops emits nothing.
module attributes {transform.with_named_sequence} {
  func.func @g() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 1 : i64 -> !transform.param<i64>
    %none = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_param_as_remark %p, "never" at %none : !transform.param<i64>, !transform.any_op
    transform.yield
  }
}
