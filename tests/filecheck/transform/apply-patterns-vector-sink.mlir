// RUN: schedir-opt %s --split-input-file | filecheck %s

// transform.apply_patterns.vector.sink_ops; the expected IR is upstream's (iree-opt's
// transform interpreter gives the same, up to printing).

// Elementwise ops move above broadcasts and transposes of their operands (splat constants
// shrink, other constants get the inverse transpose); an extract of a single-use
// elementwise result extracts the operands instead (not through vector.fma).
// CHECK-LABEL: func.func @k1(
// CHECK-NEXT:  %[[V_0:.*]] = arith.addf %x, %y : f32
// CHECK-NEXT:  %[[V_R:.*]] = vector.broadcast %[[V_0]] : f32 to vector<4xf32>
// CHECK-NEXT:  return %[[V_R]] : vector<4xf32>

// CHECK-LABEL: func.func @k2(
// CHECK-NEXT:  %[[V_0:.*]] = arith.mulf %x, %y fastmath<fast> : vector<4xf32>
// CHECK-NEXT:  %[[V_R:.*]] = vector.broadcast %[[V_0]] : vector<4xf32> to vector<2x4xf32>
// CHECK-NEXT:  return %[[V_R]] : vector<2x4xf32>

// CHECK-LABEL: func.func @k3(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:  %[[V_0:.*]] = arith.mulf %x, %[[V_CST]] : f32
// CHECK-NEXT:  %[[V_R:.*]] = vector.broadcast %[[V_0]] : f32 to vector<4xf32>
// CHECK-NEXT:  return %[[V_R]] : vector<4xf32>

// CHECK-LABEL: func.func @k4(
// CHECK-NEXT:  %[[V_0:.*]] = arith.subf %x, %y : vector<4x2xf32>
// CHECK-NEXT:  %[[V_R:.*]] = vector.transpose %[[V_0]], [1, 0] : vector<4x2xf32> to vector<2x4xf32>
// CHECK-NEXT:  return %[[V_R]] : vector<2x4xf32>

// CHECK-LABEL: func.func @k5(
// CHECK-NEXT:  %[[V_C:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00{{\]\]}}> : vector<2x4xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %[[V_C]], [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.addf %x, %[[V_0]] : vector<4x2xf32>
// CHECK-NEXT:  %[[V_R:.*]] = vector.transpose %[[V_1]], [1, 0] : vector<4x2xf32> to vector<2x4xf32>
// CHECK-NEXT:  return %[[V_R]] : vector<2x4xf32>

// CHECK-LABEL: func.func @k6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %x[2] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %y[2] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_E:.*]] = arith.addf %[[V_0]], %[[V_1]] : f32
// CHECK-NEXT:  return %[[V_E]] : f32

// CHECK-LABEL: func.func @k7(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %x[1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[V_E:.*]] = math.exp %[[V_0]] : vector<4xf32>
// CHECK-NEXT:  return %[[V_E]] : vector<4xf32>

// CHECK-LABEL: func.func @k8(
// CHECK-NEXT:  %[[V_0:.*]] = arith.extf %x : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:  %[[V_R:.*]] = vector.broadcast %[[V_0]] : vector<4xf32> to vector<2x4xf32>
// CHECK-NEXT:  return %[[V_R]] : vector<2x4xf32>

// CHECK-LABEL: func.func @k9(
// CHECK-NEXT:  %[[V_R:.*]] = arith.addf %x, %y : vector<4xf32>
// CHECK-NEXT:  %[[V_E:.*]] = vector.extract %[[V_R]][2] : f32 from vector<4xf32>
// CHECK-NEXT:  return %[[V_E]], %[[V_R]] : f32, vector<4xf32>

// CHECK-LABEL: func.func @k10(
// CHECK-NEXT:  %[[V_A:.*]] = vector.broadcast %x : f32 to vector<4xf32>
// CHECK-NEXT:  %[[V_R:.*]] = arith.addf %[[V_A]], %y : vector<4xf32>
// CHECK-NEXT:  return %[[V_R]] : vector<4xf32>

// CHECK-LABEL: func.func @k11(
// CHECK-NEXT:  %[[V_0:.*]] = arith.extf %x : f16 to f32
// CHECK-NEXT:  %[[V_R:.*]] = vector.broadcast %[[V_0]] : f32 to vector<4xf32>
// CHECK-NEXT:  return %[[V_R]] : vector<4xf32>

// CHECK-LABEL: func.func @k12(
// CHECK-NEXT:  %[[V_R:.*]] = vector.fma %x, %y, %z : vector<4xf32>
// CHECK-NEXT:  %[[V_E:.*]] = vector.extract %[[V_R]][2] : f32 from vector<4xf32>
// CHECK-NEXT:  return %[[V_E]] : f32

