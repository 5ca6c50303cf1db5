// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file | filecheck %s

// transform.apply_patterns.vector.lower_contraction (outerproduct, dot, parallelarith),
// lower_outerproduct and fold_arith_extension; the expected IR is upstream's (iree-opt's
// transform interpreter gives the same, up to printing).

// outerproduct: one vector.outerproduct per reduction index (operands transposed so the
// reduction dim leads); plain reductions become arith.mulf + vector.reduction.
// CHECK-LABEL: func.func @matmul(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %a, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %[[V_0]][0] : vector<2xf32> from vector<3x2xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %b[0] : vector<4xf32> from vector<3x4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.outerproduct %[[V_1]], %[[V_2]], %c {kind = #vector.kind<add>} : vector<2xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %[[V_0]][1] : vector<2xf32> from vector<3x2xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %b[1] : vector<4xf32> from vector<3x4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.outerproduct %[[V_4]], %[[V_5]], %[[V_3]] {kind = #vector.kind<add>} : vector<2xf32>, vector<4xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %[[V_0]][2] : vector<2xf32> from vector<3x2xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.extract %b[2] : vector<4xf32> from vector<3x4xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.outerproduct %[[V_7]], %[[V_8]], %[[V_6]] {kind = #vector.kind<add>} : vector<2xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_9]] : vector<2x4xf32>

// CHECK-LABEL: func.func @dot(
// CHECK-NEXT:  %[[V_0:.*]] = arith.mulf %a, %b : vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.reduction <add>, %[[V_0]], %c : vector<4xf32> into f32
// CHECK-NEXT:  return %[[V_1]] : f32

// CHECK-LABEL: func.func @matvec(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %a, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %[[V_0]][0] : vector<2xf32> from vector<3x2xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %b[0] : f32 from vector<3xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.outerproduct %[[V_1]], %[[V_2]], %c {kind = #vector.kind<add>} : vector<2xf32>, f32
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %[[V_0]][1] : vector<2xf32> from vector<3x2xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %b[1] : f32 from vector<3xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.outerproduct %[[V_4]], %[[V_5]], %[[V_3]] {kind = #vector.kind<add>} : vector<2xf32>, f32
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %[[V_0]][2] : vector<2xf32> from vector<3x2xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.extract %b[2] : f32 from vector<3xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.outerproduct %[[V_7]], %[[V_8]], %[[V_6]] {kind = #vector.kind<add>} : vector<2xf32>, f32
// CHECK-NEXT:  return %[[V_9]] : vector<2xf32>

// CHECK-LABEL: func.func @mixed_precision(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %a, [1, 0] : vector<2x2xf16> to vector<2x2xf16>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %[[V_0]][0] : vector<2xf16> from vector<2x2xf16>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %b[0] : vector<2xf16> from vector<2x2xf16>
// CHECK-NEXT:  %[[V_3:.*]] = arith.extf %[[V_1]] : vector<2xf16> to vector<2xf32>
// CHECK-NEXT:  %[[V_4:.*]] = arith.extf %[[V_2]] : vector<2xf16> to vector<2xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.outerproduct %[[V_3]], %[[V_4]], %c {kind = #vector.kind<add>} : vector<2xf32>, vector<2xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.extract %[[V_0]][1] : vector<2xf16> from vector<2x2xf16>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %b[1] : vector<2xf16> from vector<2x2xf16>
// CHECK-NEXT:  %[[V_8:.*]] = arith.extf %[[V_6]] : vector<2xf16> to vector<2xf32>
// CHECK-NEXT:  %[[V_9:.*]] = arith.extf %[[V_7]] : vector<2xf16> to vector<2xf32>
// CHECK-NEXT:  %[[V_10:.*]] = vector.outerproduct %[[V_8]], %[[V_9]], %[[V_5]] {kind = #vector.kind<add>} : vector<2xf32>, vector<2xf32>
// CHECK-NEXT:  return %[[V_10]] : vector<2x2xf32>

// CHECK-LABEL: func.func @int_matmul(
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %a, [1, 0] : vector<2x2xi32> to vector<2x2xi32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %[[V_0]][0] : vector<2xi32> from vector<2x2xi32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %b[0] : vector<3xi32> from vector<2x3xi32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.outerproduct %[[V_1]], %[[V_2]], %c {kind = #vector.kind<add>} : vector<2xi32>, vector<3xi32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %[[V_0]][1] : vector<2xi32> from vector<2x2xi32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %b[1] : vector<3xi32> from vector<2x3xi32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.outerproduct %[[V_4]], %[[V_5]], %[[V_3]] {kind = #vector.kind<add>} : vector<2xi32>, vector<3xi32>
// CHECK-NEXT:  return %[[V_6]] : vector<2x3xi32>
module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
  func.func @dot(%a: vector<4xf32>, %b: vector<4xf32>, %c: f32) -> f32 {
    %0 = vector.contract {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4xf32>, vector<4xf32> into f32
    return %0 : f32
  }
  func.func @matvec(%a: vector<2x3xf32>, %b: vector<3xf32>, %c: vector<2xf32>) -> vector<2xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3xf32> into vector<2xf32>
    return %0 : vector<2xf32>
  }
  func.func @mixed_precision(%a: vector<2x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x2xf16>, vector<2x2xf16> into vector<2x2xf32>
    return %0 : vector<2x2xf32>
  }
  func.func @int_matmul(%a: vector<2x2xi32>, %b: vector<2x3xi32>, %c: vector<2x3xi32>) -> vector<2x3xi32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x2xi32>, vector<2x3xi32> into vector<2x3xi32>
    return %0 : vector<2x3xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
    } : !transform.any_op
    transform.yield
  }
}

