// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// The loads of `nvgpu.warpgroup.mma.store`'s epilogue that do not read the accumulator
// (a bias by column) are issued for the whole tile before its first store: a 64x128
// accumulator's thread holds 32 columns, 16 pairs, so 32 f16 loads (LLVM merges the
// rows' repeats and pairs them later), then the stores through the staging buffer, whose
// chunks only add, take the max and round. A load by row and column (a residual: 64
// values per thread, 128 bytes with f16 but 256 with f32) stays by its store.

// CHECK-LABEL: llvm.func @bias_by_column
// CHECK-COUNT-64: llvm.load %{{.*}} {{.*}}: !llvm.ptr -> f16
// CHECK-NOT:     llvm.load %{{.*}} : !llvm.ptr -> f16
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"
// CHECK-NOT:     !llvm.ptr -> f16
// CHECK:         llvm.fadd
// CHECK-NOT:     !llvm.ptr -> f16
// CHECK:         llvm.return

// CHECK-LABEL: llvm.func @residual_f32
// CHECK:         llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         llvm.fadd
// CHECK:         llvm.store
// CHECK:         llvm.return
gpu.module @epilogue {
  gpu.func @bias_by_column(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %out: memref<64x128xf16, strided<[4096, 1], offset: ?>>, %bias: memref<128xf16, strided<[1], offset: ?>>, %buf: memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %buf epilogue {
    ^bb0(%x: f32, %i: index, %j: index):
      %b = memref.load %bias[%j] : memref<128xf16, strided<[1], offset: ?>>
      %bf = arith.extf %b : f16 to f32
      %s = arith.addf %x, %bf : f32
      %h = arith.truncf %s : f32 to f16
      linalg.yield %h : f16
    } : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16, strided<[4096, 1], offset: ?>> through memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @residual_f32(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %out: memref<64x128xf16, strided<[4096, 1], offset: ?>>, %res: memref<64x128xf32>, %buf: memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>) kernel {
    nvgpu.warpgroup.mma.store %acc, %out through %buf epilogue {
    ^bb0(%x: f32, %i: index, %j: index):
      %r = memref.load %res[%i, %j] : memref<64x128xf32>
      %s = arith.addf %x, %r : f32
      %h = arith.truncf %s : f32 to f16
      linalg.yield %h : f16
    } : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16, strided<[4096, 1], offset: ?>> through memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.return
  }
}
