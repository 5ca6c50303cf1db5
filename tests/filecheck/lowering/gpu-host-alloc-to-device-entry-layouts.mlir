// RUN: schedir-opt %s -p gpu-host-alloc-to-device --split-input-file | filecheck %s

// What One-Shot Bufferize gives function boundaries by default (the fully dynamic
// layout): an entry's memref arguments get the identity layout the host ABI passes, a
// cast keeps their uses, and the copy of the argument written in place to the output
// parameter is a gpu.memcpy of the contiguous buffer behind the casts.
// CHECK-LABEL: func.func @entry(
// CHECK-SAME:      %a: memref<5x7xf32>, %c: memref<5x7xf32>, %n: index, %out: memref<5x7xf32>)
// CHECK-NEXT:    %[[A:.*]] = memref.cast %a : memref<5x7xf32> to memref<5x7xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[C:.*]] = memref.cast %c : memref<5x7xf32> to memref<5x7xf32, strided<[?, ?], offset: ?>>
// CHECK:         gpu.launch_func @k::@k {{.*}} args(%[[A]] : memref<5x7xf32, strided<[?, ?], offset: ?>>, %[[C]] : memref<5x7xf32, strided<[?, ?], offset: ?>>)
// CHECK:         gpu.memcpy %out, %c : memref<5x7xf32>, memref<5x7xf32>
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  func.func @entry(%a: memref<5x7xf32, strided<[?, ?], offset: ?>>, %c: memref<5x7xf32, strided<[?, ?], offset: ?>>, %n: index, %out: memref<5x7xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<5x7xf32, strided<[?, ?], offset: ?>>, %c : memref<5x7xf32, strided<[?, ?], offset: ?>>)
    %d = memref.cast %c : memref<5x7xf32, strided<[?, ?], offset: ?>> to memref<5x7xf32, strided<[?, 1], offset: ?>>
    memref.copy %d, %out : memref<5x7xf32, strided<[?, 1], offset: ?>> to memref<5x7xf32>
    return
  }
  gpu.module @k {
    gpu.func @k(%a: memref<5x7xf32, strided<[?, ?], offset: ?>>, %c: memref<5x7xf32, strided<[?, ?], offset: ?>>) kernel {
      gpu.return
    }
  }
}

// -----

// Dynamic shapes keep their sizes; the identity layout is all that changes.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %a: memref<?x3xf32>, %b: memref<?x3xf32>)
// CHECK:         gpu.memcpy %b, %a : memref<?x3xf32>, memref<?x3xf32>
module attributes {gpu.container_module} {
  func.func @dynamic(%a: memref<?x3xf32, strided<[?, ?], offset: ?>>, %b: memref<?x3xf32>) {
    memref.copy %a, %b : memref<?x3xf32, strided<[?, ?], offset: ?>> to memref<?x3xf32>
    return
  }
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
