// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// %v in [0, 16): min(s0 + 8, 32) is s0 + 8 (an affine.apply); max(s0 - 20, 0) is 0; a
// mod term's range decides min(s0 mod 4, 3); min(s0, s1) needs a bound on %w and stays.
// CHECK-DAG:     #[[PLUS8:.*]] = affine_map<()[s0] -> (s0 + 8)>
// CHECK-DAG:     #[[MOD4:.*]] = affine_map<()[s0] -> (s0 mod 4)>
// CHECK-LABEL: func.func @bounded
// CHECK-DAG:     %[[V:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[A:.*]] = affine.apply #[[PLUS8]]()[%[[V]]]
// CHECK-DAG:     %[[M:.*]] = affine.apply #[[MOD4]]()[%[[V]]]
// CHECK-DAG:     %[[K:.*]] = affine.min #{{.*}}()[%[[V]], %{{.*}}]
// CHECK:         return %[[A]], %[[ZERO]], %[[M]], %[[K]]
module attributes {transform.with_named_sequence} {
  func.func @bounded(%x: i32, %w: index) -> (index, index, index, index) {
    %v = arith.index_cast %x : i32 to index
    %a = affine.min affine_map<()[s0] -> (s0 + 8, 32)>()[%v]
    %b = affine.max affine_map<()[s0] -> (s0 - 20, 0)>()[%v]
    %m = affine.min affine_map<()[s0] -> (s0 mod 4, 3)>()[%v]
    %k = affine.min affine_map<()[s0, s1] -> (s0, s1)>()[%v, %w]
    return %a, %b, %m, %k : index, index, index, index
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["affine.min", "affine.max"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.match ops{["arith.index_cast"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.affine.simplify_bounded_affine_ops %mm with [%v : !transform.any_op] within [0] and [16] : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_min_max(%x: i32) -> index {
    // expected-note @below {{target op}}
    %v = arith.index_cast %x : i32 to index
    return %v : index
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %v = transform.structured.match ops{["arith.index_cast"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{target must be affine.min or affine.max}}
    transform.affine.simplify_bounded_affine_ops %v with [] within [] and [] : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @non_index(%x: i32) -> i32 {
    // expected-note @below {{multiple/non-index result}}
    %y = arith.addi %x, %x : i32
    return %y : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.structured.match ops{["arith.addi"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected bounded value handle to point to one or multiple single-result index-typed ops}}
    transform.affine.simplify_bounded_affine_ops %f with [%y : !transform.any_op] within [0] and [4] : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{incorrect number of upper bounds, expected 1 but found 2}}
    transform.affine.simplify_bounded_affine_ops %h with [%root : !transform.any_op] within [0] and [1, 2] : !transform.any_op
    transform.yield
  }
}
