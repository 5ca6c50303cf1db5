// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.rewrite_matmul_as_wgmma is schedir's own extension op.

// The block's matmul over TMA-loaded 128B-swizzled tiles in a k loop: the zero fill of C
// goes, the accumulator starts at zero before the loop, is carried as an iter_arg through
// warpgroup.mma (waitGroup = 0: the next iteration's loads overwrite the tiles) and is
// stored to C after the loop.
// CHECK-LABEL: func.func @k_loop
// CHECK:       %[[DA:.*]] = nvgpu.tma.create.descriptor
// CHECK:       %[[DB:.*]] = nvgpu.tma.create.descriptor
// CHECK:       gpu.launch
// CHECK:         %[[SA:.*]] = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[SB:.*]] = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[VC:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [128, 64] [1, 1]
// CHECK-NOT:     linalg.fill
// CHECK:         %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x64xf32>>
// CHECK-NEXT:    %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>>) {
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK-NEXT:      %[[GA:.*]] = nvgpu.warpgroup.generate.descriptor %[[SA]], %[[DA]]
// CHECK-NEXT:      %[[GB:.*]] = nvgpu.warpgroup.generate.descriptor %[[SB]], %[[DB]]
// CHECK-NEXT:      %[[D:.*]] = nvgpu.warpgroup.mma %[[GA]], %[[GB]], %[[ACC]] waitGroup = 0
// CHECK-NEXT:      scf.yield %[[D]]
// CHECK-NEXT:    }
// CHECK-NEXT:    nvgpu.warpgroup.mma.store %[[R]], %[[VC]]
// CHECK-NOT:     linalg.matmul
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.annotate %w "rewritten" : !transform.any_op
    transform.yield
  }
  func.func @k_loop(%a: memref<256x512xf16>, %b: memref<512x64xf16>, %c: memref<256x64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 64] [1, 1] : memref<256x64xf32> to memref<128x64xf32, strided<[64, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x64xf32, strided<[64, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 64] [1, 1] : memref<512x64xf16> to memref<64x64xf16, strided<[64, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x64xf16, strided<[64, 1], offset: ?>>) outs(%sb : memref<64x64xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x64xf32, strided<[64, 1], offset: ?>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// C keeps its old contents (no zero fill before the loop): the accumulator cannot start
// at zero, so the op fails silenceably with the reason at the matmul.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the matmul as wgmma}}
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @accumulate(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<64x64xf16>) outs(%sa : memref<64x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x64xf16>) outs(%sb : memref<64x64xf16, #gpu.address_space<workgroup>>)
      // expected-error @below {{'linalg.matmul' op C must be initialized to 0 by a linalg.fill right before the matmul's loop (the accumulator starts at zero in registers)}}
      linalg.matmul ins(%sa, %sb : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<64x64xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// Tiles loaded without swizzle: wgmma's matrix descriptors describe 128B-swizzled tiles.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the matmul as wgmma}}
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @unswizzled(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<64x64xf16>) outs(%sa : memref<64x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x64xf16>) outs(%sb : memref<64x64xf16, #gpu.address_space<workgroup>>)
      linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
      // expected-error @below {{'linalg.matmul' op A is loaded with swizzle none (wgmma descriptors need swizzle_128b)}}
      linalg.matmul ins(%sa, %sb : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<64x64xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// Two warpgroups per block: wgmma's accumulator layout is for one.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the matmul as wgmma}}
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @two_warpgroups(%sa: memref<64x64xf16, #gpu.address_space<workgroup>>, %sb: memref<64x64xf16, #gpu.address_space<workgroup>>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      // expected-error @below {{'linalg.matmul' op the gpu.launch must have one warpgroup (128 threads, static)}}
      linalg.matmul ins(%sa, %sb : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<64x64xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// f32 tiles: wgmma here takes 16-bit operands with 128-byte rows.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the matmul as wgmma}}
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @f32(%sa: memref<64x32xf32, #gpu.address_space<workgroup>>, %sb: memref<32x32xf32, #gpu.address_space<workgroup>>, %c: memref<64x32xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      // expected-error @below {{'linalg.matmul' op A memref<64x32xf32, #gpu.address_space<workgroup>> does not have 128-byte rows of a 16-bit type (f16/bf16)}}
      linalg.matmul ins(%sa, %sb : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<32x32xf32, #gpu.address_space<workgroup>>)
                    outs(%c : memref<64x32xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// No loop: one step. The fill before the copies still starts the accumulator (the TMA
// loads and the wait between them do not touch C).
// CHECK-LABEL: func.func @one_step
// CHECK-NOT:     linalg.fill
// CHECK:         nvgpu.mbarrier.try_wait.parity
// CHECK:         %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x64xf32>>
// CHECK:         %[[D:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[INIT]] waitGroup = 0
// CHECK-NEXT:    nvgpu.warpgroup.mma.store %[[D]], %{{.*}} : <fragmented = vector<64x64xf32>> to memref<64x64xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @one_step(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
      linalg.copy ins(%a : memref<64x64xf16>) outs(%sa : memref<64x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x64xf16>) outs(%sb : memref<64x64xf16, #gpu.address_space<workgroup>>)
      linalg.matmul ins(%sa, %sb : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<64x64xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// A 64 x 256 B tile (four 64-column chunks, one TMA load each through one descriptor):
// one m64n256 accumulator.
// CHECK-LABEL: func.func @wide_b
// CHECK:         %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// CHECK:         nvgpu.warpgroup.generate.descriptor %{{.*}}, %{{.*}} : memref<64x256xf16, #gpu.address_space<workgroup>>, <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:         nvgpu.warpgroup.mma
// CHECK-SAME:      -> <fragmented = vector<64x256xf32>>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @wide_b(%a: memref<64x64xf16>, %b: memref<64x256xf16>, %c: memref<64x256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<64x64xf16>) outs(%sa : memref<64x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x256xf16>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
      linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
      linalg.matmul ins(%sa, %sb : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<64x256xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// 128 x 256 accumulators are 256 f32 registers per thread of one warpgroup: rejected
// before anything is rewritten (they would spill or serialize the wgmma).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the matmul as wgmma}}
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @too_many_registers(%a: memref<128x64xf16>, %b: memref<64x256xf16>, %c: memref<128x256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<128x64xf16>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x256xf16>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
      linalg.fill ins(%zero : f32) outs(%c : memref<128x256xf32>)
      // expected-error @below {{'linalg.matmul' op the 128x256 f32 accumulator needs 256 registers per thread of one warpgroup (at most 128: more spill or serialize wgmma)}}
      linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<128x256xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// Shared by three warpgroups, 128 rows do not split into 64 each.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant 3 : i64 -> !transform.param<i64>
    // expected-error @below {{could not rewrite the matmul as wgmma}}
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %g : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @three_warpgroups(%a: memref<128x64xf16>, %b: memref<64x256xf16>, %c: memref<128x256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<128x64xf16>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x256xf16>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
      linalg.fill ins(%zero : f32) outs(%c : memref<128x256xf32>)
      // expected-error @below {{'linalg.matmul' op M = 128 is not a multiple of 192 (64 rows for each of 3 warpgroups)}}
      linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<128x256xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// Shared by four warpgroups, 128 rows do not split into 64 each.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant 4 : i64 -> !transform.param<i64>
    // expected-error @below {{could not rewrite the matmul as wgmma}}
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %g : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @four_warpgroups(%a: memref<128x64xf16>, %b: memref<64x256xf16>, %c: memref<128x256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<128x64xf16>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x256xf16>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
      linalg.fill ins(%zero : f32) outs(%c : memref<128x256xf32>)
      // expected-error @below {{'linalg.matmul' op M = 128 is not a multiple of 256 (64 rows for each of 4 warpgroups)}}
      linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<128x256xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// No warpgroup at all.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{expected warpgroups to be positive, got 0}}
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %g : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @no_warpgroups(%a: memref<128x64xf16>, %b: memref<64x256xf16>, %c: memref<128x256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<128x64xf16>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x256xf16>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
      linalg.fill ins(%zero : f32) outs(%c : memref<128x256xf32>)
      linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<128x256xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// Shared by two warpgroups (warp_specialize_tma_ring's consumers), the 128x256 accumulator
// is 128 registers per thread: rewritten.
// CHECK-LABEL: func.func @two_warpgroups
// CHECK:         nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x256xf32>>
// CHECK:         nvgpu.warpgroup.mma {{.*}} -> <fragmented = vector<128x256xf32>>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %g : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @two_warpgroups(%a: memref<128x64xf16>, %b: memref<64x256xf16>, %c: memref<128x256xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<128x64xf16>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x256xf16>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
      linalg.fill ins(%zero : f32) outs(%c : memref<128x256xf32>)
      linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<128x256xf32>)
      gpu.terminator
    }
    return
  }
}
