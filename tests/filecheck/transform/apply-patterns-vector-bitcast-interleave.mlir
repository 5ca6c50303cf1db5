// RUN: schedir-opt %s --split-input-file | filecheck %s

// transform.apply_patterns.vector.lower_bitcast, lower_interleave and
// interleave_and_deinterleave_to_shuffle; the expected IR is upstream's (iree-opt's transform
// interpreter gives the same, up to printing).

// lower_bitcast: n-D bitcasts become 1-D ones on the rows (into a poison vector).
// CHECK-LABEL: func.func @bc(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<2x16xi8>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.bitcast %[[V_1]] : vector<4xf32> to vector<16xi8>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_0]] [0] : vector<16xi8> into vector<2x16xi8>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %v[1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.bitcast %[[V_4]] : vector<4xf32> to vector<16xi8>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_3]] [1] : vector<16xi8> into vector<2x16xi8>
// CHECK-NEXT:  return %[[V_6]] : vector<2x16xi8>

// CHECK-LABEL: func.func @il(
// CHECK-NEXT:  %[[V_0:.*]] = vector.interleave %a, %b : vector<2x4xf32> -> vector<2x8xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x8xf32>

// CHECK-LABEL: func.func @dl(
// CHECK-NEXT:  %[[V_0:.*]], %[[V_1:.*]] = vector.deinterleave %a : vector<2x8xf32> -> vector<2x4xf32>
// CHECK-NEXT:  return %[[V_0]], %[[V_1]] : vector<2x4xf32>, vector<2x4xf32>

// CHECK-LABEL: func.func @il1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<8xf32>

