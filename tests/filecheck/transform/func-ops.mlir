// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: iree-opt (LLVM 24) rejects `{adjust_func_calls}` in the attr-dict (strict properties) and its format has no other spelling for it.

// replace_func_signature moves the arguments and results of @callee (interchange[i] is
// the old position of new i) and, with adjust_func_calls, the operands and results of
// its calls; the body keeps using the same values. (`adjust_func_calls` is newer than
// iree-opt 3.13's LLVM, which rejects it; upstream's own tests spell it this way.)
// CHECK-LABEL: func.func private @callee
// CHECK-SAME:    (%[[C:.*]]: f32, %[[A:.*]]: i32, %[[B:.*]]: i64) -> (i64, f32)
// CHECK:         %[[S:.*]] = arith.addi %[[A]], %[[A]] : i32
// CHECK:         return %[[B]], %[[C]] : i64, f32
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    (%[[X:.*]]: i32, %[[Y:.*]]: i64, %[[Z:.*]]: f32)
// CHECK:         {{(func\.)?}}call @callee(%[[Z]], %[[X]], %[[Y]]) : (f32, i32, i64) -> (i64, f32)
// CHECK:         return {{.*}} : f32, i64
module {
  func.func private @callee(%a: i32, %b: i64, %c: f32) -> (f32, i64) {
    %s = arith.addi %a, %a : i32
    return %c, %b : f32, i64
  }
  func.func @caller(%x: i32, %y: i64, %z: f32) -> (f32, i64) {
    %r:2 = func.call @callee(%x, %y, %z) : (i32, i64, f32) -> (f32, i64)
    return %r#0, %r#1 : f32, i64
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op) {
    %f = transform.structured.match ops{["func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %m = transform.get_parent_op %f <deduplicate> : (!transform.any_op) -> !transform.any_op
    %m2, %f2 = transform.func.replace_func_signature @callee args_interchange = [2, 0, 1] results_interchange = [1, 0] at %m {adjust_func_calls} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// deduplicate_func_args merges the arguments the only call passes the same value to.
// CHECK-LABEL: func.func private @twice
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[C:.*]]: index)
// CHECK:         memref.load %[[A]][%[[C]]]
// CHECK:         memref.load %[[A]][%[[C]]]
// CHECK-LABEL: func.func @use_twice
// CHECK-SAME:    (%[[M:.*]]: memref<4xf32>, %[[I:.*]]: index)
// CHECK:         {{(func\.)?}}call @twice(%[[M]], %[[I]]) : (memref<4xf32>, index) -> f32
module {
  func.func private @twice(%a: memref<4xf32>, %b: memref<4xf32>, %c: index) -> f32 {
    %0 = memref.load %a[%c] : memref<4xf32>
    %1 = memref.load %b[%c] : memref<4xf32>
    %2 = arith.addf %0, %1 : f32
    return %2 : f32
  }
  func.func @use_twice(%m: memref<4xf32>, %i: index) -> f32 {
    %r = func.call @twice(%m, %m, %i) : (memref<4xf32>, memref<4xf32>, index) -> f32
    return %r : f32
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op) {
    %f = transform.structured.match ops{["func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %m = transform.get_parent_op %f <deduplicate> : (!transform.any_op) -> !transform.any_op
    %m2, %f2 = transform.func.deduplicate_func_args @twice at %m : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// cast_and_call builds the call before the insertion point and reroutes the users of the
// outputs to its results; the replaced op stays (for a later cleanup).
// CHECK-LABEL: func.func @slice
// CHECK:         %[[IN:.*]] = arith.muli
// CHECK-NEXT:    %[[CALL:.*]] = {{(func\.)?}}call @impl(%[[IN]]) : (i32) -> i32
// CHECK-NEXT:    %{{.*}} = arith.addi %[[IN]], %[[IN]] : i32
// CHECK-NEXT:    return %[[CALL]] : i32
module {
  func.func @slice(%x: i32) -> i32 {
    %0 = arith.muli %x, %x : i32
    %1 = arith.addi %0, %0 : i32
    return %1 : i32
  }
  func.func private @impl(i32) -> i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %mul = transform.structured.match ops{["arith.muli"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %add = transform.structured.match ops{["arith.addi"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %in = transform.get_result %mul[0] : (!transform.any_op) -> !transform.any_value
    %out = transform.get_result %add[0] : (!transform.any_op) -> !transform.any_value
    %c = transform.func.cast_and_call @impl(%in) -> %out before %add : (!transform.any_op, !transform.any_value, !transform.any_value) -> !transform.any_op
    transform.yield
  }
}

// -----

module {
  func.func @arity(%x: i32) -> i32 {
    %0 = arith.addi %x, %x : i32
    return %0 : i32
  }
  // expected-error @below {{mismatch between number of function arguments 2 and number of inputs 1}}
  func.func private @two(i32, i32) -> i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addi"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %in = transform.get_operand %add[0] : (!transform.any_op) -> !transform.any_value
    %c = transform.func.cast_and_call @two(%in) before %add : (!transform.any_op, !transform.any_value) -> !transform.any_op
    transform.yield
  }
}

// -----

module {
  func.func @missing(%x: i32) -> i32 {
    %0 = arith.addi %x, %x : i32
    return %0 : i32
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addi"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unresolved symbol @nowhere}}
    %c = transform.func.cast_and_call @nowhere before %add : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func private @f(%a: i32, %b: i32) -> i32 {
  return %a : i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op) {
    // expected-error @below {{args interchange index 2 is out of bounds for function with name '@f' with 2 arguments}}
    %m, %f = transform.func.replace_func_signature @f args_interchange = [0, 2] results_interchange = [0] at %arg0 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func private @g(%a: i32, %b: i32) -> (i32, i32) {
  return %a, %b : i32, i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op) {
    // expected-error @below {{results interchange must be unique}}
    %m, %f = transform.func.replace_func_signature @g args_interchange = [1, 0] results_interchange = [1, 1] at %arg0 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expected a function handle or name to call}}
    %c = transform.func.cast_and_call before %arg0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
