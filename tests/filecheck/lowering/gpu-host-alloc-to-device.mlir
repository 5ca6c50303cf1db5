// RUN: schedir-opt %s -p gpu-host-alloc-to-device | filecheck %s

// In a module with kernels, host allocations are device memory, host copies device
// copies; an alloca is freed before each return. A module without kernels is unchanged.
// CHECK-LABEL: func.func @host
// CHECK:         %[[B:.*]] = gpu.alloc (%{{.*}}) : memref<?xf32>
// CHECK:         %[[T:.*]] = gpu.alloc () : memref<16xf32>
// CHECK:         gpu.memcpy %[[T]], %{{.*}} : memref<16xf32>, memref<16xf32>
// CHECK:         gpu.launch_func
// CHECK:         gpu.dealloc %[[B]] : memref<?xf32>
// CHECK:         gpu.dealloc %[[T]] : memref<16xf32>
// CHECK-NEXT:    return
module attributes {gpu.container_module} {
  func.func @host(%a: memref<16xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %b = memref.alloc(%n) : memref<?xf32>
    %t = memref.alloca() : memref<16xf32>
    memref.copy %a, %t : memref<16xf32> to memref<16xf32>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<16xf32>, %b : memref<?xf32>)
    memref.dealloc %b : memref<?xf32>
    return
  }
  gpu.module @k {
    gpu.func @k(%t: memref<16xf32>, %b: memref<?xf32>) kernel {
      gpu.return
    }
  }
}
