// RUN: %roundtrip | filecheck %s

// scf.forall in both bound forms, with and without shared_outs and mapping.

// CHECK-LABEL: func.func @forall_tiles
func.func @forall_tiles(%t: tensor<128x64xf32>, %n: index) -> tensor<128x64xf32> {
  // CHECK:      %r = scf.forall (%i, %j) in (4, %n) shared_outs(%o = %t) -> (tensor<128x64xf32>) {
  // CHECK-NEXT:   %s = tensor.extract_slice %o[%i, %j] [32, 16] [1, 1] : tensor<128x64xf32> to tensor<32x16xf32>
  // CHECK-NEXT:   scf.forall.in_parallel {
  // CHECK-NEXT:     tensor.parallel_insert_slice %s into %o[%i, %j] [32, 16] [1, 1] : tensor<32x16xf32> into tensor<128x64xf32>
  // CHECK-NEXT:   }
  // CHECK-NEXT: } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  %r = scf.forall (%i, %j) in (4, %n) shared_outs(%o = %t) -> (tensor<128x64xf32>) {
    %s = tensor.extract_slice %o[%i, %j] [32, 16] [1, 1] : tensor<128x64xf32> to tensor<32x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, %j] [32, 16] [1, 1] : tensor<32x16xf32> into tensor<128x64xf32>
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return %r : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @forall_bounds
func.func @forall_bounds(%lb: index, %ub: index, %s: index, %m: memref<?xf32>, %f: f32) {
  // Mixed static and dynamic lower bounds, upper bounds and steps.
  // CHECK: scf.forall (%i, %j) = (%lb, 0) to (%ub, 8) step (%s, 2) {
  // CHECK-NEXT: memref.store
  // CHECK-NEXT: } {mapping = [#gpu.thread<linear_dim_3>, #gpu.warp<z>]}
  scf.forall (%i, %j) = (%lb, 0) to (%ub, 8) step (%s, 2) {
    memref.store %f, %m[%i] : memref<?xf32>
  } {mapping = [#gpu.thread<linear_dim_3>, #gpu.warp<z>]}
  // An explicit empty terminator is accepted and not printed back.
  // CHECK: scf.forall (%k) = (%lb) to (%ub) step (%s) {
  // CHECK-NEXT: }
  scf.forall (%k) = (%lb) to (%ub) step (%s) {
    scf.forall.in_parallel {
    }
  }
  // Zero lower bounds and unit steps print in the normalized `in` form.
  // CHECK: scf.forall (%l) in (8) {
  // CHECK-NEXT: } {mapping = [#gpu.warpgroup<x>]}
  scf.forall (%l) = (0) to (8) step (1) {
  } {mapping = [#gpu.warpgroup<x>]}
  // CHECK: scf.forall (%a, %b, %c) in (2, 3, 4) {
  // CHECK-NEXT: } {mapping = [#gpu.lane<x>, #gpu.block<linear_dim_9>, #gpu.thread<z>]}
  scf.forall (%a, %b, %c) in (2, 3, 4) {
  } {mapping = [#gpu.lane<x>, #gpu.block<linear_dim_9>, #gpu.thread<z>]}
  return
}

// CHECK-LABEL: func.func @forall_two_outputs
func.func @forall_two_outputs(%x: tensor<64xf32>, %y: tensor<64xi32>) -> (tensor<64xf32>, tensor<64xi32>) {
  // CHECK: %r:2 = scf.forall (%i) in (8) shared_outs(%o = %x, %p = %y) -> (tensor<64xf32>, tensor<64xi32>) {
  %r:2 = scf.forall (%i) in (8) shared_outs(%o = %x, %p = %y) -> (tensor<64xf32>, tensor<64xi32>) {
    %s = tensor.extract_slice %o[%i] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %t = tensor.extract_slice %p[%i] [8] [1] : tensor<64xi32> to tensor<8xi32>
    // CHECK: scf.forall.in_parallel {
    // CHECK-NEXT: tensor.parallel_insert_slice %s into %o[%i] [8] [1] : tensor<8xf32> into tensor<64xf32>
    // CHECK-NEXT: tensor.parallel_insert_slice %t into %p[%i] [8] [1] : tensor<8xi32> into tensor<64xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [8] [1] : tensor<8xf32> into tensor<64xf32>
      tensor.parallel_insert_slice %t into %p[%i] [8] [1] : tensor<8xi32> into tensor<64xi32>
    }
  }
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xi32>
}

// scf.parallel and scf.reduce.

// CHECK-LABEL: func.func @parallel
func.func @parallel(%a: index, %b: index, %c: index, %x: f32, %y: i32, %m: memref<?x?xf32>) -> (f32, i32) {
  // CHECK:      %r:2 = scf.parallel (%i, %j) = (%a, %b) to (%c, %c) step (%a, %b) init (%x, %y) -> (f32, i32) {
  // CHECK:        scf.reduce(%v, %w : f32, i32) {
  // CHECK-NEXT:   ^bb0(%lhs: f32, %rhs: f32):
  // CHECK-NEXT:     %s = arith.addf %lhs, %rhs : f32
  // CHECK-NEXT:     scf.reduce.return %s : f32
  // CHECK-NEXT:   }, {
  // CHECK-NEXT:   ^bb0(%lhs_1: i32, %rhs_1: i32):
  %r:2 = scf.parallel (%i, %j) = (%a, %b) to (%c, %c) step (%a, %b) init (%x, %y) -> (f32, i32) {
    %v = memref.load %m[%i, %j] : memref<?x?xf32>
    %w = arith.constant 1 : i32
    scf.reduce(%v, %w : f32, i32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%lhs: i32, %rhs: i32):
      %s = arith.addi %lhs, %rhs : i32
      scf.reduce.return %s : i32
    }
  }
  // CHECK: %r1 = scf.parallel (%k) = (%a) to (%c) step (%a) init (%x) -> f32 {
  %r1 = scf.parallel (%k) = (%a) to (%c) step (%a) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %mx = arith.maximumf %lhs, %rhs : f32
      scf.reduce.return %mx : f32
    }
  }
  // Without reductions the `scf.reduce` terminator is implied when parsing.
  // CHECK:      scf.parallel (%k_1) = (%a) to (%c) step (%a) {
  // CHECK-NEXT:   memref.store %x, %m[%k_1, %k_1] : memref<?x?xf32>
  // CHECK-NEXT:   scf.reduce
  // CHECK-NEXT: }
  scf.parallel (%k) = (%a) to (%c) step (%a) {
    memref.store %x, %m[%k, %k] : memref<?x?xf32>
  }
  return %r#0, %r#1 : f32, i32
}

// The other scf ops keep xDSL's syntax, which matches upstream's.

// CHECK-LABEL: func.func @others
func.func @others(%a: index, %b: index, %x: f32, %y: i32, %cond: i1) -> f32 {
  // CHECK: %e = scf.execute_region -> i32 {
  // CHECK-NEXT: scf.yield %y : i32
  %e = scf.execute_region -> i32 {
    scf.yield %y : i32
  }
  // CHECK: %e2:2 = scf.execute_region -> (i32, f32) {
  %e2:2 = scf.execute_region -> (i32, f32) {
    scf.yield %y, %x : i32, f32
  }
  // CHECK: %if = scf.if %cond -> (f32) {
  // CHECK: } else {
  %if = scf.if %cond -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield %x : f32
  }
  // CHECK: %w:2 = scf.while (%q = %x) : (f32) -> (f32, f32) {
  // CHECK-NEXT: scf.condition(%cond) %q, %q : f32, f32
  // CHECK-NEXT: } do {
  %w:2 = scf.while (%q = %x) : (f32) -> (f32, f32) {
    scf.condition(%cond) %q, %q : f32, f32
  } do {
  ^bb0(%u: f32, %u2: f32):
    scf.yield %u : f32
  }
  // CHECK: %sw = scf.index_switch %a -> i32
  // CHECK-NEXT: case 2 {
  // CHECK: default {
  %sw = scf.index_switch %a -> i32
  case 2 {
    scf.yield %y : i32
  }
  default {
    scf.yield %y : i32
  }
  // CHECK: %f = scf.for %k = %a to %b step %a iter_args(%acc = %x) -> (f32) {
  %f = scf.for %k = %a to %b step %a iter_args(%acc = %x) -> (f32) {
    %n = arith.addf %acc, %x : f32
    scf.yield %n : f32
  }
  // CHECK: scf.for %k_1 = %y to %y step %y : i32 {
  scf.for %k = %y to %y step %y : i32 {
  }
  return %f : f32
}

// scf.while without loop-carried values: upstream writes no `()` assignment list.
// CHECK-LABEL: func.func @while_no_values
// CHECK:         scf.while : () -> () {
// CHECK-NEXT:      %{{.*}} = func.call @keep_going() : () -> i1
// CHECK-NEXT:      scf.condition(%{{.*}})
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
func.func private @keep_going() -> i1
func.func @while_no_values() {
  scf.while : () -> () {
    %c = func.call @keep_going() : () -> i1
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}
