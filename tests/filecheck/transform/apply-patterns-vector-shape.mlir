// RUN: schedir-opt %s --split-input-file | filecheck %s

// transform.apply_patterns.vector.lower_broadcast, lower_shape_cast and lower_transpose
// (each strategy); the expected IR is upstream's (iree-opt's transform interpreter gives the
// same, up to printing).

// lower_broadcast: n-D broadcasts become rows of lower-rank broadcasts (inserted into a
// poison vector), stretched dims extract and re-broadcast; scalar -> 1-D stays.
// CHECK-LABEL: func.func @scalar_to_1d(
// CHECK-NEXT:  %[[V_0:.*]] = vector.broadcast %s : f32 to vector<4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @scalar_to_2d(
// CHECK-NEXT:  %[[V_0:.*]] = vector.broadcast %s : f32 to vector<2x3xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<2x3xf32>

// CHECK-LABEL: func.func @add_leading_dim(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<2x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.insert %v, %[[V_0]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert %v, %[[V_1]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<2x3xf32>

// CHECK-LABEL: func.func @stretch_inner(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<2x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0, 0] : f32 from vector<2x1xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.broadcast %[[V_1]] : f32 to vector<3xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_0]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.extract %v[1, 0] : f32 from vector<2x1xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.broadcast %[[V_4]] : f32 to vector<3xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_3]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  return %[[V_6]] : vector<2x3xf32>

// CHECK-LABEL: func.func @stretch_middle(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<2x2x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = ub.poison : vector<2x3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.extract %v[0, 0] : vector<3xf32> from vector<2x1x3xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.insert %[[V_2]], %[[V_1]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_2]], %[[V_3]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.insert %[[V_4]], %[[V_0]] [0] : vector<2x3xf32> into vector<2x2x3xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.extract %v[1, 0] : vector<3xf32> from vector<2x1x3xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.insert %[[V_6]], %[[V_1]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.insert %[[V_6]], %[[V_7]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.insert %[[V_8]], %[[V_5]] [1] : vector<2x3xf32> into vector<2x2x3xf32>
// CHECK-NEXT:  return %[[V_9]] : vector<2x2x3xf32>

