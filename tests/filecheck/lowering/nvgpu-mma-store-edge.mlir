// RUN: schedir-opt %s | filecheck %s --check-prefix=ROUNDTRIP
// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// schedir's generalizations of nvgpu.warpgroup.mma.store (upstream takes an f32 memref
// of the accumulator's static shape only, so this file is not in tests/filecheck/nvgpu,
// whose files upstream must read): a destination of dynamic sizes (an edge tile of C)
// and an f16 or bf16 destination (the accumulators rounded).

// ROUNDTRIP-LABEL: gpu.func @store_edge
// ROUNDTRIP:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} : <fragmented = vector<64x64xf32>> to memref<?x?xf16, strided<[?, 1], offset: ?>>
// ROUNDTRIP:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} : <fragmented = vector<64x64xf32>> to memref<64x?xbf16>

// The lowering of the edge store: a destination of dynamic sizes (an edge tile of C) stores
// each thread's pairs of adjacent accumulators with a masked store, a lane enabled only
// inside the sizes (row < rows, column < columns), the address taken at (0, 0) when the
// pair starts outside; an f16 destination takes them rounded (fptrunc).
// CHECK-LABEL: gpu.module @store_edge
// CHECK:         llvm.func @store_edge
// CHECK:           nvvm.read.ptx.sreg.tid.x
// CHECK:           llvm.fptrunc %{{.*}} : f32 to f16
// CHECK:           llvm.icmp "slt" %{{.*}}, %{{.*}} : i64
// CHECK:           llvm.select
// CHECK:           llvm.intr.masked.store(%{{.*}}, %{{.*}}, %{{.*}}), alignment(2) : vector<2xf16>, vector<2xi1> into !llvm.ptr
// CHECK-COUNT-15:  llvm.intr.masked.store
// CHECK-NOT:       llvm.store
// CHECK:         llvm.func @store_bf16
// CHECK:           llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK:           llvm.intr.masked.store(%{{.*}}, %{{.*}}, %{{.*}}), alignment(2) : vector<2xbf16>, vector<2xi1> into !llvm.ptr
gpu.module @store_edge {
  gpu.func @store_edge(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %out: memref<?x?xf16, strided<[?, 1], offset: ?>>) kernel {
    nvgpu.warpgroup.mma.store %acc, %out : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<?x?xf16, strided<[?, 1], offset: ?>>
    gpu.return
  }
  gpu.func @store_bf16(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %out: memref<64x?xbf16>) kernel {
    nvgpu.warpgroup.mma.store %acc, %out : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x?xbf16>
    gpu.return
  }
}
