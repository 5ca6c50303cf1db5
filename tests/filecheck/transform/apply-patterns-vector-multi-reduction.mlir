// RUN: schedir-opt %s --split-input-file | filecheck %s

// The multi-reduction stages (reorder_multi_reduction_dims, multi_reduction_flattening,
// multi_reduction_unrolling) with each lowering strategy; the expected IR is upstream's
// (iree-opt's transform interpreter gives the same, up to printing).

// reorder, innerreduction: reduction dims move innermost (vector.transpose).
// CHECK-LABEL: func.func @m1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [1, 0, 2] : vector<2x3x4xf32> to vector<3x2x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.multi_reduction <add>, %[[V_0]], %acc [1, 2] : vector<3x2x4xf32> to vector<3xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<3xf32>

// CHECK-LABEL: func.func @m2(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @m3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.multi_reduction <add>, %[[V_0]], %acc [1] : vector<8x4xf32> to vector<8xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<8xf32>

// CHECK-LABEL: func.func @m4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
// CHECK-NEXT:  return %[[V_0]] : i32

// CHECK-LABEL: func.func @m5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
// CHECK-NEXT:  return %[[V_0]] : f32

// CHECK-LABEL: func.func @m6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [1, 2] : vector<2x3x4xf32> to vector<2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2xf32>
module attributes {transform.with_named_sequence} {
  func.func @m1(%v: vector<2x3x4xf32>, %acc: vector<3xf32>) -> vector<3xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
    return %0 : vector<3xf32>
  }
  func.func @m2(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %0 = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @m3(%v: vector<4x8xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @m4(%v: vector<8xi32>, %acc: i32) -> i32 {
    %0 = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
    return %0 : i32
  }
  func.func @m5(%v: vector<2x4xf32>, %acc: f32) -> f32 {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
    return %0 : f32
  }
  func.func @m6(%v: vector<2x3x4xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [1, 2] : vector<2x3x4xf32> to vector<2xf32>
    return %0 : vector<2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.reorder_multi_reduction_dims lowering_strategy = innerreduction
    } : !transform.any_op
    transform.yield
  }
}

// -----

// reorder, innerparallel: reduction dims move outermost.
// CHECK-LABEL: func.func @m1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [0, 2, 1] : vector<2x3x4xf32> to vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.multi_reduction <add>, %[[V_0]], %acc [0, 1] : vector<2x4x3xf32> to vector<3xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<3xf32>

// CHECK-LABEL: func.func @m2(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.multi_reduction <maxnumf>, %[[V_0]], %acc [0] : vector<8x4xf32> to vector<4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4xf32>

// CHECK-LABEL: func.func @m3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<8xf32>

// CHECK-LABEL: func.func @m4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
// CHECK-NEXT:  return %[[V_0]] : i32

// CHECK-LABEL: func.func @m5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
// CHECK-NEXT:  return %[[V_0]] : f32

// CHECK-LABEL: func.func @m6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [1, 2, 0] : vector<2x3x4xf32> to vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.multi_reduction <add>, %[[V_0]], %acc [0, 1] : vector<3x4x2xf32> to vector<2xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<2xf32>
module attributes {transform.with_named_sequence} {
  func.func @m1(%v: vector<2x3x4xf32>, %acc: vector<3xf32>) -> vector<3xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
    return %0 : vector<3xf32>
  }
  func.func @m2(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %0 = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @m3(%v: vector<4x8xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @m4(%v: vector<8xi32>, %acc: i32) -> i32 {
    %0 = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
    return %0 : i32
  }
  func.func @m5(%v: vector<2x4xf32>, %acc: f32) -> f32 {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
    return %0 : f32
  }
  func.func @m6(%v: vector<2x3x4xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [1, 2] : vector<2x3x4xf32> to vector<2xf32>
    return %0 : vector<2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.reorder_multi_reduction_dims lowering_strategy = innerparallel
    } : !transform.any_op
    transform.yield
  }
}

// -----

// flattening, innerreduction: to a 2-D parallel x reduction multi_reduction (shape_cast).
// CHECK-LABEL: func.func @m1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<3xf32>

// CHECK-LABEL: func.func @m2(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @m3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<8xf32>

// CHECK-LABEL: func.func @m4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
// CHECK-NEXT:  return %[[V_0]] : i32

// CHECK-LABEL: func.func @m5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<2x4xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.multi_reduction <add>, %[[V_0]], %acc [0] : vector<8xf32> to f32
// CHECK-NEXT:  return %[[V_1]] : f32