// -----

// dot: one vector.reduction of an elementwise product per result element.
// CHECK-LABEL: func.func @matmul(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x4xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.transpose %b, [1, 0] : vector<3x4xf32> to vector<4x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %a[0] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %[[V_0]][0] : vector<3xf32> from vector<4x3xf32>
// CHECK-NEXT:  %[[V_3:.*]] = arith.mulf %[[V_1]], %[[V_2]] : vector<3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.reduction <add>, %[[V_3]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_5:.*]] = vector.insert %[[V_4]], %[[V_CST]] [0, 0] : f32 into vector<2x4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.extract %[[V_0]][1] : vector<3xf32> from vector<4x3xf32>
// CHECK-NEXT:  %[[V_7:.*]] = arith.mulf %[[V_1]], %[[V_6]] : vector<3xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.reduction <add>, %[[V_7]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_9:.*]] = vector.insert %[[V_8]], %[[V_5]] [0, 1] : f32 into vector<2x4xf32>
// CHECK-NEXT:  %[[V_10:.*]] = vector.extract %[[V_0]][2] : vector<3xf32> from vector<4x3xf32>
// CHECK-NEXT:  %[[V_11:.*]] = arith.mulf %[[V_1]], %[[V_10]] : vector<3xf32>
// CHECK-NEXT:  %[[V_12:.*]] = vector.reduction <add>, %[[V_11]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_13:.*]] = vector.insert %[[V_12]], %[[V_9]] [0, 2] : f32 into vector<2x4xf32>
// CHECK-NEXT:  %[[V_14:.*]] = vector.extract %[[V_0]][3] : vector<3xf32> from vector<4x3xf32>
// CHECK-NEXT:  %[[V_15:.*]] = arith.mulf %[[V_1]], %[[V_14]] : vector<3xf32>
// CHECK-NEXT:  %[[V_16:.*]] = vector.reduction <add>, %[[V_15]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_17:.*]] = vector.insert %[[V_16]], %[[V_13]] [0, 3] : f32 into vector<2x4xf32>
// CHECK-NEXT:  %[[V_18:.*]] = vector.extract %a[1] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_19:.*]] = arith.mulf %[[V_18]], %[[V_2]] : vector<3xf32>
// CHECK-NEXT:  %[[V_20:.*]] = vector.reduction <add>, %[[V_19]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_21:.*]] = vector.insert %[[V_20]], %[[V_17]] [1, 0] : f32 into vector<2x4xf32>
// CHECK-NEXT:  %[[V_22:.*]] = arith.mulf %[[V_18]], %[[V_6]] : vector<3xf32>
// CHECK-NEXT:  %[[V_23:.*]] = vector.reduction <add>, %[[V_22]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_24:.*]] = vector.insert %[[V_23]], %[[V_21]] [1, 1] : f32 into vector<2x4xf32>
// CHECK-NEXT:  %[[V_25:.*]] = arith.mulf %[[V_18]], %[[V_10]] : vector<3xf32>
// CHECK-NEXT:  %[[V_26:.*]] = vector.reduction <add>, %[[V_25]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_27:.*]] = vector.insert %[[V_26]], %[[V_24]] [1, 2] : f32 into vector<2x4xf32>
// CHECK-NEXT:  %[[V_28:.*]] = arith.mulf %[[V_18]], %[[V_14]] : vector<3xf32>
// CHECK-NEXT:  %[[V_29:.*]] = vector.reduction <add>, %[[V_28]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_30:.*]] = vector.insert %[[V_29]], %[[V_27]] [1, 3] : f32 into vector<2x4xf32>
// CHECK-NEXT:  %[[V_31:.*]] = arith.addf %[[V_30]], %c : vector<2x4xf32>
// CHECK-NEXT:  return %[[V_31]] : vector<2x4xf32>

