// RUN: schedir-opt %s -p gpu-workgroup-to-dynamic-shared-memory | filecheck %s
// RUN: schedir-opt %s -p 'gpu-workgroup-to-dynamic-shared-memory,gpu-launch-sink-index-computations,gpu-kernel-outlining,convert-gpu-to-nvvm,nvvm-attach-target{chip=sm_90a features="+ptx80"},gpu-module-to-binary{format=isa}' | filecheck %s --check-prefix=PTX

// Shared buffers beyond the 48 KiB of static shared memory (40960 + 12288 bytes, one
// allocated in a loop, one with a deallocation) become views of the block's dynamic
// shared memory at 128-byte aligned offsets; the launch reserves their bytes.
// CHECK-LABEL: func.func @beyond
// CHECK:         %[[SIZE:.*]] = arith.constant 53376 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK-NEXT:      %[[M:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:           %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[A:.*]] = memref.view %[[M]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x80xf32, #gpu.address_space<workgroup>>
// CHECK:           scf.for
// CHECK-NEXT:        %[[OFF:.*]] = arith.constant 40960 : index
// CHECK-NEXT:        %[[B:.*]] = memref.view %[[M]][%[[OFF]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<12385xi8, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.dealloc
// CHECK-LABEL: func.func @within
// The static 48 KiB are left as they are.
// CHECK:         gpu.launch
// CHECK-NOT:       dynamic_shared_memory
// CHECK:           memref.alloc() : memref<12288xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @after_ring
// A launch with dynamic shared memory (a TMA ring's 1000 bytes) keeps it, the buffers
// follow at 1024.
// CHECK:         %[[SIZE:.*]] = arith.constant 50688 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK-NEXT:      %[[M:.*]] = gpu.dynamic_shared_memory
// CHECK:           %[[C:.*]] = arith.constant 1024 : index
// CHECK-NEXT:      memref.view %[[M]][%[[C]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<12288xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.alloc
// CHECK-LABEL: func.func @shared_default_space
// A default-space buffer the threads share (schedir.workgroup_buffer) is static shared
// memory too: with it the launch exceeds 48 KiB, and the workgroup buffer moves.
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size
// CHECK:           memref.alloc() {schedir.workgroup_buffer} : memref<10240xf32>
// CHECK:           memref.view {{.*}} to memref<4096xf32, #gpu.address_space<workgroup>>
// PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__[];
// PTX-NOT: .shared .align {{.*}} .b8 {{.*}}[40960]
func.func @beyond(%x: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<128x80xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%tx] : memref<128xf32>
    memref.store %v, %a[%tx, %c0] : memref<128x80xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c4 step %c1 {
      %b = memref.alloc() : memref<12385xi8, #gpu.address_space<workgroup>>
      %byte = arith.constant 7 : i8
      memref.store %byte, %b[%tx] : memref<12385xi8, #gpu.address_space<workgroup>>
      memref.dealloc %b : memref<12385xi8, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %w = memref.load %a[%tx, %c0] : memref<128x80xf32, #gpu.address_space<workgroup>>
    memref.store %w, %x[%tx] : memref<128xf32>
    gpu.terminator
  }
  return
}
func.func @within(%x: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<12288xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%tx] : memref<128xf32>
    memref.store %v, %a[%tx] : memref<12288xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
func.func @after_ring(%x: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %ring = arith.constant 1000 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %ring {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %a = memref.alloc() : memref<12288xf32, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%tx] : memref<128xf32>
    memref.store %v, %a[%tx] : memref<12288xf32, #gpu.address_space<workgroup>>
    memref.store %v, %b[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
func.func @shared_default_space(%x: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() {schedir.workgroup_buffer} : memref<10240xf32>
    %b = memref.alloc() : memref<4096xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%tx] : memref<128xf32>
    memref.store %v, %a[%tx] : memref<10240xf32>
    memref.store %v, %b[%tx] : memref<4096xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
