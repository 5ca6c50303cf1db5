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

// -----

// A TMA store's staging buffers are B boxes: a 2-D buffer is not.
func.func @tma_flat(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %m: memref<64x128xf16>, %s: memref<64x64xf16, 3>, %t: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, %i: index) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op the staging buffers memref<64x64xf16, 3 : i64> of a TMA store must be contiguous buffers of 64 rows (the accumulator's) of f16 by the columns of the descriptor's box memref<64x64xf16, 3 : i64> (128B-swizzled, of those rows or a warp's 16), their chunks dividing the accumulator's 128 columns}}
  nvgpu.warpgroup.mma.store %d, %m through %s to %t[%i, %i] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16> through memref<64x64xf16, 3> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return
}

// -----

// Three buffers of 64 columns do not take the accumulator's 128 in turn.
func.func @tma_turns(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %m: memref<64x128xf16>, %s: memref<3x64x64xf16, 3>, %t: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, %i: index) {
  // expected-error @below {{of a TMA store must be contiguous buffers of 64 rows}}
  nvgpu.warpgroup.mma.store %d, %m through %s to %t[%i, %i] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16> through memref<3x64x64xf16, 3> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return
}

// -----

// Unswizzled boxes: the fragment writes would conflict; only the 128B swizzle is lowered.
func.func @tma_swizzle(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %m: memref<64x128xf16>, %s: memref<2x64x64xf16, 3>, %t: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>, %i: index) {
  // expected-error @below {{of a TMA store must be contiguous buffers of 64 rows}}
  nvgpu.warpgroup.mma.store %d, %m through %s to %t[%i, %i] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16> through memref<2x64x64xf16, 3> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
  return
}

// -----

func.func @tma_coordinates(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %m: memref<64x128xf16>, %s: memref<2x64x64xf16, 3>, %t: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, %i: index) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op a TMA store of the accumulators takes 2 coordinates, got 1}}
  nvgpu.warpgroup.mma.store %d, %m through %s to %t[%i] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16> through memref<2x64x64xf16, 3> to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return
}

// -----

// Boxes of 32 rows are neither a warp's 16 nor the accumulator's 64.
func.func @tma_box_rows(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>, %m: memref<64x128xf16>, %s: memref<2x64x64xf16, 3>, %t: !nvgpu.tensormap.descriptor<tensor = memref<32x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, %i: index) {
  // expected-error @below {{of a TMA store must be contiguous buffers of 64 rows}}
  nvgpu.warpgroup.mma.store %d, %m through %s to %t[%i, %i] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16> through memref<2x64x64xf16, 3> to !nvgpu.tensormap.descriptor<tensor = memref<32x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return
}

// -----

// stmatrix stores 16-bit pairs of a staged store only.
func.func @stmatrix_f32(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %m: memref<64x64xf32>, %s: memref<64x32xf32, strided<[36, 1]>, #gpu.address_space<workgroup>>) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op stmatrix stores a staged store of 16-bit elements only}}
  nvgpu.warpgroup.mma.store %d, %m through %s {stmatrix} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf32> through memref<64x32xf32, strided<[36, 1]>, #gpu.address_space<workgroup>>
  return
}