// CHECK-LABEL: func.func @dl1(
// CHECK-NEXT:  %[[V_0:.*]], %[[V_1:.*]] = vector.deinterleave %a : vector<8xf32> -> vector<4xf32>
// CHECK-NEXT:  return %[[V_0]], %[[V_1]] : vector<4xf32>, vector<4xf32>
module attributes {transform.with_named_sequence} {
  func.func @bc(%v: vector<2x4xf32>) -> vector<2x16xi8> {
    %0 = vector.bitcast %v : vector<2x4xf32> to vector<2x16xi8>
    return %0 : vector<2x16xi8>
  }
  func.func @il(%a: vector<2x4xf32>, %b: vector<2x4xf32>) -> vector<2x8xf32> {
    %0 = vector.interleave %a, %b : vector<2x4xf32> -> vector<2x8xf32>
    return %0 : vector<2x8xf32>
  }
  func.func @dl(%a: vector<2x8xf32>) -> (vector<2x4xf32>, vector<2x4xf32>) {
    %0, %1 = vector.deinterleave %a : vector<2x8xf32> -> vector<2x4xf32>
    return %0, %1 : vector<2x4xf32>, vector<2x4xf32>
  }
  func.func @il1(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<8xf32> {
    %0 = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @dl1(%a: vector<8xf32>) -> (vector<4xf32>, vector<4xf32>) {
    %0, %1 = vector.deinterleave %a : vector<8xf32> -> vector<4xf32>
    return %0, %1 : vector<4xf32>, vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_bitcast
    } : !transform.any_op
    transform.yield
  }
}

// -----

// lower_interleave: n-D interleave / deinterleave become 1-D ones on the rows.
// CHECK-LABEL: func.func @bc(
// CHECK-NEXT:  %[[V_0:.*]] = vector.bitcast %v : vector<2x4xf32> to vector<2x16xi8>
// CHECK-NEXT:  return %[[V_0]] : vector<2x16xi8>

// CHECK-LABEL: func.func @il(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x8xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %b[0] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.interleave %[[V_0]], %[[V_1]] : vector<4xf32> -> vector<8xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_CST]] [0] : vector<8xf32> into vector<2x8xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %a[1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %b[1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.interleave %[[V_4]], %[[V_5]] : vector<4xf32> -> vector<8xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.insert %[[V_6]], %[[V_3]] [1] : vector<8xf32> into vector<2x8xf32>
// CHECK-NEXT:  return %[[V_7]] : vector<2x8xf32>

// CHECK-LABEL: func.func @dl(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<2x4xf32>
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %a[0] : vector<8xf32> from vector<2x8xf32>
// CHECK-NEXT:  %[[V_1:.*]], %[[V_2:.*]] = vector.deinterleave %[[V_0]] : vector<8xf32> -> vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_1]], %[[V_CST]] [0] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_2]], %[[V_CST]] [0] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %a[1] : vector<8xf32> from vector<2x8xf32>
// CHECK-NEXT:  %[[V_6:.*]], %[[V_7:.*]] = vector.deinterleave %[[V_5]] : vector<8xf32> -> vector<4xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.insert %[[V_6]], %[[V_3]] [1] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.insert %[[V_7]], %[[V_4]] [1] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:  return %[[V_8]], %[[V_9]] : vector<2x4xf32>, vector<2x4xf32>

// CHECK-LABEL: func.func @il1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<8xf32>

// CHECK-LABEL: func.func @dl1(
// CHECK-NEXT:  %[[V_0:.*]], %[[V_1:.*]] = vector.deinterleave %a : vector<8xf32> -> vector<4xf32>
// CHECK-NEXT:  return %[[V_0]], %[[V_1]] : vector<4xf32>, vector<4xf32>
module attributes {transform.with_named_sequence} {
  func.func @bc(%v: vector<2x4xf32>) -> vector<2x16xi8> {
    %0 = vector.bitcast %v : vector<2x4xf32> to vector<2x16xi8>
    return %0 : vector<2x16xi8>
  }
  func.func @il(%a: vector<2x4xf32>, %b: vector<2x4xf32>) -> vector<2x8xf32> {
    %0 = vector.interleave %a, %b : vector<2x4xf32> -> vector<2x8xf32>
    return %0 : vector<2x8xf32>
  }
  func.func @dl(%a: vector<2x8xf32>) -> (vector<2x4xf32>, vector<2x4xf32>) {
    %0, %1 = vector.deinterleave %a : vector<2x8xf32> -> vector<2x4xf32>
    return %0, %1 : vector<2x4xf32>, vector<2x4xf32>
  }
  func.func @il1(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<8xf32> {
    %0 = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @dl1(%a: vector<8xf32>) -> (vector<4xf32>, vector<4xf32>) {
    %0, %1 = vector.deinterleave %a : vector<8xf32> -> vector<4xf32>
    return %0, %1 : vector<4xf32>, vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_interleave
    } : !transform.any_op
    transform.yield
  }
}

// -----

// interleave_and_deinterleave_to_shuffle: 1-D ones become vector.shuffle.
// CHECK-LABEL: func.func @bc(
// CHECK-NEXT:  %[[V_0:.*]] = vector.bitcast %v : vector<2x4xf32> to vector<2x16xi8>
// CHECK-NEXT:  return %[[V_0]] : vector<2x16xi8>

// CHECK-LABEL: func.func @il(
// CHECK-NEXT:  %[[V_0:.*]] = vector.interleave %a, %b : vector<2x4xf32> -> vector<2x8xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x8xf32>

// CHECK-LABEL: func.func @dl(
// CHECK-NEXT:  %[[V_0:.*]], %[[V_1:.*]] = vector.deinterleave %a : vector<2x8xf32> -> vector<2x4xf32>
// CHECK-NEXT:  return %[[V_0]], %[[V_1]] : vector<2x4xf32>, vector<2x4xf32>

// CHECK-LABEL: func.func @il1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shuffle %a, %b [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<8xf32>

// CHECK-LABEL: func.func @dl1(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shuffle %a, %a [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shuffle %a, %a [1, 3, 5, 7] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:  return %[[V_0]], %[[V_1]] : vector<4xf32>, vector<4xf32>
module attributes {transform.with_named_sequence} {
  func.func @bc(%v: vector<2x4xf32>) -> vector<2x16xi8> {
    %0 = vector.bitcast %v : vector<2x4xf32> to vector<2x16xi8>
    return %0 : vector<2x16xi8>
  }
  func.func @il(%a: vector<2x4xf32>, %b: vector<2x4xf32>) -> vector<2x8xf32> {
    %0 = vector.interleave %a, %b : vector<2x4xf32> -> vector<2x8xf32>
    return %0 : vector<2x8xf32>
  }
  func.func @dl(%a: vector<2x8xf32>) -> (vector<2x4xf32>, vector<2x4xf32>) {
    %0, %1 = vector.deinterleave %a : vector<2x8xf32> -> vector<2x4xf32>
    return %0, %1 : vector<2x4xf32>, vector<2x4xf32>
  }
  func.func @il1(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<8xf32> {
    %0 = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
    return %0 : vector<8xf32>
  }
  func.func @dl1(%a: vector<8xf32>) -> (vector<4xf32>, vector<4xf32>) {
    %0, %1 = vector.deinterleave %a : vector<8xf32> -> vector<4xf32>
    return %0, %1 : vector<4xf32>, vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.interleave_and_deinterleave_to_shuffle
    } : !transform.any_op
    transform.yield
  }
}