// CHECK-LABEL: func.func @dot(
// CHECK-NEXT:  %[[V_0:.*]] = arith.mulf %a, %b : vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.reduction <add>, %[[V_0]], %c : vector<4xf32> into f32
// CHECK-NEXT:  return %[[V_1]] : f32

// CHECK-LABEL: func.func @matvec(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = arith.mulf %[[V_0]], %b : vector<3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.reduction <add>, %[[V_1]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_CST]] [0] : f32 into vector<2xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %a[1] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_5:.*]] = arith.mulf %[[V_4]], %b : vector<3xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.reduction <add>, %[[V_5]] : vector<3xf32> into f32
// CHECK-NEXT:  %[[V_7:.*]] = vector.insert %[[V_6]], %[[V_3]] [1] : f32 into vector<2xf32>
// CHECK-NEXT:  %[[V_8:.*]] = arith.addf %[[V_7]], %c : vector<2xf32>
// CHECK-NEXT:  return %[[V_8]] : vector<2xf32>
module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
  func.func @dot(%a: vector<4xf32>, %b: vector<4xf32>, %c: f32) -> f32 {
    %0 = vector.contract {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4xf32>, vector<4xf32> into f32
    return %0 : f32
  }
  func.func @matvec(%a: vector<2x3xf32>, %b: vector<3xf32>, %c: vector<2xf32>) -> vector<2xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3xf32> into vector<2xf32>
    return %0 : vector<2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = dot
    } : !transform.any_op
    transform.yield
  }
}

// -----

// parallelarith: unit reduction dims become elementwise arithmetic; other contractions
// fall back to the generic (row by row) lowering.
// CHECK-LABEL: func.func @unit_reduction(
// CHECK-NEXT:  %[[V_0:.*]] = vector.broadcast %a : vector<2x1xf32> to vector<4x2x1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %b : vector<1x4xf32> to vector<2x1x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.transpose %[[V_0]], [2, 1, 0] : vector<4x2x1xf32> to vector<1x2x4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.transpose %[[V_1]], [1, 0, 2] : vector<2x1x4xf32> to vector<1x2x4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %[[V_2]][0] : vector<2x4xf32> from vector<1x2x4xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %[[V_3]][0] : vector<2x4xf32> from vector<1x2x4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.fma %[[V_4]], %[[V_5]], %c : vector<2x4xf32>
// CHECK-NEXT:  return %[[V_6]] : vector<2x4xf32>

