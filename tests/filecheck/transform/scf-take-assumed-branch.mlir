// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// take_assumed_branch inlines the then branch (or, with take_else_branch, the else
// branch) in place of the scf.if; its yielded values replace the if's results, and a
// handle to an op of the taken branch still points to it.
// CHECK-LABEL: func.func @then_branch
// CHECK-NOT:     scf.if
// CHECK:         %[[S:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[S]], %[[S]] {kept} : i32
// CHECK-NEXT:    return %[[M]], %{{.*}} : i32, f32
func.func @then_branch(%c: i1, %a: i32, %f: f32) -> (i32, f32) {
  %r:2 = scf.if %c -> (i32, f32) {
    %s = arith.addi %a, %a : i32
    %m = arith.muli %s, %s : i32
    scf.yield %m, %f : i32, f32
  } else {
    %n = arith.subi %a, %a : i32
    scf.yield %n, %f : i32, f32
  }
  return %r#0, %r#1 : i32, f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %if = transform.structured.match ops{["scf.if"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %mul = transform.structured.match ops{["arith.muli"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.scf.take_assumed_branch %if : (!transform.any_op) -> ()
    transform.annotate %mul "kept" : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @else_branch
// CHECK-NOT:     scf.if
// CHECK-NOT:     arith.addi
// CHECK:         %[[N:.*]] = arith.subi
// CHECK-NEXT:    return %[[N]] : i32
func.func @else_branch(%c: i1, %a: i32) -> i32 {
  %r = scf.if %c -> (i32) {
    %s = arith.addi %a, %a : i32
    scf.yield %s : i32
  } else {
    %n = arith.subi %a, %a : i32
    scf.yield %n : i32
  }
  return %r : i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %if = transform.structured.match ops{["scf.if"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.scf.take_assumed_branch %if take_else_branch : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// Nested ifs: each matched if is replaced (the outer first, the inner keeps its handle).
// CHECK-LABEL: func.func @nested
// CHECK-NOT:     scf.if
// CHECK:         memref.store
func.func @nested(%c: i1, %d: i1, %m: memref<4xf32>, %i: index, %x: f32) {
  scf.if %c {
    scf.if %d {
      memref.store %x, %m[%i] : memref<4xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %if = transform.structured.match ops{["scf.if"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.scf.take_assumed_branch %if : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

func.func @not_an_if(%a: i32) -> i32 {
  // expected-note @below {{when applied to this op}}
  %s = arith.addi %a, %a : i32
  return %s : i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addi"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform applied to the wrong op kind}}
    transform.scf.take_assumed_branch %add : (!transform.any_op) -> ()
    transform.yield
  }
}
