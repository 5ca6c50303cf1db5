// RUN: schedir-opt %s -p linalg-decompose-aggregated-ops --verify-diagnostics

func.func @softmax_on_buffers(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  // expected-error @below {{'linalg.softmax' on buffers cannot be decomposed: decompose it before bufferization}}
  linalg.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}
