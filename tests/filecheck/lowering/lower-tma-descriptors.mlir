// RUN: schedir-opt %s --split-input-file --verify-diagnostics -p lower-tma-descriptors | filecheck %s

// A host descriptor of a 256x512 f16 tensor with 128x64 boxes, 128B swizzle: 13 i64
// fields on the stack (address, rank, the five enum codes, sizes, byte strides, box),
// then the runtime call, whose pointer the launch passes instead of the descriptor.
// CHECK:       func.func private @schedirTensorMapEncodeTiled(i64) -> !llvm.ptr
// CHECK-LABEL: func.func @host
// CHECK-NOT:   nvgpu.tma.create.descriptor
// CHECK-NOT:   memref.cast
// CHECK:       "memref.extract_aligned_pointer_as_index"(%arg0) : (memref<256x512xf16>) -> index
// CHECK:       %[[FIELDS:.*]] = memref.alloca() : memref<13xi64>
// CHECK-COUNT-13: memref.store %{{.*}}, %[[FIELDS]][%{{.*}}] : memref<13xi64>
// CHECK:       %[[P:.*]] = "memref.extract_aligned_pointer_as_index"(%[[FIELDS]]) : (memref<13xi64>) -> index
// CHECK-NEXT:  %[[P64:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK-NEXT:  %[[D:.*]] = call @schedirTensorMapEncodeTiled(%[[P64]]) : (i64) -> !llvm.ptr
// CHECK-NEXT:  gpu.launch_func @k::@k blocks in (%{{.*}}) threads in (%{{.*}}) args(%[[D]] : !llvm.ptr)
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  // (after gpu-module-to-binary, as in the cuda pipeline)
  gpu.binary @k [#gpu.object<#nvvm.target<chip = "sm_90a">, assembly = "PTX TEXT">]
  func.func @host(%arg0: memref<256x512xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %u = memref.cast %arg0 : memref<256x512xf16> to memref<*xf16>
    %d = nvgpu.tma.create.descriptor %u box[%c128, %c64] : memref<*xf16> -> !tmap
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%d : !tmap)
    return
  }
}

// -----

// The descriptor of a value that is not a memref.cast of a ranked memref.
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @unranked(%u: memref<*xf16>) -> !tmap {
  %c64 = arith.constant 64 : index
  // expected-error @below {{lower-tma-descriptors: the descriptor's tensor must be a memref.cast of a ranked memref}}
  %d = nvgpu.tma.create.descriptor %u box[%c64, %c64] : memref<*xf16> -> !tmap
  return %d : !tmap
}
