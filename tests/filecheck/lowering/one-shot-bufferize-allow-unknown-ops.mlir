// RUN: schedir-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true allow-unknown-ops=true}' | filecheck %s

// An unknown op keeps its tensors: its operands are read through to_tensor, its results
// through to_buffer. Its results are not writable: the insert writes a copy.
// CHECK-LABEL: func.func @unknown
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %{{.*}}: memref<1xindex>) -> memref<4xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT:    %[[T:.*]] = bufferization.to_tensor %[[A]] : memref<4xf32> to tensor<4xf32>
// CHECK:         %[[R:.*]] = tensor.reshape %[[T]](%{{.*}}) : (tensor<4xf32>, tensor<1xindex>) -> tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = bufferization.to_buffer %[[R]] : tensor<4xf32> to memref<4xf32>
// CHECK:         memref.load %[[M]]
// CHECK:         %[[COPY:.*]] = memref.alloc()
// CHECK-NEXT:    memref.copy %[[M]], %[[COPY]]
// CHECK-NEXT:    memref.store %{{.*}}, %[[COPY]]
// CHECK-NEXT:    return %[[COPY]]
func.func @unknown(%a: tensor<4xf32>, %shape: tensor<1xindex>) -> tensor<4xf32> {
  %v = arith.constant 1.0 : f32
  %f = linalg.fill ins(%v : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.reshape %f(%shape) : (tensor<4xf32>, tensor<1xindex>) -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %r[%c0] : tensor<4xf32>
  %g = tensor.insert %x into %r[%c0] : tensor<4xf32>
  return %g : tensor<4xf32>
}
