// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// Failures of transform.match.structured and its predicates, applied directly (a matcher in
// foreach_match would take them as "no match"): upstream's messages, at the failing op, with
// a note at the payload op where upstream attaches one.

// A payload op that is not structured: silenceable "expected a Linalg op".
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a Linalg op}}
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):

      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// The handle must point to exactly one payload op (definite).
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %two = transform.merge_handles %m, %m : !transform.any_op
    // expected-error @below {{SingleOpMatchOpTrait requires the operand handle to point to a single payload op}}
    transform.match.structured %two : !transform.any_op {
    ^bb0(%s: !transform.any_op):

      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// dim: a position past the loops.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    // expected-note @below {{while considering dimensions of this payload operation}}
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{position overflow 3 (updated from 3) for maximum 3}}
      transform.match.structured.dim %s[3] : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// dim: a negative position before the first loop.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    // expected-note @below {{while considering dimensions of this payload operation}}
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{position underflow -1 (updated from -4)}}
      transform.match.structured.dim %s[-4] : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// dim: two positions naming the same loop.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    // expected-note @below {{while considering dimensions of this payload operation}}
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{repeated position 0 (updated from -3)}}
      transform.match.structured.dim %s[0, -3] : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// dim: loop kinds.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{expects dimension #2 to be parallel}}
      transform.match.structured.dim %s[all] parallel : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// dim: loop kinds.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{expects dimension #0 to be reduction}}
      transform.match.structured.dim %s[except(2)] reduction : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// body: not a passthrough.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{not a passthrough}}
      transform.match.structured.body %s passthrough : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// body: not elementwise.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{not elementwise}}
      transform.match.structured.body %s elementwise : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// body: the init has two uses, so no reduction.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.addf %x, %o : f32
      %z = arith.mulf %y, %o : f32
      linalg.yield %z : f32
    } -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{could not match reduction}}
      transform.match.structured.body %s reduction_position = 0 : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// body: a contraction needs three block arguments.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.addf %x, %o : f32
      %z = arith.mulf %y, %o : f32
      linalg.yield %z : f32
    } -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{contraction: expected block with 3 arguments}}
      transform.match.structured.body %s contraction = ["arith.mulf", "arith.addf"] : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// body: the op kinds are checked in order (elementwise, reduction).
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{contraction: expected reduction/elementwise op kind not satisfied}}
      transform.match.structured.body %s contraction = ["arith.addf", "arith.mulf"] : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// body: the product must take both inputs.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %p = arith.mulf %x, %x : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{contraction: expected elementwise op to apply to block arguments (modulo unary casts)}}
      transform.match.structured.body %s contraction = ["arith.mulf", "arith.addf"] : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// input: a broadcast map is not a permutation.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<8xf32>) outs(%c : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{the indexing map for input #0 is not a permutation}}
      transform.match.structured.input %s[0] permutation : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// input: `i + j` is not a projected permutation.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<11xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<11xf32>) outs(%c : tensor<4x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{the indexing map for input #0 is not a projected permutation}}
      transform.match.structured.input %s[0] projected_permutation : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// init: upstream says "permutation" for projected_permutation too.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %c: tensor<11xf32>) -> tensor<11xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i + j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%c : tensor<11xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<11xf32>
    return %r : tensor<11xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{the indexing map for output(init) #0 is not a permutation}}
      transform.match.structured.init %s[0] projected_permutation : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// input: a block argument has no producer.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{input #0 is not produced by an operation}}
      %i = transform.match.structured.input %s[0] : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// init: a block argument has no producer.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{output(init) #0 is not produced by an operation}}
      %i = transform.match.structured.init %s[-1] : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// init: one init only.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    // expected-note @below {{while considering DPS inits (outputs) of this payload operation}}
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{position overflow 1 (updated from 1) for maximum 1}}
      %i = transform.match.structured.init %s[1] : (!transform.any_op) -> !transform.any_value
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// result: one result only.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{position 1 overflows the number of results(ints) of the payload operation}}
      %u = transform.match.structured.result %s[1] any : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// result: no users.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %c : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{no users of the result #0}}
      %u = transform.match.structured.result %s[0] any : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// result: two users.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    %t = tensor.cast %r : tensor<4x16xf32> to tensor<?x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{more than one result user with single user requested}}
      %u = transform.match.structured.result %s[-1] single : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// elemental_bitwidth: index is not an int or float type.
