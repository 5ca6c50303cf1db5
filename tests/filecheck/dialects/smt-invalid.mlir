// RUN: schedir-opt %s --split-input-file --verify-diagnostics
// UPSTREAM-LACKS: iree-opt does not register the transform dialect's SMT extension.
// Verifier errors of the SMT integer ops and of transform.smt.constrain_params (upstream's
// messages where upstream has the check), and the definite failures of applying it.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 42 -> !transform.param<i64>
    // expected-error @below {{ops contained in region should belong to SMT-dialect}}
    transform.smt.constrain_params(%p) : (!transform.param<i64>) -> () {
    ^bb0(%v: !smt.int):
      %c4 = arith.constant 4 : i32
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 42 -> !transform.param<i64>
    // expected-error @below {{must have the same number of block arguments as operands}}
    transform.smt.constrain_params(%p) : (!transform.param<i64>) -> () {
    ^bb0(%v: !smt.int, %w: !smt.int):
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 42 -> !transform.param<i64>
    // expected-error @below {{expects as many yielded values (0) as results (1)}}
    %r = transform.smt.constrain_params(%p) : (!transform.param<i64>) -> !transform.param<i64> {
    ^bb0(%v: !smt.int):
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 42 -> !transform.param<i64>
    transform.smt.constrain_params(%p) : (!transform.param<i64>) -> () {
    ^bb0(%v: !smt.int):
      %t = smt.constant true
      // expected-error @below {{operand 'inputs' at positions 0 to 1 does not verify}}
      %bad = "smt.int.add"(%v, %t) : (!smt.int, !smt.bool) -> !smt.int
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 42 -> !transform.param<i64>
    transform.smt.constrain_params(%p) : (!transform.param<i64>) -> () {
    ^bb0(%v: !smt.int):
      // expected-error @below {{expected one of lt, le, gt, ge as the predicate, got 'eq'}}
      %b = smt.int.cmp eq %v, %v
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.param.constant 8 -> !transform.param<i64>
    %b = transform.param.constant 20 -> !transform.param<i64>
    // expected-error @below {{constraint violated for params (8, 20): the asserted condition is false}}
    transform.smt.constrain_params(%a, %b) : (!transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%va: !smt.int, %vb: !smt.int):
      %c0 = smt.int.constant 0
      %r = smt.int.mod %vb, %va
      %ok = smt.eq %r, %c0 : !smt.int
      // expected-note @below {{the false assertion}}
      smt.assert %ok
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.param.constant 0 -> !transform.param<i64>
    // expected-error @below {{constraint violated for params (0): 'smt.int.mod' divides by zero}}
    transform.smt.constrain_params(%a) : (!transform.param<i64>) -> () {
    ^bb0(%va: !smt.int):
      %r = smt.int.mod %va, %va
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.param.constant [4, 8] -> !transform.any_param
    // expected-error @below {{param #0 should hold exactly one value of sort !smt.int, got: [4 : i64, 8 : i64]}}
    transform.smt.constrain_params(%a) : (!transform.any_param) -> () {
    ^bb0(%va: !smt.int):
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.param.constant 4 -> !transform.param<i64>
    // expected-error @below {{'smt.bv.constant' cannot be evaluated on concrete values}}
    transform.smt.constrain_params(%a) : (!transform.param<i64>) -> () {
    ^bb0(%va: !smt.int):
      // expected-note @below {{this op}}
      %c = smt.bv.constant #smt.bv<5> : !smt.bv<4>
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.param.constant 4294967296 -> !transform.param<i64>
    // expected-error @below {{yielded value 18446744073709551616 does not fit a 64-bit param}}
    %r = transform.smt.constrain_params(%a) : (!transform.param<i64>) -> !transform.param<i64> {
    ^bb0(%va: !smt.int):
      %m = smt.int.mul %va, %va
      smt.yield %m : !smt.int
    }
    transform.yield
  }
}
