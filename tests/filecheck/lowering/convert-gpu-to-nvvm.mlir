// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s

// Kernels become llvm.func with nvvm.kernel (and nvvm.maxntid from known_block_size),
// memref arguments their descriptor fields; ids read special registers (i32, sign-extended
// to the index width), a known block size folds gpu.block_dim; barriers and shuffles
// become nvvm ops, math functions libdevice calls (upstream:
// mlir/test/Conversion/GPUToNVVM/gpu-to-nvvm.mlir).
// CHECK-LABEL: gpu.module @k {
// CHECK-DAG:     llvm.func @__nv_expf(f32) -> f32
// CHECK-DAG:     llvm.func @__nv_fast_logf(f32) -> f32
// CHECK-DAG:     llvm.func @__nv_pow(f64, f64) -> f64
// CHECK:         llvm.func @kern(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f64) attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
// CHECK:           %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT:      %{{.*}} = llvm.sext %[[TID]] : i32 to i64
// CHECK:           %[[CTA:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NEXT:      %{{.*}} = llvm.sext %[[CTA]] : i32 to i64
// CHECK:           nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK:           nvvm.read.ptx.sreg.laneid : i32
// CHECK-NOT:       nvvm.read.ptx.sreg.ntid
// CHECK:           llvm.call @__nv_expf(%{{.*}}) : (f32) -> f32
// CHECK:           llvm.call @__nv_fast_logf(%{{.*}}) : (f32) -> f32
// CHECK:           llvm.call @__nv_pow(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK:           %[[MASK:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
// CHECK:           %[[S:.*]] = nvvm.shfl.sync bfly %[[MASK]], %{{.*}}, %{{.*}}, %{{.*}} return_value_and_is_valid : f32 -> !llvm.struct<(f32, i1)>
// CHECK:           llvm.extractvalue %[[S]][0]
// CHECK:           llvm.extractvalue %[[S]][1]
// CHECK:           nvvm.barrier
// CHECK:           llvm.return
gpu.module @k {
  gpu.func @kern(%a: memref<32xf32>, %d: f64) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %tx = gpu.thread_id x
    %by = gpu.block_id y
    %gz = gpu.grid_dim z
    %l = gpu.lane_id
    %bd = gpu.block_dim x
    %i0 = arith.addi %tx, %by : index
    %i1 = arith.addi %i0, %gz : index
    %i2 = arith.addi %i1, %l : index
    %i = arith.remui %i2, %bd : index
    %v = memref.load %a[%i] : memref<32xf32>
    %e = math.exp %v : f32
    %g = math.log %e fastmath<afn> : f32
    %p = math.powf %d, %d : f64
    %pf = arith.truncf %p : f64 to f32
    %o = arith.constant 1 : i32
    %w = arith.constant 32 : i32
    %r, %ok = gpu.shuffle xor %g, %o, %w : f32
    %z = arith.constant 0.0 : f32
    %rv = arith.select %ok, %r, %z : f32
    %sum = arith.addf %rv, %pf : f32
    gpu.barrier
    memref.store %sum, %a[%tx] : memref<32xf32>
    gpu.return
  }
}

// -----

// Shared memory: a workgroup attribution and a workgroup-space allocation become
// addrspace(3) globals; a default-space buffer the block's threads share (marked by
// map_nested_forall_to_threads) is one too, seen through a generic pointer; a
// per-thread allocation is an alloca, sized from the static bound of its dynamic size.
// CHECK-LABEL: gpu.module @smem {
// CHECK-DAG:     llvm.mlir.global private @__wg_kern_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x f32>
// CHECK-DAG:     llvm.mlir.global private @__wg_kern_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK-DAG:     llvm.mlir.global private @__wg_kern_2() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8 x f32>
// CHECK:         llvm.func @kern(
// CHECK:           llvm.mlir.addressof @__wg_kern_0 : !llvm.ptr<3>
// CHECK:           llvm.mlir.addressof @__wg_kern_1 : !llvm.ptr<3>
// CHECK:           llvm.mlir.addressof @__wg_kern_2 : !llvm.ptr<3>
// CHECK:           llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr
// CHECK:           llvm.alloca %{{.*}} x i8 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NOT:       llvm.call @malloc
// CHECK-NOT:       llvm.call @free
gpu.module @smem {
  gpu.func @kern(%a: memref<64xf32>, %n: index) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %b = memref.alloc() {schedir.workgroup_buffer} : memref<8xf32>
    %size = affine.min affine_map<(d0) -> (d0, 4)>(%n)
    %p = memref.alloc(%size) : memref<?xf32>
    %v = memref.load %a[%c0] : memref<64xf32>
    memref.store %v, %w[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %s[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %b[%c0] : memref<8xf32>
    memref.store %v, %p[%c0] : memref<?xf32>
    memref.dealloc %p : memref<?xf32>
    gpu.return
  }
}
