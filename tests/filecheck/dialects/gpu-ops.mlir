// RUN: %roundtrip | filecheck %s

// The gpu ops in upstream MLIR's custom syntax (mlir/test/Dialect/GPU/ops.mlir): parsed,
// printed, parsed again and printed the same.

// CHECK-LABEL: func.func @launch
// CHECK:         gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %[[BZ:.*]]) in (%[[GX:.*]] = %[[C1:.*]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16:.*]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) {
// CHECK-NEXT:      %{{.*}} = memref.load %{{.*}}[%[[TX]]] : memref<16xf32>
// CHECK:           %{{.*}}, %{{.*}} = gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           %{{.*}} = gpu.lane_id
// CHECK:           %{{.*}} = gpu.block_dim x
// CHECK:           %{{.*}} = gpu.grid_dim y
// CHECK:           %{{.*}} = gpu.block_id z
// CHECK:           %{{.*}} = gpu.thread_id x upper_bound 16
// CHECK:           gpu.barrier
// CHECK:           gpu.terminator
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in ({{.*}}) dynamic_shared_memory_size %{{.*}} workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>) private(%{{.*}} : memref<4xf32, #gpu.address_space<private>>) {
// CHECK:         %[[M:.*]] = gpu.alloc () : memref<16xf32>
// CHECK:         %[[T:.*]] = gpu.wait async
// CHECK:         %{{.*}}, %[[T2:.*]] = gpu.alloc async [%[[T]]] (%{{.*}}) : memref<?xf32>
// CHECK:         gpu.memcpy %[[M]], %{{.*}} : memref<16xf32>, memref<16xf32>
// CHECK:         %[[T3:.*]] = gpu.memcpy async [%[[T2]]] %[[M]], %{{.*}} : memref<16xf32>, memref<16xf32>
// CHECK:         gpu.memset %[[M]], %{{.*}} : memref<16xf32>, f32
// CHECK:         gpu.dealloc %[[M]] : memref<16xf32>
// CHECK:         gpu.wait [%[[T3]]]
module attributes {gpu.container_module} {
  func.func @launch(%a: memref<16xf32>, %n: index, %s: i32, %f: f32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %v = memref.load %a[%tx] : memref<16xf32>
      %o = arith.constant 1 : i32
      %w = arith.constant 16 : i32
      %r, %ok = gpu.shuffle xor %v, %o, %w : f32
      %l = gpu.lane_id
      %d = gpu.block_dim x
      %g = gpu.grid_dim y
      %i = gpu.block_id z
      %t = gpu.thread_id x upper_bound 16
      gpu.barrier
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %s
               workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>)
               private(%pr : memref<4xf32, #gpu.address_space<private>>) {
      gpu.terminator
    }
    %m = gpu.alloc () : memref<16xf32>
    %t = gpu.wait async
    %m2, %t2 = gpu.alloc async [%t] (%n) : memref<?xf32>
    gpu.memcpy %m, %a : memref<16xf32>, memref<16xf32>
    %t3 = gpu.memcpy async [%t2] %m, %a : memref<16xf32>, memref<16xf32>
    gpu.memset %m, %f : memref<16xf32>, f32
    gpu.dealloc %m : memref<16xf32>
    gpu.wait [%t3]
    return
  }

  // CHECK-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
  // CHECK:         gpu.func @kern(%{{.*}}: memref<16xf32>, %[[X:.*]]: f32) workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
  // CHECK:           gpu.printf "x = %f\0A", %[[X]] : f32
  // CHECK:           gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  // CHECK:           gpu.return
  // CHECK:         gpu.func @helper(%[[Y:.*]]: f32) -> f32 {
  // CHECK:           gpu.return %[[Y]] : f32
  gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
    gpu.func @kern(%a: memref<16xf32>, %x: f32) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      gpu.printf "x = %f\n", %x : f32
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @helper(%y: f32) -> f32 {
      gpu.return %y : f32
    }
    gpu.func @no_args() kernel {
      gpu.return
    }
  }

  // CHECK: gpu.binary @compiled [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "PTX">]
  gpu.binary @compiled [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "PTX">]

  // CHECK-LABEL: func.func @launch_func
  // CHECK:         gpu.launch_func @kernels::@kern blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<16xf32>, %{{.*}} : f32)
  // CHECK:         %{{.*}} = gpu.launch_func async [%{{.*}}] @kernels::@kern blocks in ({{.*}}) threads in ({{.*}}) dynamic_shared_memory_size %{{.*}} args(%{{.*}} : memref<16xf32>, %{{.*}} : f32)
  func.func @launch_func(%a: memref<16xf32>, %x: f32, %s: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>, %x : f32)
    %t = gpu.wait async
    %t2 = gpu.launch_func async [%t] @kernels::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %s args(%a : memref<16xf32>, %x : f32)
    return
  }

  // A stream-like async object instead of tokens: after `async` on launch_func, before
  // it on launch (upstream's orders).
  // CHECK-LABEL: func.func @async_object
  // CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@no_args blocks in
  // CHECK:         gpu.launch <%{{.*}} : !llvm.ptr> blocks(
  func.func @async_object(%stream: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    gpu.launch_func <%stream : !llvm.ptr> @kernels::@no_args blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch <%stream : !llvm.ptr> blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}