// CHECK-LABEL: func.func @k13(
// CHECK-NEXT:  %[[V_0:.*]] = arith.addi %x, %y : i32
// CHECK-NEXT:  %[[V_R:.*]] = vector.broadcast %[[V_0]] : i32 to vector<1x4xi32>
// CHECK-NEXT:  return %[[V_R]] : vector<1x4xi32>
module attributes {transform.with_named_sequence} {
  func.func @k1(%x: f32, %y: f32) -> vector<4xf32> {
    %a = vector.broadcast %x : f32 to vector<4xf32>
    %b = vector.broadcast %y : f32 to vector<4xf32>
    %r = arith.addf %a, %b : vector<4xf32>
    return %r : vector<4xf32>
  }
  func.func @k2(%x: vector<4xf32>, %y: vector<4xf32>) -> vector<2x4xf32> {
    %a = vector.broadcast %x : vector<4xf32> to vector<2x4xf32>
    %b = vector.broadcast %y : vector<4xf32> to vector<2x4xf32>
    %r = arith.mulf %a, %b fastmath<fast> : vector<2x4xf32>
    return %r : vector<2x4xf32>
  }
  func.func @k3(%x: f32) -> vector<4xf32> {
    %a = vector.broadcast %x : f32 to vector<4xf32>
    %c = arith.constant dense<2.0> : vector<4xf32>
    %r = arith.mulf %a, %c : vector<4xf32>
    return %r : vector<4xf32>
  }
  func.func @k4(%x: vector<4x2xf32>, %y: vector<4x2xf32>) -> vector<2x4xf32> {
    %a = vector.transpose %x, [1, 0] : vector<4x2xf32> to vector<2x4xf32>
    %b = vector.transpose %y, [1, 0] : vector<4x2xf32> to vector<2x4xf32>
    %r = arith.subf %a, %b : vector<2x4xf32>
    return %r : vector<2x4xf32>
  }
  func.func @k5(%x: vector<4x2xf32>) -> vector<2x4xf32> {
    %a = vector.transpose %x, [1, 0] : vector<4x2xf32> to vector<2x4xf32>
    %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : vector<2x4xf32>
    %r = arith.addf %a, %c : vector<2x4xf32>
    return %r : vector<2x4xf32>
  }
  func.func @k6(%x: vector<4xf32>, %y: vector<4xf32>) -> f32 {
    %r = arith.addf %x, %y : vector<4xf32>
    %e = vector.extract %r[2] : f32 from vector<4xf32>
    return %e : f32
  }
  func.func @k7(%x: vector<2x4xf32>, %y: vector<2x4xf32>) -> vector<4xf32> {
    %r = math.exp %x : vector<2x4xf32>
    %e = vector.extract %r[1] : vector<4xf32> from vector<2x4xf32>
    return %e : vector<4xf32>
  }
  func.func @k8(%x: vector<4xf16>) -> vector<2x4xf32> {
    %a = vector.broadcast %x : vector<4xf16> to vector<2x4xf16>
    %r = arith.extf %a : vector<2x4xf16> to vector<2x4xf32>
    return %r : vector<2x4xf32>
  }
  func.func @k9(%x: vector<4xf32>, %y: vector<4xf32>) -> (f32, vector<4xf32>) {
    %r = arith.addf %x, %y : vector<4xf32>
    %e = vector.extract %r[2] : f32 from vector<4xf32>
    return %e, %r : f32, vector<4xf32>
  }
  func.func @k10(%x: f32, %y: vector<4xf32>) -> vector<4xf32> {
    %a = vector.broadcast %x : f32 to vector<4xf32>
    %r = arith.addf %a, %y : vector<4xf32>
    return %r : vector<4xf32>
  }
  func.func @k11(%x: f16) -> vector<4xf32> {
    %a = vector.broadcast %x : f16 to vector<4xf16>
    %r = arith.extf %a : vector<4xf16> to vector<4xf32>
    return %r : vector<4xf32>
  }
  func.func @k12(%x: vector<4xf32>, %y: vector<4xf32>, %z: vector<4xf32>) -> f32 {
    %r = vector.fma %x, %y, %z : vector<4xf32>
    %e = vector.extract %r[2] : f32 from vector<4xf32>
    return %e : f32
  }
  func.func @k13(%x: i32, %y: i32) -> vector<1x4xi32> {
    %a = vector.broadcast %x : i32 to vector<1x4xi32>
    %b = vector.broadcast %y : i32 to vector<1x4xi32>
    %r = arith.addi %a, %b : vector<1x4xi32>
    return %r : vector<1x4xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.sink_ops
    } : !transform.any_op
    transform.yield
  }
}
