// RUN: schedir-opt %s --split-input-file | filecheck %s

// A product of a transposed broadcast and a broadcast of 1-D vectors (in either operand
// order, float or integer, scalable dims kept) is an outer product; other products stay.
// CHECK-LABEL: func.func @mulf
// CHECK:         %[[R:.*]] = vector.outerproduct %[[L:.*]], %[[Rt:.*]] : vector<16xf32>, vector<8xf32>
// CHECK-NEXT:    return %[[R]] : vector<16x8xf32>
// CHECK-LABEL: func.func @muli_swapped_scalable
// CHECK:         vector.outerproduct %{{.*}}, %{{.*}} : vector<[4]xi32>, vector<[4]xi32>
// CHECK-LABEL: func.func @not_transposed
// CHECK:         arith.mulf
// CHECK-NOT:     vector.outerproduct
module attributes {transform.with_named_sequence} {
  func.func @mulf(%lhs: vector<16xf32>, %rhs: vector<8xf32>) -> vector<16x8xf32> {
    %lb = vector.broadcast %lhs : vector<16xf32> to vector<8x16xf32>
    %lt = vector.transpose %lb, [1, 0] : vector<8x16xf32> to vector<16x8xf32>
    %rb = vector.broadcast %rhs : vector<8xf32> to vector<16x8xf32>
    %m = arith.mulf %lt, %rb : vector<16x8xf32>
    return %m : vector<16x8xf32>
  }
  func.func @muli_swapped_scalable(%lhs: vector<[4]xi32>, %rhs: vector<[4]xi32>) -> vector<[4]x[4]xi32> {
    %lb = vector.broadcast %lhs : vector<[4]xi32> to vector<[4]x[4]xi32>
    %lt = vector.transpose %lb, [1, 0] : vector<[4]x[4]xi32> to vector<[4]x[4]xi32>
    %rb = vector.broadcast %rhs : vector<[4]xi32> to vector<[4]x[4]xi32>
    %m = arith.muli %rb, %lt : vector<[4]x[4]xi32>
    return %m : vector<[4]x[4]xi32>
  }
  func.func @not_transposed(%lhs: vector<8xf32>, %rhs: vector<8xf32>) -> vector<8x8xf32> {
    %lb = vector.broadcast %lhs : vector<8xf32> to vector<8x8xf32>
    %rb = vector.broadcast %rhs : vector<8xf32> to vector<8x8xf32>
    %m = arith.mulf %lb, %rb : vector<8x8xf32>
    return %m : vector<8x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.elementwise_to_vector
    } : !transform.any_op
    transform.yield
  }
}
