// RUN: schedir-opt %s | filecheck %s

// Upstream's test layout: the schedule lives in a nested module next to the payload.
// CHECK-LABEL: func.func @f
// CHECK: arith.addf {{.*}} {seen}
// CHECK-NOT: transform.named_sequence
func.func @f(%x: f32) -> f32 {
  %0 = arith.addf %x, %x : f32
  return %0 : f32
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.annotate %add "seen" : !transform.any_op
    transform.yield
  }
}
