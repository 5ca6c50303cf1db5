// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// RUN: schedir-opt %s -p 'convert-gpu-to-nvvm,nvvm-attach-target{chip=sm_90a features="+ptx83"},gpu-module-to-binary{format=isa}' | filecheck %s --check-prefix=PTX

// gpu.dynamic_shared_memory is the module's external, unsized shared array (declared
// once for both kernels, 1024-byte aligned: what swizzled TMA boxes need); its size is
// the launch's. memref.view places buffers in it.
// CHECK:       llvm.mlir.global external @__dynamic_shmem__() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-NOT:   @__dynamic_shmem__()
// CHECK-LABEL: llvm.func @k
// CHECK:         %[[BASE:.*]] = llvm.mlir.addressof @__dynamic_shmem__ : !llvm.ptr<3>
// CHECK:         llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-LABEL: llvm.func @k2
// CHECK:         llvm.mlir.addressof @__dynamic_shmem__ : !llvm.ptr<3>
// PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__[];
// PTX: st.shared.b32 {{.*}}+1024]
gpu.module @k {
  gpu.func @k(%i: index) kernel {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c1024 = arith.constant 1024 : index
    %v = memref.view %m[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    memref.store %f, %v[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @k2(%i: index) kernel {
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %v = memref.view %m[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 2.0 : f32
    memref.store %f, %v[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
