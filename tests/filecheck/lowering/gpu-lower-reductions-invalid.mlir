// RUN: schedir-opt %s -p gpu-lower-reductions --split-input-file --verify-diagnostics

// What the shuffle lowering cannot do is an error at the op, never wrong code.

gpu.module @k {
  gpu.func @no_block_size(%v: f32) kernel {
    // expected-error @below {{gpu-lower-reductions: 'gpu.all_reduce' needs the block size: its gpu.func has no known_block_size}}
    %s = gpu.all_reduce add %v {} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @odd_block(%v: f32) kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
    // expected-error @below {{gpu-lower-reductions: 'gpu.all_reduce' in a block of 48 threads (a multiple of 32)}}
    %s = gpu.all_reduce add %v {} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @divergent(%v: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %p = arith.cmpi ult, %t, %c8 : index
    scf.if %p {
      // expected-error @below {{must be reached by every thread of the block, but it is under an scf.if on the thread id}}
      %s = gpu.all_reduce add %v {} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @wide_cluster(%v: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @below {{'gpu.subgroup_reduce' with clusters of 16 lanes 4 apart (more than the 32 lanes of a warp)}}
    %s = gpu.subgroup_reduce add %v cluster(size = 16, stride = 4) : (f32) -> f32
    gpu.return
  }
}
