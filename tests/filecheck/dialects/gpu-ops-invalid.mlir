// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @launch_needs_three_ids(%c1: index) {
  // expected-error @below {{blocks expects 3 arguments, but got 2}}
  gpu.launch blocks(%bx, %by) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

gpu.module @k {
  // expected-error @below {{'gpu.func' op expected void return type for kernel function}}
  gpu.func @kern(%x: f32) -> f32 kernel {
    gpu.return %x : f32
  }
}

// -----

func.func @shuffle_mode(%v: f32, %o: i32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{custom op 'gpu.shuffle' expected string or keyword containing one of the following enum values for attribute 'mode' [xor, up, down, idx]}}
    %r, %ok = gpu.shuffle rotate %v, %o, %o : f32
    gpu.terminator
  }
  return
}

// -----

func.func @launch_func_needs_container_module(%c1: index) {
  // expected-error @below {{'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute}}
  gpu.launch_func @kern::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}

// -----

module attributes {gpu.container_module} {
  func.func @launch_func_needs_kernel(%c1: index) {
    // expected-error @below {{'gpu.launch_func' op kernel container 'kern' is undefined}}
    gpu.launch_func @kern::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kern {
  }
  func.func @launch_func_needs_kernel_function(%c1: index) {
    // expected-error @below {{'gpu.launch_func' op kernel function '@kern::@missing' is undefined}}
    gpu.launch_func @kern::@missing blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

func.func @stream_and_tokens(%c1: index, %stream: !llvm.ptr) {
  %t = gpu.wait async
  // expected-error @below {{'gpu.launch' op stream-based and dependency-based async models are mutually exclusive}}
  %t2 = gpu.launch <%stream : !llvm.ptr> async [%t] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kern {
    gpu.func @kern(%x: f32) kernel {
      gpu.return
    }
  }
  func.func @launch_func_operand_count(%c1: index) {
    // expected-error @below {{'gpu.launch_func' op got 0 kernel operands but expected 1}}
    gpu.launch_func @kern::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kern {
    gpu.func @kern(%x: f32) kernel {
      gpu.return
    }
  }
  func.func @launch_func_operand_type(%c1: index, %y: i32) {
    // expected-error @below {{'gpu.launch_func' op type of function argument 0 does not match}}
    gpu.launch_func @kern::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : i32)
    return
  }
}

// -----

gpu.module @dyn {
  gpu.func @dyn() kernel {
    // expected-error @below {{'gpu.dynamic_shared_memory' op result memref type must be memref<?xi8, #gpu.address_space<workgroup>>}}
    %m = gpu.dynamic_shared_memory : memref<16xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}
