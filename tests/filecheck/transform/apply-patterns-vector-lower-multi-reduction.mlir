// RUN: schedir-opt %s --split-input-file | filecheck %s
// UPSTREAM-LACKS: iree-opt (LLVM 24) removed this pattern descriptor; kept for older schedules.

// lower_multi_reduction (the reorder, flattening and unrolling stages in one set), with
// each strategy: innerreduction reduces rows with vector.reduction, innerparallel
// transposes the reduced dim outermost and accumulates whole rows elementwise.

// CHECK-LABEL: func.func @inner_reduction
// CHECK-NOT:     vector.multi_reduction
// CHECK:         vector.reduction <add>, %{{.*}}, %{{.*}} : vector<8xf32> into f32
// CHECK-COUNT-3: vector.reduction <add>
// CHECK-NOT:     vector.multi_reduction
module attributes {transform.with_named_sequence} {
  func.func @inner_reduction(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %r : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @inner_parallel
// CHECK-NOT:     vector.multi_reduction
// CHECK:         %[[T:.*]] = vector.transpose %{{.*}}, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
// CHECK:         vector.extract %[[T]][0] : vector<4xf32> from vector<8x4xf32>
// CHECK:         arith.addf %{{.*}} : vector<4xf32>
// CHECK-NOT:     vector.multi_reduction
module attributes {transform.with_named_sequence} {
  func.func @inner_parallel(%v: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
    %r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    return %r : vector<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerparallel"
    } : !transform.any_op
    transform.yield
  }
}