module attributes {transform.with_named_sequence} {
  func.func @payload(%i: index, %t: tensor<?xindex>, %t2: tensor<?xindex>) -> tensor<?xindex> {
    %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        outs(%t, %t2 : tensor<?xindex>, tensor<?xindex>) {
    ^bb0(%x: index, %y: index):
      linalg.yield %x, %y : index, index
    } -> (tensor<?xindex>, tensor<?xindex>)
    return %r#0 : tensor<?xindex>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %v = transform.match.structured.init %s[0] : (!transform.any_op) -> !transform.any_value
      // expected-error @below {{unsupported type for bitwidth extraction: 'tensor<?xindex>'}}
      %w = transform.match.structured.elemental_bitwidth %v : (!transform.any_value) -> !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// elemental_bitwidth: exactly one value (definite).
module attributes {transform.with_named_sequence} {
  func.func @payload(%i: index, %t: tensor<?xindex>, %t2: tensor<?xindex>) -> tensor<?xindex> {
    %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        outs(%t, %t2 : tensor<?xindex>, tensor<?xindex>) {
    ^bb0(%x: index, %y: index):
      linalg.yield %x, %y : index, index
    } -> (tensor<?xindex>, tensor<?xindex>)
    return %r#0 : tensor<?xindex>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %v = transform.match.structured.init %s[all] : (!transform.any_op) -> !transform.any_value
      // expected-error @below {{SingleValueMatchOpTrait requires the value handle to point to a single payload value}}
      %w = transform.match.structured.elemental_bitwidth %v : (!transform.any_value) -> !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// classify_contraction_dims: two inputs and one init.
module attributes {transform.with_named_sequence} {
  func.func @payload(%f: f32, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.fill ins(%f : f32) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{could not infer contraction dimensions}}
      %d:4 = transform.match.structured.classify_contraction_dims %s : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// classify_convolution_dims: a matmul has no output image dimension.
module attributes {transform.with_named_sequence} {
  func.func @payload(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // expected-error @below {{could not infer convolution dimensions}}
      %d:8 = transform.match.structured.classify_convolution_dims %s : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// failures(suppress) does not hide a definite failure of a predicate.
module attributes {transform.with_named_sequence} {
  func.func @payload(%i: index, %t: tensor<?xindex>, %t2: tensor<?xindex>) -> tensor<?xindex> {
    %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        outs(%t, %t2 : tensor<?xindex>, tensor<?xindex>) {
    ^bb0(%x: index, %y: index):
      linalg.yield %x, %y : index, index
    } -> (tensor<?xindex>, tensor<?xindex>)
    return %r#0 : tensor<?xindex>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.match.structured failures(suppress) %m : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %v = transform.match.structured.init %s[all] : (!transform.any_op) -> !transform.any_value
      // expected-error @below {{SingleValueMatchOpTrait requires the value handle to point to a single payload value}}
      %w = transform.match.structured.elemental_bitwidth %v : (!transform.any_value) -> !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: one body argument.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expected one body argument}}
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1:
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: the body argument is a handle.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expected body argument to implement TransformHandleTypeInterface}}
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: i32):
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: predicates sit directly in match.structured.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expects parent op to be 'transform.match.structured'}}
    transform.match.structured.body %arg0 passthrough : !transform.any_op
    transform.yield
  }
}

// -----

// Verifier: predicates apply to the body argument.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{expected predicate to apply to the surrounding structured op}}
      transform.match.structured.body %arg0 passthrough : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: one body condition.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{only one of {"reduction_position", "passthrough", "elementwise", "contraction"} is allowed}}
      transform.match.structured.body %arg1 passthrough reduction_position = 0 : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: [all] cannot be inverted.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{cannot request both 'all' and 'inverted' values in the list}}
      "transform.match.structured.dim"(%arg1) <{is_all, is_inverted, raw_dim_list = array<i64>}> : (!transform.any_op) -> ()
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: [all] lists no values.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{cannot both request 'all' and specific values in the list}}
      "transform.match.structured.dim"(%arg1) <{is_all, raw_dim_list = array<i64: 0, 1>}> : (!transform.any_op) -> ()
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: listed values are unique.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{op expected the listed values to be unique}}
      "transform.match.structured.dim"(%arg1) <{raw_dim_list = array<i64: 0, 0>}> : (!transform.any_op) -> ()
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: parallel xor reduction.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{cannot request the same dimension to be both parallel and reduction}}
      "transform.match.structured.dim"(%arg1) <{is_all, parallel, reduction, raw_dim_list = array<i64>}> : (!transform.any_op) -> ()
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: permutation xor projected_permutation.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{"permutation" and "projected_permutation" are mutually exclusive}}
      transform.match.structured.input %arg1[all] permutation projected_permutation : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: one input per op handle.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{cannot bind multiple inputs/inits to the same value}}
      transform.match.structured.input %arg1[0, 1] : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: an op result needs any/single.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{expects either the any/single keyword or the type value handle result type}}
      transform.match.structured.result %arg1[0] : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: a value result takes neither any nor single.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{expects either the any/single keyword or the type value handle result type}}
      transform.match.structured.result %arg1[0] any : (!transform.any_op) -> !transform.any_value
      transform.match.structured.yield
    }
    transform.yield
  }
}

// -----

// Verifier: any xor single.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb1(%arg1: !transform.any_op):
      // expected-error @below {{'any' and 'single' are mutually exclusive}}
      transform.match.structured.result %arg1[0] any single : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield
  }
}
