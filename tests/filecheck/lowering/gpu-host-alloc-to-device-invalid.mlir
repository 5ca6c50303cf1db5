// RUN: schedir-opt %s -p gpu-host-alloc-to-device --split-input-file --verify-diagnostics

module attributes {gpu.container_module} {
  func.func @host_store(%a: memref<16xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    // expected-error @below {{gpu-host-alloc-to-device: 'memref.store' accesses buffer contents in host code, where buffers are device memory: map it into a kernel (tile_using_forall with #gpu.block mapping, then gpu.map_forall_to_blocks / map_nested_forall_to_threads)}}
    memref.store %v, %a[%c0] : memref<16xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @strided_copy(%a: memref<16x16xf32>, %b: memref<4x4xf32>) {
    %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1]>>
    // expected-error @below {{gpu-host-alloc-to-device: a 'memref.copy' of a strided view on the host is not supported (only contiguous buffers are copied with gpu.memcpy); map the copy into a kernel}}
    memref.copy %s, %b : memref<4x4xf32, strided<[16, 1]>> to memref<4x4xf32>
    return
  }
}

// -----

// A function some call in the module calls may get strided views: its layouts stay
// as declared, and a copy of its argument is not known contiguous.
module attributes {gpu.container_module} {
  func.func @callee(%a: memref<4x4xf32, strided<[?, ?], offset: ?>>, %b: memref<4x4xf32>) {
    // expected-error @below {{gpu-host-alloc-to-device: a 'memref.copy' of a strided view on the host is not supported (only contiguous buffers are copied with gpu.memcpy); map the copy into a kernel}}
    memref.copy %a, %b : memref<4x4xf32, strided<[?, ?], offset: ?>> to memref<4x4xf32>
    return
  }
  func.func @caller(%a: memref<16x16xf32>, %b: memref<4x4xf32>) {
    %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1]>>
    %d = memref.cast %s : memref<4x4xf32, strided<[16, 1]>> to memref<4x4xf32, strided<[?, ?], offset: ?>>
    func.call @callee(%d, %b) : (memref<4x4xf32, strided<[?, ?], offset: ?>>, memref<4x4xf32>) -> ()
    return
  }
}

// -----

// A private function is no entry: the host ABI does not stand behind its arguments.
module attributes {gpu.container_module} {
  func.func private @private_copy(%a: memref<8xf32, strided<[?], offset: ?>>, %b: memref<8xf32>) {
    // expected-error @below {{gpu-host-alloc-to-device: a 'memref.copy' of a strided view on the host is not supported (only contiguous buffers are copied with gpu.memcpy); map the copy into a kernel}}
    memref.copy %a, %b : memref<8xf32, strided<[?], offset: ?>> to memref<8xf32>
    return
  }
}