// CHECK-LABEL: func.func @m6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<2x3x4xf32> to vector<2x12xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.multi_reduction <add>, %[[V_0]], %acc [1] : vector<2x12xf32> to vector<2xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<2xf32>
module attributes {transform.with_named_sequence} {
  func.func @m1(%v: vector<2x3x4xf32>, %acc: vector<3xf32>) -> vector<3xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
    return %0 : vector<3xf32>
  }
  func.func @m2(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %0 = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @m3(%v: vector<4x8xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @m4(%v: vector<8xi32>, %acc: i32) -> i32 {
    %0 = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
    return %0 : i32
  }
  func.func @m5(%v: vector<2x4xf32>, %acc: f32) -> f32 {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
    return %0 : f32
  }
  func.func @m6(%v: vector<2x3x4xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [1, 2] : vector<2x3x4xf32> to vector<2xf32>
    return %0 : vector<2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.multi_reduction_flattening lowering_strategy = innerreduction
    } : !transform.any_op
    transform.yield
  }
}

// -----

// flattening, innerparallel: to a 2-D reduction x parallel multi_reduction.
// CHECK-LABEL: func.func @m1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<3xf32>

// CHECK-LABEL: func.func @m2(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @m3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<8xf32>

// CHECK-LABEL: func.func @m4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
// CHECK-NEXT:  return %[[V_0]] : i32

// CHECK-LABEL: func.func @m5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<2x4xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.multi_reduction <add>, %[[V_0]], %acc [0] : vector<8xf32> to f32
// CHECK-NEXT:  return %[[V_1]] : f32

// CHECK-LABEL: func.func @m6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [1, 2] : vector<2x3x4xf32> to vector<2xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2xf32>
module attributes {transform.with_named_sequence} {
  func.func @m1(%v: vector<2x3x4xf32>, %acc: vector<3xf32>) -> vector<3xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
    return %0 : vector<3xf32>
  }
  func.func @m2(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %0 = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @m3(%v: vector<4x8xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @m4(%v: vector<8xi32>, %acc: i32) -> i32 {
    %0 = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
    return %0 : i32
  }
  func.func @m5(%v: vector<2x4xf32>, %acc: f32) -> f32 {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
    return %0 : f32
  }
  func.func @m6(%v: vector<2x3x4xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [1, 2] : vector<2x3x4xf32> to vector<2xf32>
    return %0 : vector<2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.multi_reduction_flattening lowering_strategy = innerparallel
    } : !transform.any_op
    transform.yield
  }
}

// -----

// unrolling, innerreduction: one vector.reduction per row.
// CHECK-LABEL: func.func @m2(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %v[0] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %acc[0] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.reduction <maxnumf>, %[[V_0]], %[[V_1]] : vector<8xf32> into f32
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_CST]] [0] : f32 into vector<4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %v[1] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %acc[1] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.reduction <maxnumf>, %[[V_4]], %[[V_5]] : vector<8xf32> into f32
// CHECK-NEXT:  %[[V_7:.*]] = vector.insert %[[V_6]], %[[V_3]] [1] : f32 into vector<4xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.extract %v[2] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %acc[2] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_10:.*]] = vector.reduction <maxnumf>, %[[V_8]], %[[V_9]] : vector<8xf32> into f32
// CHECK-NEXT:  %[[V_11:.*]] = vector.insert %[[V_10]], %[[V_7]] [2] : f32 into vector<4xf32>
// CHECK-NEXT:  %[[V_12:.*]] = vector.extract %v[3] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_13:.*]] = vector.extract %acc[3] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_14:.*]] = vector.reduction <maxnumf>, %[[V_12]], %[[V_13]] : vector<8xf32> into f32
// CHECK-NEXT:  %[[V_15:.*]] = vector.insert %[[V_14]], %[[V_11]] [3] : f32 into vector<4xf32>
// CHECK-NEXT:  return %[[V_15]] : vector<4xf32>

// CHECK-LABEL: func.func @m3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<8xf32>

// CHECK-LABEL: func.func @m4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.reduction <mul>, %v, %acc : vector<8xi32> into i32
// CHECK-NEXT:  return %[[V_0]] : i32

