// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// New loop i is old loop iterator_interchange[i]: maps are composed with the inverse
// permutation, iterator types permuted, and each linalg.index becomes an affine.apply
// of fresh indices of every loop (upstream's interchangeGenericOp).
// CHECK-LABEL: func.func @interchange
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK-SAME: attrs = {interchanged}
// CHECK:        %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[I1:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %[[I2:.*]] = linalg.index 2 : index
// CHECK-NEXT:   %[[OLD0:.*]] = affine.apply affine_map<(d0, d1, d2) -> (d1)>(%[[I0]], %[[I1]], %[[I2]])
// CHECK:        %[[OLD2:.*]] = affine.apply affine_map<(d0, d1, d2) -> (d0)>
// CHECK:        arith.addi %[[OLD0]], %[[OLD2]] : index
module attributes {transform.with_named_sequence} {
  func.func @interchange(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %i = linalg.index 0 : index
      %k = linalg.index 2 : index
      %s = arith.addi %i, %k : index
      %t = arith.index_cast %s : index to i32
      %f = arith.sitofp %t : i32 to f32
      %1 = arith.mulf %in, %in_0 : f32
      %2 = arith.addf %out, %1 : f32
      %3 = arith.addf %2, %f : f32
      linalg.yield %3 : f32
    } -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.structured.interchange %g iterator_interchange = [2, 0, 1] : (!transform.any_op) -> !transform.any_op
    transform.annotate %i "interchanged" : !transform.any_op
    transform.yield
  }
}

// -----

// An empty interchange returns the op unchanged.
// CHECK-LABEL: func.func @identity
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: attrs = {same}
module attributes {transform.with_named_sequence} {
  func.func @identity(%a: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    } -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.structured.interchange %g : (!transform.any_op) -> !transform.any_op
    transform.annotate %i "same" : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @wrong_length(%a: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = arith.addf %out, %in : f32
      linalg.yield %1 : f32
    } -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{"iterator_interchange" has length (3) different from the number of loops in the target operation (2)}}
    %i = transform.structured.interchange %g iterator_interchange = [2, 0, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Only linalg.generic is accepted.
module attributes {transform.with_named_sequence} {
  func.func @named(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    // expected-note @below {{when applied to this op}}
    %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform applied to the wrong op kind}}
    %i = transform.structured.interchange %m iterator_interchange = [1, 0, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects iterator_interchange to be a permutation}}
    %i = transform.structured.interchange %g iterator_interchange = [1, 1, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
