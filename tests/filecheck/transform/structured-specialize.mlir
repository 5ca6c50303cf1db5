// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// generalize then specialize gives back the named ops (transposed matmul operand,
// strided convolution, batch_matmul, fill, copy, broadcast, transpose).
// CHECK-LABEL: func.func @roundtrip
// CHECK:      linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK:      linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>{{.*}}}
// CHECK:      linalg.broadcast ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) dimensions = [0]
// CHECK:      linalg.transpose ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>) permutation = [1, 0]
// CHECK:      linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
// CHECK:      linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK:      linalg.copy ins(%{{.*}} : tensor<4x16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK-NOT:  linalg.generic
module attributes {transform.with_named_sequence} {
  func.func @roundtrip(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>, %c: tensor<4x16xf32>, %x: tensor<1x9x9x3xf32>, %w: tensor<3x3x3x5xf32>, %o: tensor<1x4x4x5xf32>, %v: tensor<8xf32>, %t: tensor<8x4xf32>, %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x16xf32>, %bc: tensor<2x4x16xf32>, %s: f32) -> (tensor<4x16xf32>, tensor<1x4x4x5xf32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x9x9x3xf32>, tensor<3x3x3x5xf32>) outs(%o : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
    %2 = linalg.broadcast ins(%v : tensor<8xf32>) outs(%a : tensor<4x8xf32>) dimensions = [0]
    %3 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]
    %4 = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%bc : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %5 = linalg.fill ins(%s : f32) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    %6 = linalg.copy ins(%5 : tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %0, %1, %2, %3, %4, %5, %6 : tensor<4x16xf32>, tensor<1x4x4x5xf32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.generalize %ops : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.specialize %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Poolings and depthwise convolutions, strides and dilations read off the input map.
// CHECK-LABEL: func.func @windows
// CHECK: linalg.pooling_nhwc_max {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>{{.*}}}
// CHECK: linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>{{.*}}}
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>{{.*}}}
module attributes {transform.with_named_sequence} {
  func.func @windows(%x: tensor<1x9x9x3xf32>, %w: tensor<3x3xf32>, %o: tensor<1x4x4x3xf32>, %k: tensor<3x3x3xf32>) -> (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) {
    %0 = linalg.pooling_nhwc_max {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x9x9x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    %1 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x9x9x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    %2 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %k : tensor<1x9x9x3xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    return %0, %1, %2 : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.generalize %ops : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.specialize %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A generic with unsigned extensions before the multiply is a matmul with
// cast_unsigned; a fill of an inlined constant is a linalg.fill of that constant.
// CHECK-LABEL: func.func @unsigned_and_inlined
// CHECK:      %[[CST:.*]] = arith.constant 7 : i32
// CHECK:      linalg.fill ins(%[[CST]] : i32) outs(%{{.*}} : tensor<4x16xi32>)
// CHECK:      linalg.matmul {cast = #linalg.type_fn<cast_unsigned>{{.*}}} ins(%{{.*}}, %{{.*}} : tensor<4x8xi8>, tensor<8x16xi8>) outs(%{{.*}} : tensor<4x16xi32>)
module attributes {transform.with_named_sequence} {
  func.func @unsigned_and_inlined(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
    %cst = arith.constant 7 : i32
    %f = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%c : tensor<4x16xi32>) {
    ^bb0(%out: i32):
      linalg.yield %cst : i32
    } -> tensor<4x16xi32>
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x8xi8>, tensor<8x16xi8>) outs(%f : tensor<4x16xi32>) {
    ^bb0(%in: i8, %in_0: i8, %out: i32):
      %1 = arith.extui %in : i8 to i32
      %2 = arith.extui %in_0 : i8 to i32
      %3 = arith.muli %1, %2 : i32
      %4 = arith.addi %out, %3 : i32
      linalg.yield %4 : i32
    } -> tensor<4x16xi32>
    return %0 : tensor<4x16xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.specialize %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Ops that are not linalg.generic are returned unchanged.
// CHECK-LABEL: func.func @named
// CHECK: linalg.copy {kept}
module attributes {transform.with_named_sequence} {
  func.func @named(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
    %0 = linalg.copy ins(%x : tensor<4xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.specialize %c : (!transform.any_op) -> !transform.any_op
    transform.annotate %s "kept" : !transform.any_op
    transform.yield
  }
}

// -----

// A row sum is no named op: the default silenceable failure.
module attributes {transform.with_named_sequence} {
  func.func @no_match(%a: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
    // expected-note @below {{when applied to this op}}
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    } -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.specialize failed to apply}}
    %s = transform.structured.specialize %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A cast of the accumulated value cannot be expressed by linalg.matmul.
module attributes {transform.with_named_sequence} {
  func.func @output_cast(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf16>) -> tensor<4x16xf16> {
    // expected-note @below {{when applied to this op}}
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf16>) {
    ^bb0(%in: f32, %in_0: f32, %out: f16):
      %1 = arith.mulf %in, %in_0 : f32
      %2 = arith.truncf %1 : f32 to f16
      %3 = arith.addf %out, %2 : f16
      linalg.yield %3 : f16
    } -> tensor<4x16xf16>
    return %0 : tensor<4x16xf16>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.specialize failed to apply}}
    %s = transform.structured.specialize %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
