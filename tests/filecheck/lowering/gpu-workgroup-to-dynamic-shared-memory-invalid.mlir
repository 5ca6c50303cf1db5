// RUN: schedir-opt %s -p gpu-workgroup-to-dynamic-shared-memory --split-input-file --verify-diagnostics

// More shared memory than a block may opt in to is an error at the launch.

func.func @too_much() {
  %c1 = arith.constant 1 : index
  // expected-error @below {{gpu-workgroup-to-dynamic-shared-memory: the gpu.launch's shared memory takes 245760 bytes, more than the 232448 bytes a block may have}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<4x128x120xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @dynamic_size(%n: i32) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{gpu-workgroup-to-dynamic-shared-memory: the gpu.launch's shared buffers take more than the 49152 bytes of static shared memory and its dynamic shared memory size is not a constant}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %n {
    %a = memref.alloc() : memref<64x256xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
