// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: for a transposed operand upstream builds an invalid collapse_shape; schedir fails cleanly.

// An elementwise generic and a named copy: operands collapsed to one dimension (the rank-0
// operand kept), one parallel loop, results expanded back.
// CHECK-LABEL: func.func @generic
// CHECK:         %[[A:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2]] : tensor<2x3x5xf32> into tensor<30xf32>
// CHECK:         %[[B:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2]] : tensor<2x3x5xf32> into tensor<30xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-SAME:      ins(%[[A]], %{{.*}} : tensor<30xf32>, tensor<f32>) outs(%[[B]] : tensor<30xf32>)
// CHECK:         tensor.expand_shape %[[G]] {{\[}}[0, 1, 2]] output_shape [2, 3, 5] : tensor<30xf32> into tensor<2x3x5xf32>
module attributes {transform.with_named_sequence} {
  func.func @generic(%a: tensor<2x3x5xf32>, %s: tensor<f32>, %b: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %s : tensor<2x3x5xf32>, tensor<f32>) outs(%b : tensor<2x3x5xf32>) {
    ^bb0(%x: f32, %c: f32, %y: f32):
      %m = arith.mulf %x, %c : f32
      linalg.yield %m : f32
    } -> tensor<2x3x5xf32>
    return %0 : tensor<2x3x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.flatten_elementwise %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_on_buffers
// CHECK:         %[[A:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<3x5xf32> into memref<15xf32>
// CHECK:         %[[B:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<3x5xf32> into memref<15xf32>
// CHECK:         linalg.copy ins(%[[A]] : memref<15xf32>) outs(%[[B]] : memref<15xf32>)
module attributes {transform.with_named_sequence} {
  func.func @copy_on_buffers(%a: memref<3x5xf32>, %b: memref<3x5xf32>) {
    linalg.copy ins(%a : memref<3x5xf32>) outs(%b : memref<3x5xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.flatten_elementwise %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @reduction(%a: tensor<3x5xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
    // expected-error @below {{only elementwise flattening is supported}}
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<3x5xf32>) outs(%b : tensor<3xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.flatten_elementwise %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @transposed(%a: tensor<5x3xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
    // expected-error @below {{attempted to flatten, but failed}}
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<5x3xf32>) outs(%b : tensor<3x5xf32>) {
    ^bb0(%x: f32, %y: f32):
      linalg.yield %x : f32
    } -> tensor<3x5xf32>
    return %0 : tensor<3x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.flatten_elementwise %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
