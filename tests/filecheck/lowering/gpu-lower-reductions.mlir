// RUN: schedir-opt %s --split-input-file -p gpu-lower-reductions | filecheck %s
// RUN: schedir-opt %s --split-input-file -p convert-gpu-to-nvvm | filecheck %s --check-prefix=NVVM

// gpu.subgroup_reduce becomes a butterfly of xor shuffles over its cluster (offsets
// stride, 2*stride, ... below size*stride); gpu.all_reduce a full-warp butterfly, lane 0
// of each warp storing to a workgroup buffer of one element per warp, a barrier, every
// lane reading element lane mod W and a butterfly over W lanes, and a barrier before the
// buffer can be reused (only where the op may run again: in a loop). convert-gpu-to-nvvm does the same first, so its output has
// nvvm.shfl.sync bfly and no gpu collective left.

// CHECK-LABEL: gpu.func @cluster
// CHECK:         %[[V:.*]] = memref.load
// CHECK:         %[[O2:.*]] = arith.constant 2 : i32
// CHECK:         %[[W:.*]] = arith.constant 32 : i32
// CHECK:         %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[V]], %[[O2]], %[[W]] : f32
// CHECK:         %[[R1:.*]] = arith.maxnumf %[[V]], %[[S1]] : f32
// CHECK:         %[[O4:.*]] = arith.constant 4 : i32
// CHECK:         %[[S2:.*]], %{{.*}} = gpu.shuffle xor %[[R1]], %[[O4]], %{{.*}} : f32
// CHECK:         %[[R2:.*]] = arith.maxnumf %[[R1]], %[[S2]] : f32
// CHECK-NOT:     gpu.shuffle
// CHECK:         memref.store %[[R2]]
// NVVM-LABEL:  llvm.func @cluster
// NVVM-COUNT-2:  nvvm.shfl.sync bfly
// NVVM-NOT:      gpu.subgroup_reduce
gpu.module @k {
  gpu.func @cluster(%a: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<64xf32>
    %m = gpu.subgroup_reduce maxnumf %v cluster(size = 4, stride = 2) : (f32) -> f32
    memref.store %m, %a[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

// A vector is reduced element by element; a 16-bit element is shuffled as a zero-extended
// i32, a 64-bit one as two i32 halves.
// CHECK-LABEL: gpu.func @vector_f16
// CHECK:         vector.extract %{{.*}}[0] : f16 from vector<2xf16>
// CHECK:         arith.bitcast %{{.*}} : f16 to i16
// CHECK:         arith.extui %{{.*}} : i16 to i32
// CHECK:         gpu.shuffle xor %{{.*}} : i32
// CHECK:         arith.trunci %{{.*}} : i32 to i16
// CHECK:         arith.addf %{{.*}} : f16
// CHECK:         vector.insert %{{.*}} [0] : f16 into vector<2xf16>
// CHECK:         vector.extract %{{.*}}[1] : f16 from vector<2xf16>
// CHECK:         vector.insert %{{.*}} [1] : f16 into vector<2xf16>
// CHECK-LABEL: gpu.func @f64
// CHECK-COUNT-2: gpu.shuffle xor %{{.*}} : i32
// CHECK:         arith.minsi %{{.*}} : i64
gpu.module @k {
  gpu.func @vector_f16(%a: memref<32xvector<2xf16>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<32xvector<2xf16>>
    %s = gpu.subgroup_reduce add %v cluster(size = 2) : (vector<2xf16>) -> vector<2xf16>
    memref.store %s, %a[%t] : memref<32xvector<2xf16>>
    gpu.return
  }
  gpu.func @f64(%a: memref<32xi64>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<32xi64>
    %s = gpu.subgroup_reduce minsi %v cluster(size = 2) : (i64) -> i64
    memref.store %s, %a[%t] : memref<32xi64>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @block
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]]
// CHECK:         %[[WARP:.*]] = arith.divui %[[TID]]
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]]
// CHECK:         scf.if %[[FIRST]] {
// CHECK-NEXT:      memref.store %{{.*}}, %[[BUF]][%[[WARP]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[SLOT:.*]] = arith.remui %[[LANE]]
// CHECK:         memref.load %[[BUF]][%[[SLOT]]]
// CHECK-COUNT-2: gpu.shuffle xor
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.return
// NVVM-LABEL:  llvm.func @block
// NVVM-COUNT-7:  nvvm.shfl.sync bfly
// NVVM-NOT:      gpu.all_reduce
gpu.module @k {
  gpu.func @block(%a: memref<128xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<128xf32>
    %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
    memref.store %s, %a[%t] : memref<128xf32>
    gpu.return
  }
}

// -----

// An all-reduce that may run again (in a loop, or under an scf.if inside one) keeps the
// barrier after its reads: the next execution's stores would overwrite the buffer.
// CHECK-LABEL: gpu.func @in_loop
// CHECK:         scf.for
// CHECK:         gpu.barrier
// CHECK:         memref.load %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-2: gpu.shuffle xor
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    gpu.barrier
// CHECK:         scf.if
// CHECK:         gpu.barrier
// CHECK:         memref.load %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-2: gpu.shuffle xor
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    gpu.barrier
// CHECK:         gpu.return
gpu.module @k {
  gpu.func @in_loop(%a: memref<128xf32>, %n: index, %c: i1) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %a[%t] : memref<128xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
      memref.store %s, %a[%t] : memref<128xf32>
      scf.if %c {
        %w = memref.load %a[%t] : memref<128xf32>
        %r = gpu.all_reduce add %w uniform {} : (f32) -> f32
        memref.store %r, %a[%t] : memref<128xf32>
      }
    }
    gpu.return
  }
}

// -----

// Three warps (not a power of two): each thread combines the three warp results in order;
// the region's combiner is inlined at each step; thread ids of y are linearized.
// CHECK-LABEL: gpu.func @three_warps
// CHECK-COUNT-5: arith.muli %{{.*}} : i32
// CHECK:         gpu.thread_id y
// CHECK:         gpu.barrier
// CHECK:         %[[A:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<3xi32, #gpu.address_space<workgroup>>
// CHECK:         %[[B:.*]] = memref.load
// CHECK:         %[[AB:.*]] = arith.muli %[[A]], %[[B]] : i32
// CHECK:         %[[C:.*]] = memref.load
// CHECK:         arith.muli %[[AB]], %[[C]] : i32
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.return
gpu.module @k {
  gpu.func @three_warps(%a: memref<96xi32>) kernel attributes {known_block_size = array<i32: 32, 3, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<96xi32>
    %s = gpu.all_reduce %v {
    ^bb0(%l: i32, %r: i32):
      %p = arith.muli %l, %r : i32
      gpu.yield %p : i32
    } : (i32) -> i32
    memref.store %s, %a[%t] : memref<96xi32>
    gpu.return
  }
}

// -----

// One warp of 16 threads: a butterfly over 16 lanes, no shared memory.
// CHECK-LABEL: gpu.func @half_warp
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     gpu.barrier
gpu.module @k {
  gpu.func @half_warp(%a: memref<16xf32>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<16xf32>
    %s = gpu.all_reduce maximumf %v {} : (f32) -> f32
    memref.store %s, %a[%t] : memref<16xf32>
    gpu.return
  }
}
