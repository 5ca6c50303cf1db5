// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// linalg.softmax -> max-reduce (fill -NaN, maxnumf), exp(x - max), sum-reduce (fill 0,
// addf), divide; the result handle points to the op defining the new result (the div).
// CHECK-LABEL: func.func @softmax
// CHECK:      %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:      %[[NEG_NAN:.*]] = arith.constant 0x{{[fF]}}{{[fF]}}{{[cC]}}00000 : f32
// CHECK:      %[[MAX_INIT:.*]] = linalg.fill ins(%[[NEG_NAN]] : f32) outs(%[[EMPTY]] : tensor<4xf32>)
// CHECK:      %[[MAX:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[X:.*]] : tensor<4x?xf32>) outs(%[[MAX_INIT]] : tensor<4xf32>)
// CHECK:        arith.maxnumf
// CHECK:      %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<4x?xf32>, tensor<4xf32>)
// CHECK:        arith.subf
// CHECK:        math.exp
// CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[SUM_INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<4xf32>)
// CHECK:      %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<4x?xf32>) outs(%[[SUM_INIT]] : tensor<4xf32>)
// CHECK:        arith.addf
// CHECK:      %[[DIV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<4x?xf32>, tensor<4xf32>) {{.*}} attrs = {decomposed}
// CHECK:        arith.divf
// CHECK:      return %[[DIV]]
// CHECK-NOT:  linalg.softmax
module attributes {transform.with_named_sequence} {
  func.func @softmax(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
    %c1 = arith.constant 1 : index
    %d = tensor.dim %x, %c1 : tensor<4x?xf32>
    %init = tensor.empty(%d) : tensor<4x?xf32>
    %y = linalg.softmax dimension(1) ins(%x : tensor<4x?xf32>) outs(%init : tensor<4x?xf32>) -> tensor<4x?xf32>
    return %y : tensor<4x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %sm : (!transform.any_op) -> !transform.any_op
    transform.annotate %d "decomposed" : !transform.any_op
    transform.yield
  }
}

// -----

// Softmax along dimension 0: the reductions keep dimension 1.
// CHECK-LABEL: func.func @softmax_dim0
// CHECK: tensor.empty() : tensor<16xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
module attributes {transform.with_named_sequence} {
  func.func @softmax_dim0(%x: tensor<8x16xf32>, %o: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %y = linalg.softmax dimension(0) ins(%x : tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    return %y : tensor<8x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %sm = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %sm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Ops without a decomposition: the default silenceable failure.
module attributes {transform.with_named_sequence} {
  func.func @not_aggregated(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    // expected-note @below {{when applied to this op}}
    %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.decompose_interface failed to apply}}
    %d = transform.structured.decompose_interface %m : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
