// RUN: schedir-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' --split-input-file --verify-diagnostics

func.func @unknown_op(%a: tensor<4xf32>, %shape: tensor<1xindex>) -> tensor<4xf32> {
  // expected-error @below {{'tensor.reshape' on tensors is not supported by one-shot-bufferize}}
  %r = tensor.reshape %a(%shape) : (tensor<4xf32>, tensor<1xindex>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @while_changing_a_tensor_type(%a: tensor<4xf32>, %c: i1) -> tensor<?xf32> {
  // A tensor that keeps its position and type bufferizes; one that changes type does not.
  // expected-error @below {{'scf.while' on tensors is not supported by one-shot-bufferize}}
  %r = scf.while (%x = %a) : (tensor<4xf32>) -> tensor<?xf32> {
    %d = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
    scf.condition(%c) %d : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %s = tensor.cast %y : tensor<?xf32> to tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<?xf32>
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
