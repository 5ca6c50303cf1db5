// RUN: schedir-opt %s -p linalg-decompose-aggregated-ops | filecheck %s

// Softmax along dim 1: max-reduce, exp(x - max), sum-reduce, divide.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.*]]: tensor<33x65xf32>) -> tensor<33x65xf32>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<33x65xf32>
// CHECK:         %[[RED:.*]] = tensor.empty() : tensor<33xf32>
// CHECK:         %[[MAX0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[RED]] : tensor<33xf32>)
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[X]] : tensor<33x65xf32>) outs(%[[MAX0]] : tensor<33xf32>)
// CHECK:           arith.maxnumf
// CHECK:         %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<33x65xf32>, tensor<33xf32>) outs(%[[INIT]] : tensor<33x65xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         %[[SUM0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[RED]] : tensor<33xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<33x65xf32>) outs(%[[SUM0]] : tensor<33xf32>)
// CHECK:           arith.addf
// CHECK:         %[[DIV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<33x65xf32>, tensor<33xf32>) outs(%[[INIT]] : tensor<33x65xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[DIV]]
// CHECK-NOT:     linalg.softmax
func.func @softmax(%x: tensor<33x65xf32>) -> tensor<33x65xf32> {
  %init = tensor.empty() : tensor<33x65xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<33x65xf32>) outs(%init : tensor<33x65xf32>) -> tensor<33x65xf32>
  return %y : tensor<33x65xf32>
}
