// RUN: schedir-opt %s --split-input-file | filecheck %s

// A slice of a fill whose only use is the slice: the fill runs on the slice of its
// destination (rank-reducing slices included); the whole fill is gone.
// CHECK-LABEL: func.func @swap
// CHECK-SAME:    (%[[T:.*]]: tensor<64x8xf32>, %[[I:.*]]: index)
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[T]][%[[I]], 2] [1, 4] [1, 1] : tensor<64x8xf32> to tensor<4xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[F]]
module attributes {transform.with_named_sequence} {
  func.func @swap(%t: tensor<64x8xf32>, %i: index) -> tensor<4xf32> {
    %z = arith.constant 1.5 : f32
    %f = linalg.fill ins(%z : f32) outs(%t : tensor<64x8xf32>) -> tensor<64x8xf32>
    %s = tensor.extract_slice %f[%i, 2] [1, 4] [1, 1] : tensor<64x8xf32> to tensor<4xf32>
    return %s : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.linalg.swap_extract_slice_with_fill
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A fill with another use stays whole: the slice reads it.
// CHECK-LABEL: func.func @shared
// CHECK:         %[[F:.*]] = linalg.fill {{.*}} -> tensor<64x8xf32>
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[F]][0, 0] [4, 8] [1, 1]
// CHECK-NEXT:    return %[[F]], %[[S]]
module attributes {transform.with_named_sequence} {
  func.func @shared(%t: tensor<64x8xf32>) -> (tensor<64x8xf32>, tensor<4x8xf32>) {
    %z = arith.constant 1.5 : f32
    %f = linalg.fill ins(%z : f32) outs(%t : tensor<64x8xf32>) -> tensor<64x8xf32>
    %s = tensor.extract_slice %f[0, 0] [4, 8] [1, 1] : tensor<64x8xf32> to tensor<4x8xf32>
    return %f, %s : tensor<64x8xf32>, tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.linalg.swap_extract_slice_with_fill
    } : !transform.any_op
    transform.yield
  }
}
