// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// split_handle distributes payload ops in order; the overflow result takes the rest.
// CHECK-LABEL: func.func @split
// CHECK: arith.addf {{.*}} {first}
// CHECK: arith.mulf {{.*}} {second}
// CHECK: arith.subf {{.*}} {rest}
// CHECK: arith.divf {{.*}} {rest}
module attributes {transform.with_named_sequence} {
  func.func @split(%x: f32) -> f32 {
    %0 = arith.addf %x, %x : f32
    %1 = arith.mulf %0, %x : f32
    %2 = arith.subf %1, %x : f32
    %3 = arith.divf %2, %x : f32
    return %3 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["arith.addf", "arith.mulf", "arith.subf", "arith.divf"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %rest = transform.split_handle %ops overflow_result = 2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %a "first" : !transform.any_op
    transform.annotate %b "second" : !transform.any_op
    transform.annotate %rest "rest" : !transform.any_op
    transform.yield
  }
}

// -----

// merge_handles concatenates (deduplicate drops repeats); num_associations counts;
// get_parent_op walks up to a named op; select filters by name.
// CHECK-LABEL: func.func @navigate
// CHECK-SAME: {parent}
// CHECK: arith.mulf {{.*}} {selected}
module attributes {transform.with_named_sequence} {
  func.func @navigate(%x: f32) -> f32 {
    %0 = arith.addf %x, %x : f32
    %1 = arith.mulf %0, %x : f32
    return %1 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    %mul = transform.structured.match ops{["arith.mulf"]} in %root : (!transform.any_op) -> !transform.any_op
    %all = transform.merge_handles %add, %mul, %add : !transform.any_op
    %unique = transform.merge_handles deduplicate %add, %mul, %add : !transform.any_op
    %n3 = transform.num_associations %all : (!transform.any_op) -> !transform.param<i64>
    %n2 = transform.num_associations %unique : (!transform.any_op) -> !transform.param<i64>
    %three = transform.param.constant 3 : i64 -> !transform.param<i64>
    %two = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %n3, %three : !transform.param<i64>
    transform.match.param.cmpi eq %n2, %two : !transform.param<i64>
    %f = transform.get_parent_op %mul <{op_name = "func.func", deduplicate}> : (!transform.any_op) -> !transform.any_op
    transform.annotate %f "parent" : !transform.any_op
    %sel = transform.select "arith.mulf" in %unique : (!transform.any_op) -> !transform.any_op
    transform.annotate %sel "selected" : !transform.any_op
    transform.yield
  }
}

// -----

// Producers, consumers, results and their defining ops.
// CHECK-LABEL: func.func @chain
// CHECK: arith.addf {{.*}} {producer}
// CHECK: arith.mulf {{.*}} {defining}
// CHECK: return {consumer}
module attributes {transform.with_named_sequence} {
  func.func @chain(%x: f32) -> f32 {
    %0 = arith.addf %x, %x : f32
    %1 = arith.mulf %0, %x : f32
    return %1 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mul = transform.structured.match ops{["arith.mulf"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.get_producer_of_operand %mul[0] : (!transform.any_op) -> !transform.any_op
    transform.annotate %p "producer" : !transform.any_op
    %c = transform.get_consumers_of_result %mul[0] : (!transform.any_op) -> !transform.any_op
    transform.annotate %c "consumer" : !transform.any_op
    %v = transform.get_result %mul[0] : (!transform.any_op) -> !transform.any_value
    %d = transform.get_defining_op %v : (!transform.any_value) -> !transform.any_op
    transform.annotate %d "defining" : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @no_producer(%x: f32) -> f32 {
    // expected-note @below {{target op}}
    %0 = arith.addf %x, %x : f32
    return %0 : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not find a producer for operand number: 0}}
    %p = transform.get_producer_of_operand %add[0] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @no_parent() {
    // expected-note @below {{target op}}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not find a parent op that matches all requirements}}
    %p = transform.get_parent_op %ret <{op_name = "scf.for"}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @cast_mismatch(%x: f32) -> f32 {
    // expected-note @below {{payload operation}}
    return %x : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{incompatible payload operation name}}
    %c = transform.cast %ret : !transform.any_op to !transform.op<"linalg.matmul">
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @cmpi(%x: f32) -> f32 {
    return %x : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{value # 0 associated with the parameter defined here}}
    %n = transform.num_associations %ret : (!transform.any_op) -> !transform.param<i64>
    %two = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{expected parameter to be greater than or equal to 2, got 1}}
    transform.match.param.cmpi ge %n, %two : !transform.param<i64>
    transform.yield
  }
}
