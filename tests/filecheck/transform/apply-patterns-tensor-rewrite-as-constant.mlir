// RUN: schedir-opt %s --split-input-file | filecheck %s

// A generate of a constant becomes a splat; a pad of a constant with a constant padding
// value becomes the padded constant (its source has one use).
// CHECK-LABEL: func.func @fold
// CHECK-DAG:     arith.constant dense<1.500000e+00> : tensor<2x3xf32>
// CHECK-DAG:     arith.constant dense<{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<4x3xf32>
// CHECK-NOT:     tensor.generate
// CHECK-NOT:     tensor.pad
module attributes {transform.with_named_sequence} {
  func.func @fold() -> (tensor<2x3xf32>, tensor<4x3xf32>) {
    %c = arith.constant 1.5 : f32
    %0 = tensor.generate {
    ^bb0(%i: index, %j: index):
      tensor.yield %c : f32
    } : tensor<2x3xf32>
    %s = arith.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
    %z = arith.constant 0.0 : f32
    %1 = tensor.pad %s low[1, 0] high[2, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %z : f32
    } : tensor<1x3xf32> to tensor<4x3xf32>
    return %0, %1 : tensor<2x3xf32>, tensor<4x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.rewrite_as_constant
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A constant with another use is padded only with `aggressive`.
// CHECK-LABEL: func.func @shared
// CHECK:         tensor.pad
// CHECK-LABEL: func.func @shared_aggressive
// CHECK-NOT:     tensor.pad
// CHECK:         arith.constant dense<{{\[}}[7, 7], [1, 2], [7, 7]]> : tensor<3x2xi32>
module attributes {transform.with_named_sequence} {
  func.func @shared() -> (tensor<1x2xi32>, tensor<3x2xi32>) {
    %s = arith.constant dense<[[1, 2]]> : tensor<1x2xi32>
    %z = arith.constant 7 : i32
    %1 = tensor.pad %s low[1, 0] high[1, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %z : i32
    } : tensor<1x2xi32> to tensor<3x2xi32>
    return %s, %1 : tensor<1x2xi32>, tensor<3x2xi32>
  }
  func.func @shared_aggressive() -> (tensor<1x2xi32>, tensor<3x2xi32>) {
    %s = arith.constant dense<[[1, 2]]> : tensor<1x2xi32>
    %z = arith.constant 7 : i32
    %1 = tensor.pad %s low[1, 0] high[1, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %z : i32
    } : tensor<1x2xi32> to tensor<3x2xi32>
    return %s, %1 : tensor<1x2xi32>, tensor<3x2xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "shared"} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.rewrite_as_constant
    } : !transform.any_op
    %g = transform.structured.match ops{["func.func"]} attributes {sym_name = "shared_aggressive"} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %g {
      transform.apply_patterns.tensor.rewrite_as_constant aggressive
    } : !transform.any_op
    transform.yield
  }
}
