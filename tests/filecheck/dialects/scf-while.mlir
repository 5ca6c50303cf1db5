// RUN: %roundtrip | filecheck %s

// scf.while without carried values has no initialization list (upstream's form); with
// carried values the list is printed as before.

// CHECK-LABEL: func.func @no_inits
// CHECK:         scf.while : () -> () {
// CHECK-NEXT:      %[[C:.*]] = func.call @cond() : () -> i1
// CHECK-NEXT:      scf.condition(%[[C]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK:         %{{.*}} = scf.while : () -> i32 {
// CHECK:         %{{.*}} = scf.while (%[[A:.*]] = %{{.*}}) : (i32) -> i32 {
func.func private @cond() -> i1
func.func @no_inits(%x: i32) -> (i32, i32) {
  scf.while : () -> () {
    %0 = func.call @cond() : () -> i1
    scf.condition(%0)
  } do {
    scf.yield
  }
  %r0 = scf.while : () -> i32 {
    %0 = func.call @cond() : () -> i1
    scf.condition(%0) %x : i32
  } do {
  ^bb0(%b: i32):
    scf.yield
  }
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %0 = func.call @cond() : () -> i1
    scf.condition(%0) %a : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return %r0, %r : i32, i32
}
