// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The loop moves into @body before its function; the values it uses from above become
// arguments (nested ops first, then the loop's own operands), index constants are
// re-created inside, the results come back through the call. The name is uniqued.
// CHECK-LABEL: func.func @body_0(
// CHECK-SAME:    %[[M:.*]]: memref<?xf32>, %[[ONE:.*]]: index, %[[UB:.*]]: index, %[[INIT:.*]]: f32) -> f32 {
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %[[C1]] to %[[UB]] step %[[C1]] iter_args(%[[A:.*]] = %[[INIT]]) -> (f32) {
// CHECK:           memref.load %[[M]][%[[I]]]
// CHECK:         return %[[R]] : f32
// CHECK-LABEL: func.func @sum(
// CHECK-SAME:    %[[MM:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[X:.*]]: f32)
// CHECK:         %[[CC:.*]] = arith.constant 1 : index
// CHECK:         %[[S:.*]] = call @body_0(%[[MM]], %[[CC]], %[[N]], %[[X]]) : (memref<?xf32>, index, index, f32) -> f32
// CHECK:         return %[[S]] : f32
func.func private @body()
func.func @sum(%A: memref<?xf32>, %n: index, %x: f32) -> f32 {
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %v = memref.load %A[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %r : f32
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.loop.outline %0 func_name = "body" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An op with two regions cannot be outlined: upstream's diagnostic and note.
func.func @two_regions(%b: i1) {
  // expected-note @below {{target op}}
  scf.if %b {
    scf.yield
  } else {
    scf.yield
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["scf.if"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to outline}}
    %f, %c = transform.loop.outline %0 func_name = "body" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
