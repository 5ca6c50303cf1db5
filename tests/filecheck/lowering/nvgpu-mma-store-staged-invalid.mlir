// RUN: schedir-opt %s --split-input-file --verify-diagnostics
// The staging buffer of schedir's `nvgpu.warpgroup.mma.store ... through`.

func.func @global_staging(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %m: memref<64x64xf16>, %s: memref<64x64xf16>) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op the staging buffer memref<64x64xf16> is not a workgroup memref}}
  nvgpu.warpgroup.mma.store %d, %m through %s : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf16> through memref<64x64xf16>
  return
}

// -----

func.func @element(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %m: memref<64x64xf16>, %s: memref<64x64xf32, 3>) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op the staging buffer holds f32, the destination f16}}
  nvgpu.warpgroup.mma.store %d, %m through %s : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf16> through memref<64x64xf32, 3>
  return
}

// -----

// 48 columns do not divide the accumulator's 64.
func.func @chunk(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %m: memref<64x64xf16>, %s: memref<64x48xf16, strided<[56, 1]>, #gpu.address_space<workgroup>>) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op the staging buffer memref<64x48xf16, strided<[56, 1]>, #gpu.address_space<workgroup>> must be 64 rows (the accumulator's) of a static chunk of columns dividing 64, rows of a multiple of 16 bytes at a static stride of a multiple of 16 bytes, unit column stride}}
  nvgpu.warpgroup.mma.store %d, %m through %s : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf16> through memref<64x48xf16, strided<[56, 1]>, #gpu.address_space<workgroup>>
  return
}

// -----

// A row stride of 68 f16 (136 bytes) is no multiple of 16 bytes.
func.func @stride(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %m: memref<64x64xf16>, %s: memref<64x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op the staging buffer memref<64x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>> must be 64 rows (the accumulator's) of a static chunk of columns dividing 64, rows of a multiple of 16 bytes at a static stride of a multiple of 16 bytes, unit column stride}}
  nvgpu.warpgroup.mma.store %d, %m through %s : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf16> through memref<64x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>
  return
}
