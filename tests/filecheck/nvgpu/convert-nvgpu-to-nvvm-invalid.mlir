// RUN: schedir-opt %s -p convert-gpu-to-nvvm --split-input-file --verify-diagnostics

// What the nvgpu lowering does not handle yet is a diagnostic at the op, never wrong code.

!d = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
gpu.module @k {
  gpu.func @k(%a: !d, %b: !d, %c: !acc) kernel {
    // expected-error @below {{convert-gpu-to-nvvm: 'nvgpu.warpgroup.mma' is not supported: transposed wgmma operands are not lowered yet}}
    %d = nvgpu.warpgroup.mma %a, %b, %c transposeB : !d, !d, !acc -> !acc
    gpu.return
  }
}

// -----

!a = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!b = !nvgpu.warpgroup.descriptor<tensor = memref<128x128xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
gpu.module @k {
  gpu.func @k(%a: !a, %b: !b, %c: !acc) kernel {
    // expected-error @below {{wgmma is lowered for f32 += f16/bf16 tiles (A: Mx64 with M a multiple of 64, B: KxN with N a multiple of 64 up to 256) only, not memref<64x128xf16, 3 : i64> x memref<128x128xf16, 3 : i64>}}
    %d = nvgpu.warpgroup.mma %a, %b, %c : !a, !b, !acc -> !acc
    gpu.return
  }
}

// -----

!d = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf16>>
gpu.module @k {
  gpu.func @k(%a: !d, %b: !d, %c: !acc) kernel {
    // expected-error @below {{wgmma is lowered for f32 += f16/bf16 tiles}}
    %d = nvgpu.warpgroup.mma %a, %b, %c : !d, !d, !acc -> !acc
    gpu.return
  }
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf32, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
gpu.module @k {
  gpu.func @k(%t: !tmap) kernel {
    %s = memref.alloc() : memref<64x32xf32, 3>
    // expected-error @below {{wgmma descriptors of tiles with rows of a multiple of 128 bytes of f16/bf16, loaded in boxes of 128-byte rows, only, not memref<64x32xf32, 3 : i64> from boxes memref<64x32xf32, 3 : i64>}}
    %d = nvgpu.warpgroup.generate.descriptor %s, %t : memref<64x32xf32, 3>, !tmap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf32, 3>>
    gpu.return
  }
}

// -----

// A 64 x 128 tile from boxes of 32 rows: not the layout of column chunks of the tile's
// rows that the descriptor describes.
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<32x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
gpu.module @k {
  gpu.func @k(%t: !tmap) kernel {
    %s = memref.alloc() : memref<64x128xf16, 3>
    // expected-error @below {{loaded in boxes of 128-byte rows, only, not memref<64x128xf16, 3 : i64> from boxes memref<32x64xf16, 3 : i64>}}
    %d = nvgpu.warpgroup.generate.descriptor %s, %t : memref<64x128xf16, 3>, !tmap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
    gpu.return
  }
}

// -----

!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
gpu.module @k {
  gpu.func @k(%t: !tmap, %i: index, %p: i1) kernel {
    %s = memref.alloc() : memref<64x64xf16, 3>
    %b = nvgpu.mbarrier.create -> !bar
    // expected-error @below {{'nvgpu.tma.async.load' is not supported: a predicated TMA load is not lowered yet}}
    nvgpu.tma.async.load %t[%i, %i], %b[%i] to %s, predicate = %p : !tmap, !bar -> memref<64x64xf16, 3>
    gpu.return
  }
}

// -----

// bf16 mma.sync accumulates in f32 only (PTX has no bf16 accumulator form).
gpu.module @k {
  gpu.func @k(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xbf16>) kernel {
    // expected-error @below {{convert-gpu-to-nvvm: 'nvgpu.mma.sync' is not supported: mma.sync m16n8k16 on bf16 with bf16 accumulators has no PTX instruction (f16 m16n8k16 with f16/f32, bf16 m16n8k16 with f32, tf32 m16n8k8/m16n8k4, i8 m16n8k32 with i32, f64 m8n8k4)}}
    %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xbf16>) -> vector<2x2xbf16>
    gpu.return
  }
}

// -----

// f32 operands without tf32Enabled: no f32 mma.sync shape exists.
gpu.module @k {
  gpu.func @k(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>) kernel {
    // expected-error @below {{convert-gpu-to-nvvm: 'nvgpu.mma.sync' is not supported: mma.sync m16n8k8 on f32 with f32 accumulators has no PTX instruction}}
    %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 8] : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.return
  }
}

// -----

// One 128-byte column chunk: rows of the box must be whole 8-row swizzle atoms.
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
gpu.module @k {
  gpu.func @k(%t: !tmap) kernel {
    %s = memref.alloc() : memref<12x64xf16, 3>
    // expected-error @below {{loaded in boxes of 128-byte rows, only, not memref<12x64xf16, 3 : i64> from boxes memref<128x64xf16, 3 : i64>}}
    %d = nvgpu.warpgroup.generate.descriptor %s, %t : memref<12x64xf16, 3>, !tmap -> !nvgpu.warpgroup.descriptor<tensor = memref<12x64xf16, 3>>
    gpu.return
  }
}

// -----

// One 128-byte column chunk of more rows than the box loads.
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
gpu.module @k {
  gpu.func @k(%t: !tmap) kernel {
    %s = memref.alloc() : memref<128x64xf16, 3>
    // expected-error @below {{loaded in boxes of 128-byte rows, only, not memref<128x64xf16, 3 : i64> from boxes memref<64x64xf16, 3 : i64>}}
    %d = nvgpu.warpgroup.generate.descriptor %s, %t : memref<128x64xf16, 3>, !tmap -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
    gpu.return
  }
}
