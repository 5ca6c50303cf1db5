// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// foreach runs its body once per payload op and concatenates what it yields.
// CHECK-LABEL: func.func @foreach
// CHECK: arith.addf {{.*}} {visited}
// CHECK: arith.mulf {{.*}} {visited}
// CHECK: return {collected}
module attributes {transform.with_named_sequence} {
  func.func @foreach(%x: f32) -> f32 {
    %0 = arith.addf %x, %x : f32
    %1 = arith.mulf %0, %x : f32
    return %1 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["arith.addf", "arith.mulf"]} in %root : (!transform.any_op) -> !transform.any_op
    %users = transform.foreach %ops : !transform.any_op -> !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.annotate %op "visited" : !transform.any_op
      %u = transform.get_consumers_of_result %op[0] : (!transform.any_op) -> !transform.any_op
      transform.yield %u : !transform.any_op
    }
    %ret = transform.select "func.return" in %users : (!transform.any_op) -> !transform.any_op
    transform.annotate %ret "collected" : !transform.any_op
    transform.yield
  }
}

// -----

// alternatives: the first alternative that succeeds is kept, failed ones are rolled back.
// CHECK-LABEL: func.func @alternatives
// CHECK-NOT: {first}
// CHECK: return {second}
module attributes {transform.with_named_sequence} {
  func.func @alternatives() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %ret <{op_name = "func.func"}> : (!transform.any_op) -> !transform.any_op
    transform.alternatives %f : !transform.any_op {
    ^bb0(%scope: !transform.any_op):
      %r = transform.structured.match ops{["func.return"]} in %scope : (!transform.any_op) -> !transform.any_op
      transform.annotate %r "first" : !transform.any_op
      %a, %b = transform.split_handle %r : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.yield
    }, {
    ^bb0(%scope: !transform.any_op):
      %r = transform.structured.match ops{["func.return"]} in %scope : (!transform.any_op) -> !transform.any_op
      transform.annotate %r "second" : !transform.any_op
      transform.yield
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @all_fail() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %ret <{op_name = "func.func"}> : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{all alternatives failed}}
    transform.alternatives %f : !transform.any_op {
    ^bb0(%scope: !transform.any_op):
      %r = transform.structured.match ops{["func.return"]} in %scope : (!transform.any_op) -> !transform.any_op
      %a, %b = transform.split_handle %r : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.yield
    }
    transform.yield
  }
}

// -----

// foreach_match: post-order walk, the first matcher that succeeds picks the action.
// CHECK-LABEL: func.func @matchers
// CHECK: arith.addf {{.*}} {is_add}
// CHECK: arith.mulf {{.*}} {other}
// CHECK: return {other}
module attributes {transform.with_named_sequence} {
  func.func @matchers(%x: f32) -> f32 {
    %0 = arith.addf %x, %x : f32
    %1 = arith.mulf %0, %x : f32
    return %1 : f32
  }
  transform.named_sequence @match_add(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["arith.addf"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @match_any(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["arith.mulf", "func.return"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @tag_add(%op: !transform.any_op {transform.readonly}) {
    transform.annotate %op "is_add" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tag_other(%op: !transform.any_op {transform.readonly}) {
    transform.annotate %op "other" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %updated = transform.foreach_match in %f
        @match_add -> @tag_add,
        @match_any -> @tag_other
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
