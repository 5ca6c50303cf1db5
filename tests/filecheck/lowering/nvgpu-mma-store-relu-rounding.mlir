// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// An `nvgpu.warpgroup.mma.store` epilogue that ends in `arith.maximumf %s, 0.0` and
// `arith.truncf` to f16 (bf16) rounds each pair with the relu fused: one
// `cvt.rn.relu.f16x2.f32` (`llvm.nvvm.ff2f16x2.rn.relu`, the pair's second element first:
// it goes to the upper half) in place of two maxima and two roundings. A max with another
// value than +0.0 stays a max.

// CHECK-LABEL: llvm.func @relu
// CHECK-COUNT-16: llvm.call_intrinsic "llvm.nvvm.ff2f16x2.rn.relu"(%{{.*}}, %{{.*}}) : (f32, f32) -> vector<2xf16>
// CHECK-NOT:     llvm.intr.maximum
// CHECK-NOT:     arith.maximumf
// CHECK:         llvm.return

// CHECK-LABEL: llvm.func @relu_bf16
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ff2bf16x2.rn.relu"(%{{.*}}, %{{.*}}) : (f32, f32) -> vector<2xbf16>
// CHECK:         llvm.return

// CHECK-LABEL: llvm.func @clamp_at_one
// CHECK-NOT:     ff2f16x2.rn.relu
// CHECK:         llvm.intr.maximum
// CHECK:         llvm.return
gpu.module @relu {
  gpu.func @relu(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %out: memref<64x64xf16>) kernel {
    %zero = arith.constant 0.0 : f32
    nvgpu.warpgroup.mma.store %acc, %out epilogue {
    ^bb0(%x: f32, %i: index, %j: index):
      %r = arith.maximumf %x, %zero : f32
      %h = arith.truncf %r : f32 to f16
      linalg.yield %h : f16
    } : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf16>
    gpu.return
  }
  gpu.func @relu_bf16(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %out: memref<64x64xbf16>) kernel {
    %zero = arith.constant 0.0 : f32
    nvgpu.warpgroup.mma.store %acc, %out epilogue {
    ^bb0(%x: f32, %i: index, %j: index):
      %r = arith.maximumf %zero, %x : f32
      %h = arith.truncf %r : f32 to bf16
      linalg.yield %h : bf16
    } : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xbf16>
    gpu.return
  }
  gpu.func @clamp_at_one(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %out: memref<64x64xf16>) kernel {
    %one = arith.constant 1.0 : f32
    nvgpu.warpgroup.mma.store %acc, %out epilogue {
    ^bb0(%x: f32, %i: index, %j: index):
      %r = arith.maximumf %x, %one : f32
      %h = arith.truncf %r : f32 to f16
      linalg.yield %h : f16
    } : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf16>
    gpu.return
  }
}
