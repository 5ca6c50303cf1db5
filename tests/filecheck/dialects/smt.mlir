// RUN: schedir-opt %s --no-schedule | schedir-opt --no-schedule - | filecheck %s
// UPSTREAM-LACKS: iree-opt does not register the transform dialect's SMT extension.
// RUN: schedir-opt %s 2>&1 | filecheck %s --check-prefix=APPLIED

// The SMT dialect's integer theory (upstream SMTIntOps.td) and the transform SMT
// extension's constrain_params, in both spellings of its types; applying the schedule
// evaluates the constraints on the params' values (all hold here) and yields computed
// params.

// CHECK-LABEL: transform.named_sequence @__transform_main
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.param.constant 4 -> !transform.param<i64>
    %b = transform.param.constant 96 -> !transform.param<i64>
    %t = transform.param.constant true -> !transform.any_param
    // CHECK: transform.smt.constrain_params(%{{.*}}, %{{.*}}) : (!transform.param<i64>, !transform.param<i64>) -> () {
    // CHECK-NEXT: ^{{.*}}(%[[A:.*]]: !smt.int, %[[B:.*]]: !smt.int):
    transform.smt.constrain_params(%a, %b) : !transform.param<i64>, !transform.param<i64> {
    ^bb0(%va: !smt.int, %vb: !smt.int):
      // CHECK-NEXT: %[[C0:.*]] = smt.int.constant 0
      %c0 = smt.int.constant 0
      // CHECK-NEXT: %[[CN:.*]] = smt.int.constant -7
      %cn = smt.int.constant -7
      // CHECK-NEXT: %[[R:.*]] = smt.int.mod %[[B]], %[[A]]
      %r = smt.int.mod %vb, %va
      // CHECK-NEXT: %[[Q:.*]] = smt.int.div %[[B]], %[[A]]
      %q = smt.int.div %vb, %va
      // CHECK-NEXT: %[[S:.*]] = smt.int.sub %[[Q]], %[[CN]]
      %s = smt.int.sub %q, %cn
      // CHECK-NEXT: %[[P:.*]] = smt.int.mul %[[A]], %[[A]], %[[A]]
      %p = smt.int.mul %va, %va, %va
      // CHECK-NEXT: %[[SUM:.*]] = smt.int.add %[[P]], %[[S]]
      %sum = smt.int.add %p, %s
      // CHECK-NEXT: %[[ABS:.*]] = smt.int.abs %[[CN]]
      %abs = smt.int.abs %cn
      // CHECK-NEXT: %[[EQ:.*]] = smt.eq %[[R]], %[[C0]] : !smt.int
      %eq = smt.eq %r, %c0 : !smt.int
      // CHECK-NEXT: %[[NE:.*]] = smt.distinct %[[A]], %[[B]], %[[ABS]] : !smt.int
      %ne = smt.distinct %va, %vb, %abs : !smt.int
      // CHECK-NEXT: %[[LT:.*]] = smt.int.cmp lt %[[A]], %[[SUM]]
      %lt = smt.int.cmp lt %va, %sum
      // CHECK-NEXT: %[[GE:.*]] = smt.int.cmp ge %[[B]], %[[A]] {note = "kept"}
      %ge = smt.int.cmp ge %vb, %va {note = "kept"}
      // CHECK-NEXT: %[[BOTH:.*]] = smt.and %[[EQ]], %[[NE]]
      %both = smt.and %eq, %ne
      // CHECK-NEXT: %[[ITE:.*]] = smt.ite %[[LT]], %[[A]], %[[B]] : !smt.int
      %ite = smt.ite %lt, %va, %vb : !smt.int
      // CHECK-NEXT: smt.assert %[[BOTH]]
      smt.assert %both
      // CHECK-NEXT: smt.assert %[[GE]]
      smt.assert %ge
      // CHECK-NEXT: }
    }
    // CHECK: = transform.smt.constrain_params(%{{.*}}, %{{.*}}) : (!transform.param<i64>, !transform.any_param) -> (!transform.param<i64>, !transform.any_param) {
    %sq, %flag = transform.smt.constrain_params(%a, %t) : (!transform.param<i64>, !transform.any_param) -> (!transform.param<i64>, !transform.any_param) {
    ^bb0(%va: !smt.int, %vt: !smt.bool):
      %m = smt.int.mul %va, %va
      %f = smt.not %vt
      %g = smt.or %vt, %f
      smt.assert %g
      // CHECK: smt.yield %{{.*}}, %{{.*}} : !smt.int, !smt.bool
      smt.yield %m, %f : !smt.int, !smt.bool
    }
    // APPLIED: remark: 16 : i64
    transform.debug.emit_param_as_remark %sq : !transform.param<i64>
    // APPLIED: remark: false
    transform.debug.emit_param_as_remark %flag : !transform.any_param
    // CHECK: transform.smt.constrain_params() : () -> () {
    // CHECK-NEXT: }
    transform.smt.constrain_params() : () -> () {
    }
    transform.yield
  }
  // APPLIED: func.func @f
  func.func @f() {
    return
  }
}
