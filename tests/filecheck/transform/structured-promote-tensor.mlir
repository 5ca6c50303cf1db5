// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// An operand the matmul reads gets a fresh allocation in memory space 3, filled from the
// original value; only the matmul's use is redirected.

// CHECK-LABEL: func.func @promote_read
// CHECK-SAME:    %[[A:[0-9a-z_]+]]: tensor<?x6xf32>
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[D:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x6xf32>
// CHECK:       %[[ALLOC:.*]] = bufferization.alloc_tensor(%[[D]]) {memory_space = 3 : i64} : tensor<?x6xf32>
// CHECK:       %[[COPY:.*]] = bufferization.materialize_in_destination %[[A]] in %[[ALLOC]] : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
// CHECK:       linalg.matmul ins(%[[COPY]], %{{.*}} : tensor<?x6xf32>, tensor<6x5xf32>)
func.func @promote_read(%a: tensor<?x6xf32>, %b: tensor<6x5xf32>, %c: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x6xf32>, tensor<6x5xf32>) outs(%c : tensor<?x5xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.get_operand %mm[0] : (!transform.any_op) -> !transform.any_value
    %p = transform.structured.promote_tensor to 3 %a : !transform.any_value
    transform.yield
  }
}

// -----

// A fill only writes its init: the allocation is used as it is, without a copy.

// CHECK-LABEL: func.func @promote_written
// CHECK:       %[[ALLOC:.*]] = bufferization.alloc_tensor() : tensor<7x3xf32>
// CHECK-NOT:   materialize_in_destination
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[ALLOC]] : tensor<7x3xf32>)
func.func @promote_written(%c: tensor<7x3xf32>, %v: f32) -> tensor<7x3xf32> {
  %0 = linalg.fill ins(%v : f32) outs(%c : tensor<7x3xf32>) -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.get_operand %f[1] : (!transform.any_op) -> !transform.any_value
    %p = transform.structured.promote_tensor %c : !transform.any_value
    transform.yield
  }
}

// -----

// The promoted values can be promoted again (each promotion copies the last).

// CHECK-LABEL: func.func @promote_twice
// CHECK:       %[[A1:.*]] = bufferization.alloc_tensor() {memory_space = 1 : i64} : tensor<4x6xf32>
// CHECK:       %[[M1:.*]] = bufferization.materialize_in_destination %{{.*}} in %[[A1]]
// CHECK:       %[[A2:.*]] = bufferization.alloc_tensor() {memory_space = 2 : i64} : tensor<4x6xf32>
// CHECK:       %[[M2:.*]] = bufferization.materialize_in_destination %[[M1]] in %[[A2]]
// CHECK:       linalg.matmul ins(%[[M2]], %{{.*}} : tensor<4x6xf32>, tensor<6x5xf32>)
func.func @promote_twice(%a: tensor<4x6xf32>, %b: tensor<6x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x6xf32>, tensor<6x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.get_operand %mm[0] : (!transform.any_op) -> !transform.any_value
    %p = transform.structured.promote_tensor to 1 %a : !transform.any_value
    %q = transform.structured.promote_tensor to 2 %p : !transform.any_value
    transform.yield
  }
}

// -----

func.func @promote_scalar(%c: tensor<7x3xf32>, %v: f32) -> tensor<7x3xf32> {
  %0 = linalg.fill ins(%v : f32) outs(%c : tensor<7x3xf32>) -> tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.get_operand %f[0] : (!transform.any_op) -> !transform.any_value
    // expected-error @below {{non-tensor type: <block argument> of type 'f32' at index: 1}}
    %p = transform.structured.promote_tensor %v : !transform.any_value
    transform.yield
  }
}