// CHECK-LABEL: func.func @dot(
// CHECK-NEXT:  %[[V_0:.*]] = arith.mulf %a, %b : vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.reduction <add>, %[[V_0]], %c : vector<4xf32> into f32
// CHECK-NEXT:  return %[[V_1]] : f32
module attributes {transform.with_named_sequence} {
  func.func @unit_reduction(%a: vector<2x1xf32>, %b: vector<1x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x1xf32>, vector<1x4xf32> into vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
  func.func @dot(%a: vector<4xf32>, %b: vector<4xf32>, %c: f32) -> f32 {
    %0 = vector.contract {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4xf32>, vector<4xf32> into f32
    return %0 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = parallelarith
    } : !transform.any_op
    transform.yield
  }
}

// -----

// lower_outerproduct: rows of fma (or mul + combine) with a splat of the lhs element.
// CHECK-LABEL: func.func @outerproduct(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x3xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : f32 to vector<3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %c[0] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.fma %[[V_1]], %b, %[[V_2]] : vector<3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_3]], %[[V_CST]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %a[1] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.broadcast %[[V_5]] : f32 to vector<3xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %c[1] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.fma %[[V_6]], %b, %[[V_7]] : vector<3xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.insert %[[V_8]], %[[V_4]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  return %[[V_9]] : vector<2x3xf32>

// CHECK-LABEL: func.func @axpy(
// CHECK-NEXT:  %[[V_0:.*]] = vector.broadcast %s : f32 to vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.fma %a, %[[V_0]], %c : vector<4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4xf32>

// CHECK-LABEL: func.func @outer_max(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x2xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : f32 to vector<2xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %c[0] : vector<2xf32> from vector<2x2xf32>
// CHECK-NEXT:  %[[V_3:.*]] = arith.mulf %[[V_1]], %b : vector<2xf32>
// CHECK-NEXT:  %[[V_4:.*]] = arith.maxnumf %[[V_3]], %[[V_2]] : vector<2xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.insert %[[V_4]], %[[V_CST]] [0] : vector<2xf32> into vector<2x2xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.extract %a[1] : f32 from vector<2xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.broadcast %[[V_6]] : f32 to vector<2xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.extract %c[1] : vector<2xf32> from vector<2x2xf32>
// CHECK-NEXT:  %[[V_9:.*]] = arith.mulf %[[V_7]], %b : vector<2xf32>
// CHECK-NEXT:  %[[V_10:.*]] = arith.maxnumf %[[V_9]], %[[V_8]] : vector<2xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.insert %[[V_10]], %[[V_5]] [1] : vector<2xf32> into vector<2x2xf32>
// CHECK-NEXT:  return %[[V_11]] : vector<2x2xf32>
module attributes {transform.with_named_sequence} {
  func.func @outerproduct(%a: vector<2xf32>, %b: vector<3xf32>, %c: vector<2x3xf32>) -> vector<2x3xf32> {
    %0 = vector.outerproduct %a, %b, %c {kind = #vector.kind<add>} : vector<2xf32>, vector<3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @axpy(%a: vector<4xf32>, %s: f32, %c: vector<4xf32>) -> vector<4xf32> {
    %0 = vector.outerproduct %a, %s, %c {kind = #vector.kind<add>} : vector<4xf32>, f32
    return %0 : vector<4xf32>
  }
  func.func @outer_max(%a: vector<2xf32>, %b: vector<2xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
    %0 = vector.outerproduct %a, %b, %c {kind = #vector.kind<maxnumf>} : vector<2xf32>, vector<2xf32>
    return %0 : vector<2x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    transform.yield
  }
}

// -----

// fold_arith_extension: the contraction reads the narrow operands when both are extended.
// CHECK-LABEL: func.func @extf_operands(
// CHECK-NEXT:  %[[V_0:.*]] = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf16>, vector<3x4xf16> into vector<2x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x4xf32>

// CHECK-LABEL: func.func @one_extended(
// CHECK-NEXT:  %[[V_EA:.*]] = arith.extf %a : vector<2x3xf16> to vector<2x3xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %[[V_EA]], %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x4xf32>
module attributes {transform.with_named_sequence} {
  func.func @extf_operands(%a: vector<2x3xf16>, %b: vector<3x4xf16>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
    %ea = arith.extf %a : vector<2x3xf16> to vector<2x3xf32>
    %eb = arith.extf %b : vector<3x4xf16> to vector<3x4xf32>
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ea, %eb, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
  func.func @one_extended(%a: vector<2x3xf16>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
    %ea = arith.extf %a : vector<2x3xf16> to vector<2x3xf32>
    %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ea, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.fold_arith_extension
    } : !transform.any_op
    transform.yield
  }
}
