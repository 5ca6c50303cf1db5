// RUN: schedir-opt %s --split-input-file --verify-diagnostics
// UPSTREAM-LACKS: nothing: upstream applies these ops; this file checks the diagnostic
// schedir gives for ops it parses but does not apply yet (schedir.transform.ops.PARSE_ONLY).

// An op schedir parses but does not implement yet (schedir.transform.ops.PARSE_ONLY)
// fails definitely when applied, naming the op.
module attributes {transform.with_named_sequence} {
  func.func @f(%a: memref<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
      }
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.loop.promote_if_one_iteration' is not implemented yet in schedir's transform interpreter}}
    transform.loop.promote_if_one_iteration %l : !transform.any_op
    transform.yield
  }
}

// -----

// So does a pattern descriptor schedir has no pattern set for, named in apply_patterns.
module attributes {transform.with_named_sequence} {
  func.func @g() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      // expected-error @below {{'transform.apply_patterns.vector.lower_gather' is not implemented yet in schedir's transform interpreter}}
      transform.apply_patterns.vector.lower_gather
    } : !transform.any_op
    transform.yield
  }
}