// CHECK-LABEL: func.func @m5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
// CHECK-NEXT:  return %[[V_0]] : f32
module attributes {transform.with_named_sequence} {
  func.func @m2(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %0 = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @m3(%v: vector<4x8xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @m4(%v: vector<8xi32>, %acc: i32) -> i32 {
    %0 = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
    return %0 : i32
  }
  func.func @m5(%v: vector<2x4xf32>, %acc: f32) -> f32 {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
    return %0 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.multi_reduction_unrolling lowering_strategy = innerreduction
    } : !transform.any_op
    transform.yield
  }
}

// -----

// unrolling, innerparallel: elementwise combination of the rows.
// CHECK-LABEL: func.func @m2(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @m3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %v[0] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.addf %[[V_0]], %acc : vector<8xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %v[1] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_3:.*]] = arith.addf %[[V_2]], %[[V_1]] : vector<8xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %v[2] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_5:.*]] = arith.addf %[[V_4]], %[[V_3]] : vector<8xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.extract %v[3] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_7:.*]] = arith.addf %[[V_6]], %[[V_5]] : vector<8xf32>
// CHECK-NEXT:  return %[[V_7]] : vector<8xf32>

// CHECK-LABEL: func.func @m4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.reduction <mul>, %v, %acc : vector<8xi32> into i32
// CHECK-NEXT:  return %[[V_0]] : i32

// CHECK-LABEL: func.func @m5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
// CHECK-NEXT:  return %[[V_0]] : f32
module attributes {transform.with_named_sequence} {
  func.func @m2(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %0 = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @m3(%v: vector<4x8xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @m4(%v: vector<8xi32>, %acc: i32) -> i32 {
    %0 = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
    return %0 : i32
  }
  func.func @m5(%v: vector<2x4xf32>, %acc: f32) -> f32 {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
    return %0 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.multi_reduction_unrolling lowering_strategy = innerparallel
    } : !transform.any_op
    transform.yield
  }
}

// -----

// All three stages together (innerparallel).
// CHECK-LABEL: func.func @m1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [0, 2, 1] : vector<2x3x4xf32> to vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %[[V_0]][0, 0] : vector<3xf32> from vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = arith.addf %[[V_1]], %acc : vector<3xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %[[V_0]][0, 1] : vector<3xf32> from vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = arith.addf %[[V_3]], %[[V_2]] : vector<3xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %[[V_0]][0, 2] : vector<3xf32> from vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_6:.*]] = arith.addf %[[V_5]], %[[V_4]] : vector<3xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %[[V_0]][0, 3] : vector<3xf32> from vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_8:.*]] = arith.addf %[[V_7]], %[[V_6]] : vector<3xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %[[V_0]][1, 0] : vector<3xf32> from vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_10:.*]] = arith.addf %[[V_9]], %[[V_8]] : vector<3xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.extract %[[V_0]][1, 1] : vector<3xf32> from vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_12:.*]] = arith.addf %[[V_11]], %[[V_10]] : vector<3xf32>
// CHECK-NEXT:  %[[V_13:.*]] = vector.extract %[[V_0]][1, 2] : vector<3xf32> from vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_14:.*]] = arith.addf %[[V_13]], %[[V_12]] : vector<3xf32>
// CHECK-NEXT:  %[[V_15:.*]] = vector.extract %[[V_0]][1, 3] : vector<3xf32> from vector<2x4x3xf32>
// CHECK-NEXT:  %[[V_16:.*]] = arith.addf %[[V_15]], %[[V_14]] : vector<3xf32>
// CHECK-NEXT:  return %[[V_16]] : vector<3xf32>

// CHECK-LABEL: func.func @m2(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %[[V_0]][0] : vector<4xf32> from vector<8x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = arith.maxnumf %[[V_1]], %acc : vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %[[V_0]][1] : vector<4xf32> from vector<8x4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = arith.maxnumf %[[V_3]], %[[V_2]] : vector<4xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %[[V_0]][2] : vector<4xf32> from vector<8x4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = arith.maxnumf %[[V_5]], %[[V_4]] : vector<4xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %[[V_0]][3] : vector<4xf32> from vector<8x4xf32>
// CHECK-NEXT:  %[[V_8:.*]] = arith.maxnumf %[[V_7]], %[[V_6]] : vector<4xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %[[V_0]][4] : vector<4xf32> from vector<8x4xf32>
// CHECK-NEXT:  %[[V_10:.*]] = arith.maxnumf %[[V_9]], %[[V_8]] : vector<4xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.extract %[[V_0]][5] : vector<4xf32> from vector<8x4xf32>
// CHECK-NEXT:  %[[V_12:.*]] = arith.maxnumf %[[V_11]], %[[V_10]] : vector<4xf32>
// CHECK-NEXT:  %[[V_13:.*]] = vector.extract %[[V_0]][6] : vector<4xf32> from vector<8x4xf32>
// CHECK-NEXT:  %[[V_14:.*]] = arith.maxnumf %[[V_13]], %[[V_12]] : vector<4xf32>
// CHECK-NEXT:  %[[V_15:.*]] = vector.extract %[[V_0]][7] : vector<4xf32> from vector<8x4xf32>
// CHECK-NEXT:  %[[V_16:.*]] = arith.maxnumf %[[V_15]], %[[V_14]] : vector<4xf32>
// CHECK-NEXT:  return %[[V_16]] : vector<4xf32>

// CHECK-LABEL: func.func @m3(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %v[0] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.addf %[[V_0]], %acc : vector<8xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %v[1] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_3:.*]] = arith.addf %[[V_2]], %[[V_1]] : vector<8xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %v[2] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_5:.*]] = arith.addf %[[V_4]], %[[V_3]] : vector<8xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.extract %v[3] : vector<8xf32> from vector<4x8xf32>
// CHECK-NEXT:  %[[V_7:.*]] = arith.addf %[[V_6]], %[[V_5]] : vector<8xf32>
// CHECK-NEXT:  return %[[V_7]] : vector<8xf32>

// CHECK-LABEL: func.func @m4(
// CHECK-NEXT:  %[[V_0:.*]] = vector.reduction <mul>, %v, %acc : vector<8xi32> into i32
// CHECK-NEXT:  return %[[V_0]] : i32

// CHECK-LABEL: func.func @m5(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<2x4xf32> to vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.reduction <add>, %[[V_0]], %acc : vector<8xf32> into f32
// CHECK-NEXT:  return %[[V_1]] : f32

// CHECK-LABEL: func.func @m6(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %v, [1, 2, 0] : vector<2x3x4xf32> to vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %[[V_0]][0, 0] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_2:.*]] = arith.addf %[[V_1]], %acc : vector<2xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %[[V_0]][0, 1] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_4:.*]] = arith.addf %[[V_3]], %[[V_2]] : vector<2xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %[[V_0]][0, 2] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_6:.*]] = arith.addf %[[V_5]], %[[V_4]] : vector<2xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %[[V_0]][0, 3] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_8:.*]] = arith.addf %[[V_7]], %[[V_6]] : vector<2xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %[[V_0]][1, 0] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_10:.*]] = arith.addf %[[V_9]], %[[V_8]] : vector<2xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.extract %[[V_0]][1, 1] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_12:.*]] = arith.addf %[[V_11]], %[[V_10]] : vector<2xf32>
// CHECK-NEXT:  %[[V_13:.*]] = vector.extract %[[V_0]][1, 2] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_14:.*]] = arith.addf %[[V_13]], %[[V_12]] : vector<2xf32>
// CHECK-NEXT:  %[[V_15:.*]] = vector.extract %[[V_0]][1, 3] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_16:.*]] = arith.addf %[[V_15]], %[[V_14]] : vector<2xf32>
// CHECK-NEXT:  %[[V_17:.*]] = vector.extract %[[V_0]][2, 0] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_18:.*]] = arith.addf %[[V_17]], %[[V_16]] : vector<2xf32>
// CHECK-NEXT:  %[[V_19:.*]] = vector.extract %[[V_0]][2, 1] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_20:.*]] = arith.addf %[[V_19]], %[[V_18]] : vector<2xf32>
// CHECK-NEXT:  %[[V_21:.*]] = vector.extract %[[V_0]][2, 2] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_22:.*]] = arith.addf %[[V_21]], %[[V_20]] : vector<2xf32>
// CHECK-NEXT:  %[[V_23:.*]] = vector.extract %[[V_0]][2, 3] : vector<2xf32> from vector<3x4x2xf32>
// CHECK-NEXT:  %[[V_24:.*]] = arith.addf %[[V_23]], %[[V_22]] : vector<2xf32>
// CHECK-NEXT:  return %[[V_24]] : vector<2xf32>
module attributes {transform.with_named_sequence} {
  func.func @m1(%v: vector<2x3x4xf32>, %acc: vector<3xf32>) -> vector<3xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
    return %0 : vector<3xf32>
  }
  func.func @m2(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %0 = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @m3(%v: vector<4x8xf32>, %acc: vector<8xf32>) -> vector<8xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<4x8xf32> to vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @m4(%v: vector<8xi32>, %acc: i32) -> i32 {
    %0 = vector.multi_reduction <mul>, %v, %acc [0] : vector<8xi32> to i32
    return %0 : i32
  }
  func.func @m5(%v: vector<2x4xf32>, %acc: f32) -> f32 {
    %0 = vector.multi_reduction <add>, %v, %acc [0, 1] : vector<2x4xf32> to f32
    return %0 : f32
  }
  func.func @m6(%v: vector<2x3x4xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
    %0 = vector.multi_reduction <add>, %v, %acc [1, 2] : vector<2x3x4xf32> to vector<2xf32>
    return %0 : vector<2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.reorder_multi_reduction_dims lowering_strategy = innerparallel
      transform.apply_patterns.vector.multi_reduction_flattening lowering_strategy = innerparallel
      transform.apply_patterns.vector.multi_reduction_unrolling lowering_strategy = innerparallel
    } : !transform.any_op
    transform.yield
  }
}