// CHECK-LABEL: func.func @one_lane(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %v[0] : f32 from vector<1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.broadcast %[[V_0]] : f32 to vector<4xf32>
// CHECK-NEXT:  return %[[V_1]] : vector<4xf32>
module attributes {transform.with_named_sequence} {
  func.func @scalar_to_1d(%s: f32) -> vector<4xf32> {
    %0 = vector.broadcast %s : f32 to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @scalar_to_2d(%s: f32) -> vector<2x3xf32> {
    %0 = vector.broadcast %s : f32 to vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @add_leading_dim(%v: vector<3xf32>) -> vector<2x3xf32> {
    %0 = vector.broadcast %v : vector<3xf32> to vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @stretch_inner(%v: vector<2x1xf32>) -> vector<2x3xf32> {
    %0 = vector.broadcast %v : vector<2x1xf32> to vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @stretch_middle(%v: vector<2x1x3xf32>) -> vector<2x2x3xf32> {
    %0 = vector.broadcast %v : vector<2x1x3xf32> to vector<2x2x3xf32>
    return %0 : vector<2x2x3xf32>
  }
  func.func @one_lane(%v: vector<1xf32>) -> vector<4xf32> {
    %0 = vector.broadcast %v : vector<1xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_broadcast
    } : !transform.any_op
    transform.yield
  }
}

// -----

// lower_shape_cast: casts that only add or drop leading dims extract/insert whole rows;
// others move element by element (or by common trailing chunks).
// CHECK-LABEL: func.func @flatten(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<6xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert_strided_slice %[[V_1]], %[[V_0]] offsets = [0], strides = [1] : vector<3xf32> into vector<6xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %v[1] : vector<3xf32> from vector<2x3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert_strided_slice %[[V_3]], %[[V_2]] offsets = [3], strides = [1] : vector<3xf32> into vector<6xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<6xf32>

// CHECK-LABEL: func.func @unflatten(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<2x3xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract_strided_slice %v offsets = [0], sizes = [3], strides = [1] : vector<6xf32> to vector<3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert %[[V_1]], %[[V_0]] [0] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract_strided_slice %v offsets = [3], sizes = [3], strides = [1] : vector<6xf32> to vector<3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_3]], %[[V_2]] [1] : vector<3xf32> into vector<2x3xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<2x3xf32>

// CHECK-LABEL: func.func @collapse_leading(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<4x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0] : vector<2x4xf32> from vector<2x2x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert_strided_slice %[[V_1]], %[[V_0]] offsets = [0, 0], strides = [1, 1] : vector<2x4xf32> into vector<4x4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %v[1] : vector<2x4xf32> from vector<2x2x4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert_strided_slice %[[V_3]], %[[V_2]] offsets = [2, 0], strides = [1, 1] : vector<2x4xf32> into vector<4x4xf32>
// CHECK-NEXT:  return %[[V_4]] : vector<4x4xf32>

// CHECK-LABEL: func.func @drop_unit(
// CHECK-NEXT:  %[[V_0:.*]] = vector.extract %v[0] : vector<4xf32> from vector<1x4xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4xf32>

// CHECK-LABEL: func.func @add_trailing_unit(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<4x1xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert %[[V_1]], %[[V_0]] [0, 0] : f32 into vector<4x1xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %v[1] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_3]], %[[V_2]] [1, 0] : f32 into vector<4x1xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %v[2] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_4]] [2, 0] : f32 into vector<4x1xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %v[3] : f32 from vector<4xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.insert %[[V_7]], %[[V_6]] [3, 0] : f32 into vector<4x1xf32>
// CHECK-NEXT:  return %[[V_8]] : vector<4x1xf32>

// CHECK-LABEL: func.func @regroup(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<3x2xi8>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0, 0] : i8 from vector<2x3xi8>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert %[[V_1]], %[[V_0]] [0, 0] : i8 into vector<3x2xi8>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %v[0, 1] : i8 from vector<2x3xi8>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_3]], %[[V_2]] [0, 1] : i8 into vector<3x2xi8>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %v[0, 2] : i8 from vector<2x3xi8>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_4]] [1, 0] : i8 into vector<3x2xi8>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %v[1, 0] : i8 from vector<2x3xi8>
// CHECK-NEXT:  %[[V_8:.*]] = vector.insert %[[V_7]], %[[V_6]] [1, 1] : i8 into vector<3x2xi8>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %v[1, 1] : i8 from vector<2x3xi8>
// CHECK-NEXT:  %[[V_10:.*]] = vector.insert %[[V_9]], %[[V_8]] [2, 0] : i8 into vector<3x2xi8>
// CHECK-NEXT:  %[[V_11:.*]] = vector.extract %v[1, 2] : i8 from vector<2x3xi8>
// CHECK-NEXT:  %[[V_12:.*]] = vector.insert %[[V_11]], %[[V_10]] [2, 1] : i8 into vector<3x2xi8>
// CHECK-NEXT:  return %[[V_12]] : vector<3x2xi8>
module attributes {transform.with_named_sequence} {
  func.func @flatten(%v: vector<2x3xf32>) -> vector<6xf32> {
    %0 = vector.shape_cast %v : vector<2x3xf32> to vector<6xf32>
    return %0 : vector<6xf32>
  }
  func.func @unflatten(%v: vector<6xf32>) -> vector<2x3xf32> {
    %0 = vector.shape_cast %v : vector<6xf32> to vector<2x3xf32>
    return %0 : vector<2x3xf32>
  }
  func.func @collapse_leading(%v: vector<2x2x4xf32>) -> vector<4x4xf32> {
    %0 = vector.shape_cast %v : vector<2x2x4xf32> to vector<4x4xf32>
    return %0 : vector<4x4xf32>
  }
  func.func @drop_unit(%v: vector<1x4xf32>) -> vector<4xf32> {
    %0 = vector.shape_cast %v : vector<1x4xf32> to vector<4xf32>
    return %0 : vector<4xf32>
  }
  func.func @add_trailing_unit(%v: vector<4xf32>) -> vector<4x1xf32> {
    %0 = vector.shape_cast %v : vector<4xf32> to vector<4x1xf32>
    return %0 : vector<4x1xf32>
  }
  func.func @regroup(%v: vector<2x3xi8>) -> vector<3x2xi8> {
    %0 = vector.shape_cast %v : vector<2x3xi8> to vector<3x2xi8>
    return %0 : vector<3x2xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.yield
  }
}

// -----

// lower_transpose eltwise: element by element; permutations of leading dims move rows.
// CHECK-LABEL: func.func @transpose_2d(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<3x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0, 0] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert %[[V_1]], %[[V_0]] [0, 0] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %v[0, 1] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_3]], %[[V_2]] [1, 0] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %v[0, 2] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_4]] [2, 0] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %v[1, 0] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.insert %[[V_7]], %[[V_6]] [0, 1] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %v[1, 1] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_10:.*]] = vector.insert %[[V_9]], %[[V_8]] [1, 1] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.extract %v[1, 2] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_12:.*]] = vector.insert %[[V_11]], %[[V_10]] [2, 1] : f32 into vector<3x2xf32>
// CHECK-NEXT:  return %[[V_12]] : vector<3x2xf32>

// CHECK-LABEL: func.func @transpose_leading(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<3x2x4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0, 0] : vector<4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert %[[V_1]], %[[V_0]] [0, 0] : vector<4xf32> into vector<3x2x4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %v[0, 1] : vector<4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_3]], %[[V_2]] [1, 0] : vector<4xf32> into vector<3x2x4xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %v[0, 2] : vector<4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_4]] [2, 0] : vector<4xf32> into vector<3x2x4xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %v[1, 0] : vector<4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.insert %[[V_7]], %[[V_6]] [0, 1] : vector<4xf32> into vector<3x2x4xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %v[1, 1] : vector<4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:  %[[V_10:.*]] = vector.insert %[[V_9]], %[[V_8]] [1, 1] : vector<4xf32> into vector<3x2x4xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.extract %v[1, 2] : vector<4xf32> from vector<2x3x4xf32>
// CHECK-NEXT:  %[[V_12:.*]] = vector.insert %[[V_11]], %[[V_10]] [2, 1] : vector<4xf32> into vector<3x2x4xf32>
// CHECK-NEXT:  return %[[V_12]] : vector<3x2x4xf32>

// CHECK-LABEL: func.func @unit_dim(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<1x4xf32> to vector<4x1xf32>
// CHECK-NEXT:  return %[[V_0]] : vector<4x1xf32>
module attributes {transform.with_named_sequence} {
  func.func @transpose_2d(%v: vector<2x3xf32>) -> vector<3x2xf32> {
    %0 = vector.transpose %v, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
    return %0 : vector<3x2xf32>
  }
  func.func @transpose_leading(%v: vector<2x3x4xf32>) -> vector<3x2x4xf32> {
    %0 = vector.transpose %v, [1, 0, 2] : vector<2x3x4xf32> to vector<3x2x4xf32>
    return %0 : vector<3x2x4xf32>
  }
  func.func @unit_dim(%v: vector<1x4xf32>) -> vector<4x1xf32> {
    %0 = vector.transpose %v, [1, 0] : vector<1x4xf32> to vector<4x1xf32>
    return %0 : vector<4x1xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_transpose lowering_strategy = eltwise
    } : !transform.any_op
    transform.yield
  }
}

// -----

// shuffle_1d: flatten, one vector.shuffle, unflatten.
// CHECK-LABEL: func.func @transpose_2d(
// CHECK-NEXT:  %[[V_0:.*]] = vector.shape_cast %v : vector<2x3xf32> to vector<6xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.shuffle %[[V_0]], %[[V_0]] [0, 3, 1, 4, 2, 5] : vector<6xf32>, vector<6xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.shape_cast %[[V_1]] : vector<6xf32> to vector<3x2xf32>
// CHECK-NEXT:  return %[[V_2]] : vector<3x2xf32>
module attributes {transform.with_named_sequence} {
  func.func @transpose_2d(%v: vector<2x3xf32>) -> vector<3x2xf32> {
    %0 = vector.transpose %v, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
    return %0 : vector<3x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_transpose lowering_strategy = shuffle_1d
    } : !transform.any_op
    transform.yield
  }
}

// -----

// llvmintr: schedir has no llvm.intr.matrix.transpose: lowered as eltwise, which is what
// upstream's pattern set gives too on this input (its flat-transpose pattern is not in the set).
// CHECK-LABEL: func.func @transpose_2d(
// CHECK-NEXT:  %[[V_0:.*]] = ub.poison : vector<3x2xf32>
// CHECK-NEXT:  %[[V_1:.*]] = vector.extract %v[0, 0] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_2:.*]] = vector.insert %[[V_1]], %[[V_0]] [0, 0] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_3:.*]] = vector.extract %v[0, 1] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_4:.*]] = vector.insert %[[V_3]], %[[V_2]] [1, 0] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_5:.*]] = vector.extract %v[0, 2] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_6:.*]] = vector.insert %[[V_5]], %[[V_4]] [2, 0] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_7:.*]] = vector.extract %v[1, 0] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_8:.*]] = vector.insert %[[V_7]], %[[V_6]] [0, 1] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_9:.*]] = vector.extract %v[1, 1] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_10:.*]] = vector.insert %[[V_9]], %[[V_8]] [1, 1] : f32 into vector<3x2xf32>
// CHECK-NEXT:  %[[V_11:.*]] = vector.extract %v[1, 2] : f32 from vector<2x3xf32>
// CHECK-NEXT:  %[[V_12:.*]] = vector.insert %[[V_11]], %[[V_10]] [2, 1] : f32 into vector<3x2xf32>
// CHECK-NEXT:  return %[[V_12]] : vector<3x2xf32>
module attributes {transform.with_named_sequence} {
  func.func @transpose_2d(%v: vector<2x3xf32>) -> vector<3x2xf32> {
    %0 = vector.transpose %v, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
    return %0 : vector<3x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_transpose lowering_strategy = llvmintr
    } : !transform.any_op
    transform.yield
  }
}
