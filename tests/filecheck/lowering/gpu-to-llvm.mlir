// RUN: schedir-opt %s -p gpu-to-llvm | filecheck %s

// The binary becomes a global holding the PTX (with its NUL); a synchronous launch loads
// the module, looks the kernel up, launches it on a stream with pointers to its
// parameters (the memref's 5 descriptor fields, then the f32) and waits; allocations,
// copies and frees call the runtime (upstream: mlir/test/Conversion/GPUCommon/
// lower-launch-func-to-gpu-runtime-calls.mlir).
// CHECK-DAG:   llvm.mlir.global internal constant @k_binary("PTX TEXT\00") {addr_space = 0 : i32}
// CHECK-DAG:   llvm.mlir.global internal constant @k_kern_name("kern\00") {addr_space = 0 : i32}
// CHECK-DAG:   llvm.func @mgpuModuleLoad(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @mgpuLaunchKernel(!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
// CHECK-DAG:   llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK-NOT:   gpu.binary
// CHECK-LABEL: func.func @host
// CHECK:         %[[STORAGE:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, i64, i64, f32)>
// CHECK:         %[[PARAMS:.*]] = llvm.alloca %{{.*}} x !llvm.array<6 x !llvm.ptr>
// CHECK:         %[[BYTES:.*]] = llvm.mlir.constant(64) : i64
// CHECK:         %[[PTR:.*]] = llvm.call @mgpuMemAlloc(%[[BYTES]], %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK:         llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK:         %[[BLOB:.*]] = llvm.mlir.addressof @k_binary : !llvm.ptr
// CHECK:         %[[MOD:.*]] = llvm.call @mgpuModuleLoad(%[[BLOB]], %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK:         %[[NAME:.*]] = llvm.mlir.addressof @k_kern_name : !llvm.ptr
// CHECK:         %[[FN:.*]] = llvm.call @mgpuModuleGetFunction(%[[MOD]], %[[NAME]]) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
// CHECK:         %[[STREAM:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK-COUNT-12: llvm.store
// CHECK:         llvm.call @mgpuLaunchKernel(%[[FN]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[STREAM]], %[[PARAMS]], %{{.*}}, %{{.*}})
// CHECK:         llvm.call @mgpuStreamSynchronize(%[[STREAM]]) : (!llvm.ptr) -> ()
// CHECK:         llvm.call @mgpuStreamDestroy(%[[STREAM]]) : (!llvm.ptr) -> ()
// CHECK:         llvm.call @mgpuModuleUnload(%[[MOD]]) : (!llvm.ptr) -> ()
// CHECK:         llvm.call @mgpuMemFree(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "PTX TEXT">]
  func.func @host(%a: memref<16xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %b = gpu.alloc () : memref<16xf32>
    gpu.memcpy %b, %a : memref<16xf32>, memref<16xf32>
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%b : memref<16xf32>, %x : f32)
    gpu.dealloc %b : memref<16xf32>
    return
  }
}
