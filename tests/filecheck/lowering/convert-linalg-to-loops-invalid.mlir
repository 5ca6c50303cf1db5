// RUN: schedir-opt %s -p convert-linalg-to-loops --split-input-file --verify-diagnostics

func.func @on_tensors(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  // expected-error @below {{'linalg.fill' still works on tensors: run one-shot-bufferize before convert-linalg-to-loops}}
  %r = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
