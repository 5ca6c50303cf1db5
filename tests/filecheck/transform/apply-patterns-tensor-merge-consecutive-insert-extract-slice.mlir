// RUN: schedir-opt %s --split-input-file | filecheck %s

// A slice of a slice that keeps every dim becomes one slice of the first's source with
// the second's sizes and result type (here rank-reducing); offsets add (static pairs,
// or a dynamic offset beside a static 0).
// CHECK-LABEL: func.func @merge
// CHECK-SAME:    (%[[T:.*]]: tensor<8192x256xf32>, %[[G:.*]]: index)
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[T]][0, %[[G]]] [8192, 1] [1, 1] : tensor<8192x256xf32> to tensor<8192xf32>
// CHECK-NEXT:    %[[U:.*]] = tensor.extract_slice %[[T]][7, %[[G]]] [2, 1] [1, 1] : tensor<8192x256xf32> to tensor<2x1xf32>
// CHECK-NEXT:    return %[[S]], %[[U]]
module attributes {transform.with_named_sequence} {
  func.func @merge(%t: tensor<8192x256xf32>, %g: index) -> (tensor<8192xf32>, tensor<2x1xf32>) {
    %a = tensor.extract_slice %t[0, %g] [8192, 1] [1, 1] : tensor<8192x256xf32> to tensor<8192x1xf32>
    %b = tensor.extract_slice %a[0, 0] [8192, 1] [1, 1] : tensor<8192x1xf32> to tensor<8192xf32>
    %c = tensor.extract_slice %t[4, %g] [10, 1] [1, 1] : tensor<8192x256xf32> to tensor<10x1xf32>
    %d = tensor.extract_slice %c[3, 0] [2, 1] [1, 1] : tensor<10x1xf32> to tensor<2x1xf32>
    return %b, %d : tensor<8192xf32>, tensor<2x1xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice
    } : !transform.any_op
    transform.yield
  }
}

// -----

// As upstream (iree-opt gives the same slices): a rank-reducing first slice keeps its
// dropped dim's offset, strides multiply (the second offset scaled by the first's
// stride), two dynamic offsets add in an affine.apply. A product of two dynamic strides
// is left alone (upstream merges it with a semi-affine `s0 * s0` stride).
// CHECK:       #[[MAP:.*]] = affine_map<()[s0, s1] -> (s0 + s1)>
// CHECK-LABEL: func.func @general
// CHECK-SAME:    (%[[T:.*]]: tensor<64x64xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[S:.*]]: index)
// CHECK:         %[[B:.*]] = tensor.extract_slice %[[T]][3, 1] [1, 2] [1, 1] : tensor<64x64xf32> to tensor<2xf32>
// CHECK-NEXT:    %[[D:.*]] = tensor.extract_slice %[[T]][2, 1] [2, 2] [2, 1] : tensor<64x64xf32> to tensor<2x2xf32>
// CHECK-NEXT:    %[[O:.*]] = affine.apply #[[MAP]]()[%[[I]], %[[J]]]
// CHECK-NEXT:    %[[F:.*]] = tensor.extract_slice %[[T]][%[[O]], 0] [2, 2] [1, 1] : tensor<64x64xf32> to tensor<2x2xf32>
// CHECK-NEXT:    %[[G:.*]] = tensor.extract_slice %[[T]][0, 0] [8, 8] [%[[S]], 1]
// CHECK-NEXT:    %[[H:.*]] = tensor.extract_slice %[[G]][0, 0] [2, 2] [%[[S]], 1]
// CHECK-NEXT:    return %[[B]], %[[D]], %[[F]], %[[H]]
module attributes {transform.with_named_sequence} {
  func.func @general(%t: tensor<64x64xf32>, %i: index, %j: index, %s: index) -> (tensor<2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
    %a = tensor.extract_slice %t[3, 0] [1, 8] [1, 1] : tensor<64x64xf32> to tensor<8xf32>
    %b = tensor.extract_slice %a[1] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %c = tensor.extract_slice %t[0, 0] [8, 8] [2, 1] : tensor<64x64xf32> to tensor<8x8xf32>
    %d = tensor.extract_slice %c[1, 1] [2, 2] [1, 1] : tensor<8x8xf32> to tensor<2x2xf32>
    %e = tensor.extract_slice %t[%i, 0] [8, 8] [1, 1] : tensor<64x64xf32> to tensor<8x8xf32>
    %f = tensor.extract_slice %e[%j, 0] [2, 2] [1, 1] : tensor<8x8xf32> to tensor<2x2xf32>
    %g = tensor.extract_slice %t[0, 0] [8, 8] [%s, 1] : tensor<64x64xf32> to tensor<8x8xf32>
    %h = tensor.extract_slice %g[0, 0] [2, 2] [%s, 1] : tensor<8x8xf32> to tensor<2x2xf32>
    return %b, %d, %f, %h : tensor<2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice
    } : !transform.any_op
    transform.yield
  }
}
