// RUN: schedir-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' --split-input-file --verify-diagnostics

func.func @unknown_op(%a: tensor<4xf32>, %shape: tensor<1xindex>) -> tensor<4xf32> {
  // expected-error @below {{'tensor.reshape' on tensors is not supported by one-shot-bufferize}}
  %r = tensor.reshape %a(%shape) : (tensor<4xf32>, tensor<1xindex>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @while_on_tensors(%a: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  // expected-error @below {{'scf.while' on tensors is not supported by one-shot-bufferize}}
  %r = scf.while (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> {
    scf.condition(%c) %x : tensor<4xf32>
  } do {
  ^bb0(%y: tensor<4xf32>):
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @below {{recursive call to '@f': one-shot-bufferize needs an acyclic call graph}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @unranked(%a: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @below {{'tensor.cast' on unranked tensors is not supported by one-shot-bufferize}}
  %r = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  return %r : tensor<*xf32>
}
