// RUN: %roundtrip | filecheck %s

// The mbarrier ops in upstream's syntax: printed, parsed again and printed the same.

!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>

// CHECK-LABEL: func.func @mbarriers
// CHECK:         %[[B:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:         %{{.*}} = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK:         %{{.*}} = nvgpu.mbarrier.create -> <memorySpace = 3 : i64>
// CHECK:         nvgpu.mbarrier.init %[[B]][%[[I:.*]]], %[[N:.*]] : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:         nvgpu.mbarrier.init %[[B]][%[[I]]], %[[N]], predicate = %[[P:.*]] : <memorySpace
// CHECK:         nvgpu.mbarrier.arrive.expect_tx %[[B]][%[[I]]], %[[N]] : <memorySpace
// CHECK:         nvgpu.mbarrier.arrive.expect_tx %[[B]][%[[I]]], %[[N]], predicate = %[[P]] : <memorySpace
// CHECK:         %[[T:.*]] = nvgpu.mbarrier.arrive %[[B]][%[[I]]] : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> !nvgpu.mbarrier.token
// CHECK:         %{{.*}} = nvgpu.mbarrier.arrive.nocomplete %[[B]][%[[I]]], %[[N]] : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> !nvgpu.mbarrier.token
// CHECK:         %{{.*}} = nvgpu.mbarrier.test.wait %[[B]][%[[I]]], %[[T]] : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>, !nvgpu.mbarrier.token
// CHECK:         nvgpu.mbarrier.try_wait.parity %[[B]][%[[I]]], %[[P]], %[[N]] {note = "kept"} : <memorySpace
func.func @mbarriers(%i: index, %n: index, %p: i1) {
  %b = nvgpu.mbarrier.create -> !bar
  %b1 = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
  %b3 = nvgpu.mbarrier.create -> <num_barriers = 1, memorySpace = 3>
  nvgpu.mbarrier.init %b[%i], %n : !bar
  nvgpu.mbarrier.init %b[%i], %n, predicate = %p : !bar
  nvgpu.mbarrier.arrive.expect_tx %b[%i], %n : !bar
  nvgpu.mbarrier.arrive.expect_tx %b[%i], %n, predicate = %p : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
  %t = nvgpu.mbarrier.arrive %b[%i] : !bar -> !nvgpu.mbarrier.token
  %t2 = nvgpu.mbarrier.arrive.nocomplete %b[%i], %n : !bar -> !nvgpu.mbarrier.token
  %done = nvgpu.mbarrier.test.wait %b[%i], %t : !bar, !nvgpu.mbarrier.token
  nvgpu.mbarrier.try_wait.parity %b[%i], %p, %n {note = "kept"} : !bar
  return
}

// The generic form names upstream's operands in upstream's order.
// CHECK-LABEL: func.func @generic
// CHECK:         nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[ID:.*]]], %{{.*}}, %[[TICKS:.*]] :
func.func @generic(%b: !bar, %p: i1, %ticks: index, %id: index) {
  "nvgpu.mbarrier.try_wait.parity"(%b, %p, %ticks, %id) : (!bar, i1, index, index) -> ()
  return
}
