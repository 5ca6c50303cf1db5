// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// Named ops become linalg.generic with their maps, iterators and body; the result
// handle points to the generics (annotated here).
// CHECK-LABEL: func.func @matmul
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:   ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.*}} : tensor<4x16xf32>) attrs = {generalized}
// CHECK:        arith.extf
// CHECK:        arith.extf
// CHECK:        arith.mulf
// CHECK:        arith.addf
// CHECK:        linalg.yield
// CHECK-NOT:  linalg.matmul
module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.generalize %m : (!transform.any_op) -> !transform.any_op
    transform.annotate %g "generalized" : !transform.any_op
    transform.yield
  }
}

// -----

// Fill (scalar input map), transpose and a generic that is returned as it is.
// CHECK-LABEL: func.func @several
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : f32)
// CHECK-SAME: attrs = {g}
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: attrs = {g}
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-SAME: attrs = {{[{].*}}keep{{.*[}]}}
module attributes {transform.with_named_sequence} {
  func.func @several(%x: f32, %t: tensor<8x4xf32>, %o: tensor<4x8xf32>, %v: tensor<5xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<5xf32>) {
    %0 = linalg.fill ins(%x : f32) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = linalg.transpose ins(%t : tensor<8x4xf32>) outs(%o : tensor<4x8xf32>) permutation = [1, 0]
    %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<5xf32>) outs(%v : tensor<5xf32>) attrs = {keep} {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<5xf32>
    return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.generalize %ops : (!transform.any_op) -> !transform.any_op
    transform.annotate %g "g" : !transform.any_op
    transform.yield
  }
}

// -----

// Ops that are not structured ops: a silenceable failure at the op, noting the payload;
// the structured ones in the same handle are still generalized.
module attributes {transform.with_named_sequence} {
  func.func @wrong_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-note @below {{when applied to this op}}
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.copy ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["tensor.empty", "linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform applied to the wrong op kind}}
    %g = transform.structured.generalize %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The failure is silenceable: failures(suppress) drops it and the sequence goes on.
// CHECK-LABEL: func.func @suppressed
// CHECK: linalg.softmax dimension(1) {after}
module attributes {transform.with_named_sequence} {
  func.func @suppressed(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %sm = transform.structured.match ops{["linalg.softmax"]} in %r : (!transform.any_op) -> !transform.any_op
      %g = transform.structured.generalize %sm : (!transform.any_op) -> !transform.any_op
      transform.yield
    }
    %sm2 = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.annotate %sm2 "after" : !transform.any_op
    transform.yield
  }
}
