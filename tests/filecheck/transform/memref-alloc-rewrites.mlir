// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// erase_dead_alloc_and_stores drops the buffers that are only written (directly or
// through views) or freed, with those writes; a buffer read, returned, or passed to an
// op of unknown effects stays. (Upstream erases the call to @sink and %opaque: it takes an
// op without declared effects for one that does not read; schedir keeps both.)
// CHECK-LABEL: func.func @dead_and_live
// CHECK-NOT:     memref.alloc()
// CHECK-NOT:     memref.store
// CHECK:         %[[LIVE:.*]] = memref.alloca() : memref<4xf32>
// CHECK:         memref.store %{{.*}}, %[[LIVE]]
// CHECK:         %[[V:.*]] = memref.load %[[LIVE]]
// CHECK:         %[[ESC:.*]] = memref.alloc() : memref<3xi32>
// CHECK:         %[[OPAQUE:.*]] = memref.alloc() : memref<5xi8>
// CHECK:         {{(func\.)?}}call @sink(%[[OPAQUE]])
// CHECK:         return %[[V]], %[[ESC]]
func.func private @sink(memref<5xi8>)
func.func @dead_and_live(%i: index, %x: f32) -> (f32, memref<3xi32>) {
  %dead = memref.alloc() : memref<8x7xf32>
  %view = memref.subview %dead[0, 0] [4, 7] [1, 1] : memref<8x7xf32> to memref<4x7xf32, strided<[7, 1]>>
  memref.store %x, %view[%i, %i] : memref<4x7xf32, strided<[7, 1]>>
  memref.store %x, %dead[%i, %i] : memref<8x7xf32>
  memref.dealloc %dead : memref<8x7xf32>
  %live = memref.alloca() : memref<4xf32>
  memref.store %x, %live[%i] : memref<4xf32>
  %v = memref.load %live[%i] : memref<4xf32>
  %esc = memref.alloc() : memref<3xi32>
  %opaque = memref.alloc() : memref<5xi8>
  func.call @sink(%opaque) : (memref<5xi8>) -> ()
  return %v, %esc : f32, memref<3xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.memref.erase_dead_alloc_and_stores %f : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// alloca_to_global makes each alloca a private global of the enclosing module (unique
// names), read through memref.get_global; the returned handles are those two ops.
// CHECK-DAG:   memref.global "private" @[[G0:alloca.*]] : memref<2x3xf32>
// CHECK-DAG:   memref.global "private" @[[G1:alloca.*]] : memref<5xi32>
// CHECK-LABEL: func.func @two_allocas
// CHECK-DAG:     %[[A:.*]] = memref.get_global @[[G0]] : memref<2x3xf32>
// CHECK-DAG:     %[[B:.*]] = memref.get_global @[[G1]] : memref<5xi32>
// CHECK-DAG:     memref.store %{{.*}}, %[[A]]
// CHECK-DAG:     memref.store %{{.*}}, %[[B]]
func.func @two_allocas(%i: index, %x: f32, %y: i32) {
  %a = memref.alloca() : memref<2x3xf32>
  %b = memref.alloca() : memref<5xi32>
  memref.store %x, %a[%i, %i] : memref<2x3xf32>
  memref.store %y, %b[%i] : memref<5xi32>
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["memref.alloca"]} in %arg0 : (!transform.any_op) -> !transform.op<"memref.alloca">
    %get, %global = transform.memref.alloca_to_global %a : (!transform.op<"memref.alloca">) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @dynamic(%n: index) {
  // expected-error @below {{conversion to a global op requires statically shaped memrefs, but got 'memref<?xf32>'}}
  %a = memref.alloca(%n) : memref<?xf32>
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["memref.alloca"]} in %arg0 : (!transform.any_op) -> !transform.op<"memref.alloca">
    %get, %global = transform.memref.alloca_to_global %a : (!transform.op<"memref.alloca">) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
