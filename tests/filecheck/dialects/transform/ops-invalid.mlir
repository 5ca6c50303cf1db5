// RUN: schedir-opt %s --no-schedule --split-input-file --verify-diagnostics
// Verifier errors of transform ops, with upstream's messages (checked against iree-opt's
// own --verify-diagnostics by tests/unit/dialects/test_transform_lit_upstream.py).

module attributes {transform.with_named_sequence} {
  // expected-error @below {{argument #0 is consumed in the body but is not marked as such}}
  transform.named_sequence @f(%a: !transform.any_op {transform.readonly}) {
    %r = transform.apply_registered_pass "cse" to %a : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-error @below {{argument #0 cannot be both readonly and consumed}}
  transform.named_sequence @f(%a: !transform.any_op {transform.readonly, transform.consumed}) {
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-error @below {{must provide consumed/readonly status for arguments of external or called ops}}
  transform.named_sequence private @f(!transform.any_op)
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @g(%a: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.include' op does not reference a named transform sequence}}
    transform.include @nope failures(propagate) (%a) : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @s(%a: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.split_handle' op overflow_result is not a valid result index}}
    %0:2 = transform.split_handle %a overflow_result = 2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @s(%a: !transform.any_op {transform.consumed}) {
    // expected-error @below {{'transform.structured.tile_using_for' op expected number of loops to tile (2) to match number of `loops` results (1)}}
    %t, %l = transform.structured.tile_using_for %a tile_sizes [4, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @s(%a: !transform.any_op {transform.consumed}) {
    // expected-error @below {{'transform.structured.tile_using_forall' op either (packed_)num_threads or (packed_)tile_sizes must be specified}}
    %t, %f = transform.structured.tile_using_forall %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @s(%a: !transform.any_op {transform.consumed}) {
    // expected-error @below {{'transform.structured.fuse' op expects 2 loop results}}
    %t, %l = transform.structured.fuse %a tile_sizes [32, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @s(%a: !transform.any_op {transform.consumed}) {
    // expected-error @below {{'transform.gpu.map_forall_to_blocks' op transform requires empty or size-3 grid_dims}}
    %r = transform.gpu.map_forall_to_blocks %a grid_dims = [4, 4] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @s(%a: !transform.any_op {transform.consumed}) {
    // expected-error @below {{'transform.loop.peel' op operand #0 must be Transform IR handle to scf.for operations, but got '!transform.any_op'}}
    %m, %r = transform.loop.peel %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{'transform.match.structured.body' op only one of {"reduction_position", "passthrough", "elementwise", "contraction"} is allowed}}
      transform.match.structured.body %s elementwise passthrough : !transform.any_op
    }
    transform.yield
  }
}
