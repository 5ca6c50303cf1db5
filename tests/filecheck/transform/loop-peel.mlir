// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// Dynamic upper bound: the split point is max(ub - (ub - lb) mod step, lb); in the main
// loop the tile size min(4, ub - iv) is the step, in the partial loop it is ub - iv.
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[SPLIT:.*]] = affine.max affine_map<()[s0, s1, s2] -> (s1 - (s1 - s0) mod s2, 0)>()[%[[C0:.*]], %[[N:.*]], %[[C4:.*]]]
// CHECK:         %[[MAIN:.*]] = scf.for %{{.*}} = %[[C0]] to %[[SPLIT]] step %[[C4]]
// CHECK:           affine.apply affine_map<() -> (4)>()
// CHECK:         } {main}
// CHECK:         scf.for %[[I:.*]] = %[[SPLIT]] to %[[N]] step %[[C4]] iter_args(%{{.*}} = %[[MAIN]])
// CHECK:           affine.apply affine_map<(d0)[s0] -> (-d0 + s0)>(%[[I]])[%[[N]]]
// CHECK:         } {partial}
module attributes {transform.with_named_sequence} {
  func.func @dynamic(%t: tensor<?xf32>, %n: index, %v: f32) -> tensor<?xf32> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %r = scf.for %i = %c0 to %n step %c4 iter_args(%a = %t) -> (tensor<?xf32>) {
      %s = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)[%n]
      %e = tensor.extract_slice %a[%i] [%s] [1] : tensor<?xf32> to tensor<?xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %b = tensor.insert_slice %f into %a[%i] [%s] [1] : tensor<?xf32> into tensor<?xf32>
      scf.yield %b : tensor<?xf32>
    }
    return %r : tensor<?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %main, %partial = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.annotate %main "main" : !transform.any_op
    transform.annotate %partial "partial" : !transform.any_op
    transform.yield
  }
}

// -----

// Static bounds: the split point folds to a constant; canonicalization afterwards turns
// the one-iteration partial loop into straight-line code with a 2-element tile.
// CHECK-LABEL: func.func @static_then_canonicalize
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C8:.*]] step %{{.*}}
// CHECK:           linalg.fill {{.*}} -> tensor<4xf32>
// CHECK:         }
// CHECK-NOT:     scf.for
// CHECK:         tensor.extract_slice %{{.*}}[8] [2] [1] : tensor<10xf32> to tensor<2xf32>
// CHECK:         linalg.fill {{.*}} -> tensor<2xf32>
module attributes {transform.with_named_sequence} {
  func.func @static_then_canonicalize(%t: tensor<10xf32>, %v: f32) -> tensor<10xf32> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %r = scf.for %i = %c0 to %c10 step %c4 iter_args(%a = %t) -> (tensor<10xf32>) {
      %s = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%i)
      %e = tensor.extract_slice %a[%i] [%s] [1] : tensor<10xf32> to tensor<?xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %b = tensor.insert_slice %f into %a[%i] [%s] [1] : tensor<?xf32> into tensor<10xf32>
      scf.yield %b : tensor<10xf32>
    }
    return %r : tensor<10xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %main, %partial = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } apply_cse : !transform.any_op
    transform.yield
  }
}

// -----

// peel_front: the first iteration runs in its own loop (the second result), before the
// main loop; min/max ops are left as they are.
// CHECK-LABEL: func.func @front
// CHECK:         %[[FIRST:.*]] = scf.for %{{.*}} = %{{.*}} to %[[C4:.*]] step %{{.*}}
// CHECK:           affine.min
// CHECK:         } {first}
// CHECK:         scf.for %{{.*}} = %[[C4]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FIRST]])
// CHECK:           affine.min
// CHECK:         } {main}
module attributes {transform.with_named_sequence} {
  func.func @front(%t: tensor<12xf32>, %v: f32) -> tensor<12xf32> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c12 = arith.constant 12 : index
    %r = scf.for %i = %c0 to %c12 step %c4 iter_args(%a = %t) -> (tensor<12xf32>) {
      %s = affine.min affine_map<(d0) -> (4, -d0 + 12)>(%i)
      %e = tensor.extract_slice %a[%i] [%s] [1] : tensor<12xf32> to tensor<?xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      %b = tensor.insert_slice %f into %a[%i] [%s] [1] : tensor<?xf32> into tensor<12xf32>
      scf.yield %b : tensor<12xf32>
    }
    return %r : tensor<12xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %main, %first = transform.loop.peel %l peel_front = true : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.annotate %main "main" : !transform.any_op
    transform.annotate %first "first" : !transform.any_op
    transform.yield
  }
}

// -----

// With a dynamic upper bound the first iteration ends at min(lb + step, ub).
// CHECK-LABEL: func.func @dynamic_front
// CHECK:         %[[SPLIT:.*]] = affine.min affine_map<()[s0, s1, s2] -> (4, s2)>()[%{{.*}}, %{{.*}}, %[[N:.*]]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step
// CHECK:         scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step
module attributes {transform.with_named_sequence} {
  func.func @dynamic_front(%m: memref<?xf32>, %v: f32, %n: index) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %n step %c4 {
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %main, %first = transform.loop.peel %l peel_front = true : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Nothing to peel when the step divides the range (with or without
// fail_if_already_divisible, as upstream today).
module attributes {transform.with_named_sequence} {
  func.func @divisible(%m: memref<?xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c12 = arith.constant 12 : index
    scf.for %i = %c0 to %c12 step %c4 {
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{failed to peel the last iteration}}
    %main, %partial = transform.loop.peel %l fail_if_already_divisible = true : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Peeling the first iteration of a loop that runs once does nothing.
module attributes {transform.with_named_sequence} {
  func.func @front_single(%m: memref<?xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c4 {
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{failed to peel the first iteration}}
    %main, %first = transform.loop.peel %l peel_front = true : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A semi-affine upper bound `ub - (ub - lb) mod step` is already divisible by the step
// (upstream's slow path proves `(ub - lb) mod step == 0`): nothing to peel.
module attributes {transform.with_named_sequence} {
  func.func @already_peeled(%lb: index, %ub: index, %step: index, %m: memref<?xindex>) {
    %new_ub = affine.apply affine_map<()[s0, s1, s2] -> (s1 - (s1 - s0) mod s2)>()[%lb, %ub, %step]
    scf.for %i = %lb to %new_ub step %step {
      memref.store %i, %m[%i] : memref<?xindex>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    // expected-error @below {{failed to peel the last iteration}}
    %main, %partial = transform.loop.peel %l fail_if_already_divisible = true : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// One more than that bound is not divisible: the loop is peeled.
// CHECK-LABEL: func.func @not_yet_peeled
// CHECK:         %[[UB:.*]] = affine.apply affine_map<()[s0, s1, s2] -> (s1 - (s1 - s0) mod s2 + 1)>
// CHECK:         scf.for
// CHECK:         scf.for
module attributes {transform.with_named_sequence} {
  func.func @not_yet_peeled(%lb: index, %ub: index, %step: index, %m: memref<?xindex>) {
    %new_ub = affine.apply affine_map<()[s0, s1, s2] -> (s1 - (s1 - s0) mod s2 + 1)>()[%lb, %ub, %step]
    scf.for %i = %lb to %new_ub step %step {
      memref.store %i, %m[%i] : memref<?xindex>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %main, %partial = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
