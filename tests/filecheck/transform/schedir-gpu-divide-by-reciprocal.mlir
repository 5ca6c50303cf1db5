// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.gpu.divide_by_reciprocal is schedir's own extension op.

// transform.schedir.gpu.divide_by_reciprocal: each float division of the target's body
// becomes a multiplication by the divisor's reciprocal (1.0 / d), its fastmath flags kept
// on both new ops; other ops stay.
// CHECK-LABEL: func.func @normalize
// CHECK:       linalg.generic
// CHECK:       ^bb0(%[[E:.*]]: f32, %[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[R:.*]] = arith.divf %[[ONE]], %[[S]] fastmath<nnan> : f32
// CHECK-NEXT:    %[[Q:.*]] = arith.mulf %[[E]], %[[R]] fastmath<nnan> : f32
// CHECK-NEXT:    %[[A:.*]] = arith.addf %[[Q]], %[[E]] : f32
// CHECK-NEXT:    linalg.yield %[[A]] : f32
module attributes {transform.with_named_sequence} {
  func.func @normalize(%e: tensor<4x8xf32>, %s: tensor<4xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%e, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%o : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %q = arith.divf %a, %b fastmath<nnan> : f32
      %t = arith.addf %q, %a : f32
      linalg.yield %t : f32
    } -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.schedir.gpu.divide_by_reciprocal %g : !transform.any_op
    transform.yield
  }
}

// -----

// A target that is no structured op: a silenceable failure, with the reason at the op.
module attributes {transform.with_named_sequence} {
  func.func @not_structured(%a: f32, %b: f32) -> f32 {
    // expected-error @below {{'arith.divf' op expected a structured op with a body}}
    %q = arith.divf %a, %b : f32
    return %q : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %d = transform.structured.match ops{["arith.divf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not divide by reciprocals}}
    transform.schedir.gpu.divide_by_reciprocal %d : !transform.any_op
    transform.yield
  }
}
