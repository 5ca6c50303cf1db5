// RUN: schedir-opt %s -p convert-scf-to-cf --split-input-file | filecheck %s

// CHECK-LABEL: func.func @while
// CHECK-SAME:    (%[[INIT:.*]]: i32, %[[N:.*]]: i32) -> i32 {
// CHECK-NEXT:    cf.br ^[[BEFORE:.*]](%[[INIT]] : i32)
// CHECK-NEXT:  ^[[BEFORE]](%[[A:.*]]: i32):
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi slt, %[[A]], %[[N]] : i32
// CHECK-NEXT:    cf.cond_br %[[C]], ^[[AFTER:.*]](%[[A]] : i32), ^[[CONT:.*]]
// CHECK-NEXT:  ^[[AFTER]](%[[B:.*]]: i32):
// CHECK:         %[[NEXT:.*]] = arith.addi %[[B]], %{{.*}} : i32
// CHECK-NEXT:    cf.br ^[[BEFORE]](%[[NEXT]] : i32)
// CHECK-NEXT:  ^[[CONT]]:
// CHECK-NEXT:    return %[[A]] : i32
func.func @while(%init: i32, %n: i32) -> i32 {
  %r = scf.while (%a = %init) : (i32) -> i32 {
    %c = arith.cmpi slt, %a, %n : i32
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    %one = arith.constant 1 : i32
    %nx = arith.addi %b, %one : i32
    scf.yield %nx : i32
  }
  return %r : i32
}

// -----

// CHECK-LABEL: func.func @execute_region
// CHECK-NEXT:    cf.br ^[[BODY:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    %[[X:.*]] = arith.addi
// CHECK-NEXT:    cf.br ^[[CONT:.*]](%[[X]] : i32)
// CHECK-NEXT:  ^[[CONT]](%[[E:.*]]: i32):
// CHECK-NEXT:    return %[[E]] : i32
func.func @execute_region(%a: i32) -> i32 {
  %e = scf.execute_region -> i32 {
    %x = arith.addi %a, %a : i32
    scf.yield %x : i32
  }
  return %e : i32
}

// -----

// scf.parallel becomes loops, then branches; nothing structured is left.
// CHECK-LABEL: func.func @parallel
// CHECK-NOT:     scf.
// CHECK:         arith.cmpi slt
// CHECK:         cf.cond_br
// CHECK:         memref.store
// CHECK-NOT:     scf.
func.func @parallel(%m: memref<8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %v, %m[%i] : memref<8xf32>
    scf.reduce
  }
  return
}
