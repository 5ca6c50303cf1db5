// RUN: %roundtrip | filecheck %s

// MLIR drops the `func.` prefix of ops directly in a `func.func` body (its default
// dialect), not in nested regions, and prints several results sharing a name (or none)
// as one group `%r:2`, used as `%r#0`; results upstream names apart print one by one.
// CHECK-LABEL: func.func @caller
// CHECK-NEXT:    %[[R:.*]]:2 = call @pair(%{{.*}}) : (index) -> (index, index)
// CHECK-NEXT:    %{{.*}} = scf.execute_region -> index {
// CHECK-NEXT:      %{{.*}} = func.call @one(%[[R]]#1) : (index) -> index
// CHECK:         %{{.*}}, %{{.*}} = gpu.shuffle xor
// CHECK:         return %[[R]]#0, %{{.*}} : index, index
func.func private @pair(index) -> (index, index)
func.func private @one(index) -> index
func.func @caller(%a: index, %v: f32, %o: i32, %w: i32) -> (index, index) {
  %r:2 = func.call @pair(%a) : (index) -> (index, index)
  %e = scf.execute_region -> index {
    %x = func.call @one(%r#1) : (index) -> index
    scf.yield %x : index
  }
  %s, %ok = gpu.shuffle xor %v, %o, %w : f32
  func.return %r#0, %e : index, index
}
