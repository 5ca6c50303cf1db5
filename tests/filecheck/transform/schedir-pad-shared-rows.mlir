// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.pad_shared_rows is schedir's own extension op.

// A promoted 128x32 f16 tile (a byte buffer read through a view) padded by 8 elements a
// row: the buffer grows to 128 x 40 f16, the view's users take its 128x32 corner (row
// stride 40). The global allocation is left alone; pad = 0 changes nothing.
// CHECK-LABEL: func.func @tile
// CHECK:       %[[G:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       %[[T:.*]] = memref.alloc() : memref<10240xi8, #gpu.address_space<workgroup>>
// CHECK-DAG:   %[[R:.*]] = arith.constant 128 : index
// CHECK-DAG:   %[[W:.*]] = arith.constant 40 : index
// CHECK:       %[[P:.*]] = memref.view %[[T]][%{{.*}}][%[[R]], %[[W]]] : memref<10240xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
// CHECK:       %[[V:.*]] = memref.subview %[[P]][0, 0] [128, 32] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
// CHECK:       memref.load %[[V]][%{{.*}}, %{{.*}}] : memref<128x32xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
// CHECK:       memref.dealloc %[[T]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %allocs = transform.structured.match ops{["memref.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    %pad = transform.param.constant 8 : i64 -> !transform.param<i64>
    %padded = transform.schedir.pad_shared_rows %allocs by %pad : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @tile(%i: index) -> f16 {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %g = memref.alloc() : memref<64xf32>
    %t = memref.alloc() : memref<8192xi8, #gpu.address_space<workgroup>>
    %v = memref.view %t[%c0][%c128, %c32] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
    %x = memref.load %v[%i, %i] : memref<?x?xf16, #gpu.address_space<workgroup>>
    memref.dealloc %t : memref<8192xi8, #gpu.address_space<workgroup>>
    return %x : f16
  }
}

// -----

// A shared buffer that is not a byte buffer of views is not a tile: a silenceable failure.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %allocs = transform.structured.match ops{["memref.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    %pad = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{could not pad the buffer's rows}}
    %padded = transform.schedir.pad_shared_rows %allocs by %pad : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @not_a_tile(%i: index) -> f32 {
    // expected-error @below {{not a 1-D i8 buffer in workgroup memory}}
    %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %x = memref.load %t[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    return %x : f32
  }
}
