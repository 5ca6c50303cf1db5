// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: the swizzle property, subview sources, copies in loops and edge tiles are schedir's generalizations.

// Upstream's case: whole global memrefs copied into shared memory. The descriptors are
// built before the launch (box = the copy's shape); thread 0 issues both loads and arms
// the barrier with all their bytes (64x8 + 8x128 f32 = 6144); every thread waits on
// phase 0.
// CHECK-LABEL: func.func @whole
// CHECK:       %[[UA:.*]] = memref.cast %{{.*}} : memref<64x8xf32> to memref<*xf32>
// CHECK:       %[[DA:.*]] = nvgpu.tma.create.descriptor %[[UA]] box[%{{.*}}, %{{.*}}] : memref<*xf32> -> <tensor = memref<64x8xf32, #gpu.address_space<workgroup>>, swizzle = none
// CHECK:       %[[DB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf32> -> <tensor = memref<8x128xf32, #gpu.address_space<workgroup>>
// CHECK:       gpu.launch
// CHECK:         %[[SA:.*]] = memref.alloc()
// CHECK:         %[[SB:.*]] = memref.alloc()
// CHECK:         %[[BAR:.*]] = nvgpu.mbarrier.create
// CHECK:         %[[C128:.*]] = arith.constant 128 : index
// CHECK:         nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %[[C128]]
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[LEADER:.*]] = arith.cmpi eq, %[[TID]]
// CHECK-NEXT:    scf.if %[[LEADER]] {
// CHECK:           nvgpu.tma.async.load %[[DA]][%{{.*}}, %{{.*}}], %[[BAR]][%{{.*}}] to %[[SA]]
// CHECK:           nvgpu.tma.async.load %[[DB]][%{{.*}}, %{{.*}}], %[[BAR]][%{{.*}}] to %[[SB]]
// CHECK:           %[[TX:.*]] = arith.constant 6144 : index
// CHECK-NEXT:      nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%{{.*}}], %[[TX]]
// CHECK:         } else {
// CHECK-NEXT:      nvgpu.mbarrier.arrive.expect_tx %[[BAR]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[PHASE:.*]] = arith.constant false
// CHECK-NEXT:    %[[TICKS:.*]] = arith.constant 10000000 : index
// CHECK-NEXT:    nvgpu.mbarrier.try_wait.parity %[[BAR]][%{{.*}}], %[[PHASE]], %[[TICKS]]
// CHECK-NOT:     linalg.copy
// CHECK:         gpu.terminator
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @whole(%a: memref<64x8xf32>, %b: memref<8x128xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<64x8xf32, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<8x128xf32, #gpu.address_space<workgroup>>
      linalg.copy ins(%a : memref<64x8xf32>) outs(%sa : memref<64x8xf32, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<8x128xf32>) outs(%sb : memref<8x128xf32, #gpu.address_space<workgroup>>)
      gpu.terminator
    }
    return
  }
}

// -----

// Tiles of a k loop: the descriptors describe the whole operands, the subviews' offsets
// are the coordinates; the barrier is initialized once (with the dynamic block size),
// each iteration syncs the block before thread 0 overwrites the tiles, and waits on the
// parity of its iteration number. swizzle_128b: 64 f16 = 128-byte rows.
// CHECK-LABEL: func.func @k_loop
// CHECK:       %[[DA:.*]] = nvgpu.tma.create.descriptor %{{.*}} : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:       %[[DB:.*]] = nvgpu.tma.create.descriptor
// CHECK:       gpu.launch {{.*}} threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%[[SX:.*]] = %{{.*}}, %[[SY:.*]] = %{{.*}}, %[[SZ:.*]] = %{{.*}})
// CHECK-NEXT:    %[[BAR:.*]] = nvgpu.mbarrier.create
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[XY:.*]] = arith.muli %[[SX]], %[[SY]]
// CHECK-NEXT:    %[[XYZ:.*]] = arith.muli %[[XY]], %[[SZ]]
// CHECK-NEXT:    nvgpu.mbarrier.init %[[BAR]][%[[C0]]], %[[XYZ]]
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[M0:.*]] = arith.muli
// CHECK:         scf.for %[[K:.*]] = %[[LB:.*]] to %{{.*}} step %[[STEP:.*]] {
// CHECK-NOT:       mbarrier.init
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK-NEXT:        nvgpu.tma.async.load %[[DA]][%[[M0]], %[[K]]]
// CHECK:             nvgpu.tma.async.load %[[DB]][%[[K]], %{{.*}}]
// CHECK:             arith.constant 16384 : index
// CHECK:           %[[D:.*]] = arith.subi %[[K]], %[[LB]]
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[D]], %[[STEP]]
// CHECK-NEXT:      %[[BIT:.*]] = arith.andi %[[N]]
// CHECK-NEXT:      %[[ODD:.*]] = arith.cmpi ne, %[[BIT]]
// CHECK:           nvgpu.mbarrier.try_wait.parity %[[BAR]][%{{.*}}], %[[ODD]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @k_loop(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c64 : index
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [64, 64] [1, 1] : memref<256x512xf16> to memref<64x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 64] [1, 1] : memref<512x256xf16> to memref<64x64xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<64x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<64x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x64xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x64xf16, #gpu.address_space<workgroup>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// A copy outside any gpu.launch: the descriptor must be built on the host for a launch.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the copies as TMA loads}}
    transform.nvgpu.rewrite_copy_as_tma %copies : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @host(%a: memref<64x8xf32>, %s: memref<64x8xf32, #gpu.address_space<workgroup>>) {
    // expected-error @below {{'linalg.copy' op target ops must be linalg.copy nested under a common gpu.launch (the TMA descriptors are created on the host)}}
    linalg.copy ins(%a : memref<64x8xf32>) outs(%s : memref<64x8xf32, #gpu.address_space<workgroup>>)
    return
  }
}

// -----

// Rows of 6 f16 (12 bytes): TMA boxes move rows in 16-byte units.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the copies as TMA loads}}
    transform.nvgpu.rewrite_copy_as_tma %copies : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @narrow(%a: memref<64x64xf16>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<64x6xf16, #gpu.address_space<workgroup>>
      %v = memref.subview %a[0, 0] [64, 6] [1, 1] : memref<64x64xf16> to memref<64x6xf16, strided<[64, 1]>>
      // expected-error @below {{'linalg.copy' op box rows of 6 x f16 are not a multiple of 16 bytes}}
      linalg.copy ins(%v : memref<64x6xf16, strided<[64, 1]>>) outs(%s : memref<64x6xf16, #gpu.address_space<workgroup>>)
      gpu.terminator
    }
    return
  }
}

// -----

// A dynamic tile whose size is not the edge of the tensor (min(64, 100 - offset)): a
// whole 64-row box would load rows past the copy that TMA does not zero-fill.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the copies as TMA loads}}
    transform.nvgpu.rewrite_copy_as_tma %copies : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @dynamic(%a: memref<100x64xf16>, %m: index) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %v = memref.subview %a[0, 0] [%m, 64] [1, 1] : memref<100x64xf16> to memref<?x64xf16, strided<[64, 1]>>
      %sv = memref.subview %s[0, 0] [%m, 64] [1, 1] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<?x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      // expected-error @below {{'linalg.copy' op copy of an edge tile (memref<?x64xf16, strided<[64, 1]>> to memref<?x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>): the size of dimension 0 is not min(64, 100 - offset)}}
      linalg.copy ins(%v : memref<?x64xf16, strided<[64, 1]>>) outs(%sv : memref<?x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>)
      gpu.terminator
    }
    return
  }
}

// -----

// Two loops around the copy: the phase would be the linearized iteration number.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the copies as TMA loads}}
    transform.nvgpu.rewrite_copy_as_tma %copies : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @nested(%a: memref<64x64xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      scf.for %i = %c0 to %c4 step %c1 {
        scf.for %j = %c0 to %c4 step %c1 {
          // expected-error @below {{'linalg.copy' op copy nested in 2 scf.for loops inside the gpu.launch (one is supported: the barrier phase is the iteration's parity)}}
          linalg.copy ins(%a : memref<64x64xf16>) outs(%s : memref<64x64xf16, #gpu.address_space<workgroup>>)
        }
      }
      gpu.terminator
    }
    return
  }
}

// -----

// A box row that is not a whole number of swizzle spans: 24 f32 = 96 bytes.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the copies as TMA loads}}
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @ragged(%a: memref<8x24xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<8x24xf32, #gpu.address_space<workgroup>>
      // expected-error @below {{'linalg.copy' op swizzle_128b needs box rows of a multiple of 128 bytes, got 96}}
      linalg.copy ins(%a : memref<8x24xf32>) outs(%s : memref<8x24xf32, #gpu.address_space<workgroup>>)
      gpu.terminator
    }
    return
  }
}

// -----

// Rows wider than the swizzle span (a 64 x 192 f16 tile of B: 384 bytes under 128B
// swizzle) load in column chunks of one span: the descriptor's box is 64 x 64, chunk j
// goes to the j-th 64 x 64 box of the tile (a reinterpret_cast at j x 4096 elements) from
// column offset + 64 j; the barrier expects the bytes of the whole tile.
// CHECK-LABEL: func.func @chunks
// CHECK:       %[[D:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         scf.if
// CHECK:           %[[V0:.*]] = memref.reinterpret_cast %[[S:.*]] to offset: [0], sizes: [64, 64], strides: [64, 1] : memref<64x192xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
// CHECK:           %[[N0:.*]] = arith.addi %[[N:.*]], %{{.*}} : index
// CHECK-NEXT:      nvgpu.tma.async.load %[[D]][%[[K]], %[[N0]]], %{{.*}}[%{{.*}}] to %[[V0]]
// CHECK:           %[[V1:.*]] = memref.reinterpret_cast %[[S]] to offset: [4096], sizes: [64, 64], strides: [64, 1] : {{.*}} to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
// CHECK:           %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[N1:.*]] = arith.addi %[[N]], %[[C64]] : index
// CHECK-NEXT:      nvgpu.tma.async.load %[[D]][%[[K]], %[[N1]]], %{{.*}}[%{{.*}}] to %[[V1]]
// CHECK:           %[[V2:.*]] = memref.reinterpret_cast %[[S]] to offset: [8192]
// CHECK:           %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[N2:.*]] = arith.addi %[[N]], %[[C128]] : index
// CHECK-NEXT:      nvgpu.tma.async.load %[[D]][%[[K]], %[[N2]]], %{{.*}}[%{{.*}}] to %[[V2]]
// CHECK-NEXT:      arith.constant 24576 : index
// CHECK-NOT:       nvgpu.tma.async.load
// CHECK:         nvgpu.mbarrier.try_wait.parity
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @chunks(%b: memref<512x384xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %c512 = arith.constant 512 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<64x192xf16, #gpu.address_space<workgroup>>
      %n0 = arith.muli %bx, %c192 : index
      scf.for %k = %c0 to %c512 step %c64 {
        %vb = memref.subview %b[%k, %n0] [64, 192] [1, 1] : memref<512x384xf16> to memref<64x192xf16, strided<[384, 1], offset: ?>>
        linalg.copy ins(%vb : memref<64x192xf16, strided<[384, 1], offset: ?>>) outs(%s : memref<64x192xf16, #gpu.address_space<workgroup>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{swizzle must be one of none, swizzle_32b, swizzle_64b, swizzle_128b, got "swizzle_16b"}}
    transform.nvgpu.rewrite_copy_as_tma %root {swizzle = "swizzle_16b"} : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// Edge tiles (what tile_using_forall / tile_using_for make of sizes the tiles do not
// divide, after promotion): sizes min(tile, dim - offset) into subviews at 0 of static
// buffers. Each load takes its whole buffer as the box (TMA zero-fills what lies past
// the tensor), through a new subview of the whole buffer that the copy's destination
// becomes a subview of; the barrier expects the whole boxes' bytes (128x64 + 64x64 f16).
// CHECK-LABEL: func.func @edge
// CHECK:       nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK:       nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         %[[WA:.*]] = memref.subview %[[VA:.*]][0, 0] [128, 64] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[EA:.*]] = memref.subview %[[WA]][0, 0] [%{{.*}}, %{{.*}}] [1, 1] : memref<128x64xf16, strided<[?, 1]>, #gpu.address_space<workgroup>> to memref<?x?xf16
// CHECK:         %[[WB:.*]] = memref.subview %{{.*}}[0, 0] [64, 64] [1, 1]
// CHECK:         scf.if
// CHECK-NEXT:      nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[K]]], %{{.*}}[%{{.*}}] to %[[WA]]
// CHECK:           nvgpu.tma.async.load %{{.*}}[%[[K]], %{{.*}}], %{{.*}}[%{{.*}}] to %[[WB]]
// CHECK:           arith.constant 24576 : index
// CHECK:         linalg.fill ins(%{{.*}}) outs(%[[EA]]
// CHECK-NOT:     linalg.copy
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @edge(%a: memref<1000x1016xf16>, %b: memref<1016x40xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1016 = arith.constant 1016 : index
    %one = arith.constant 1.0 : f16
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c8, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %m0 = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%by]
      %ms = affine.min affine_map<()[s0] -> (s0 * -128 + 1000, 128)>()[%by]
      scf.for %k = %c0 to %c1016 step %c64 {
        %ks = affine.min affine_map<(d0) -> (-d0 + 1016, 64)>(%k)
        %va = memref.subview %a[%m0, %k] [%ms, %ks] [1, 1] : memref<1000x1016xf16> to memref<?x?xf16, strided<[1016, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [%ks, 40] [1, 1] : memref<1016x40xf16> to memref<?x40xf16, strided<[40, 1], offset: ?>>
        %ra = memref.alloc() : memref<16384xi8, #gpu.address_space<workgroup>>
        %wa = memref.view %ra[%c0][%c128, %c64] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
        %sa = memref.subview %wa[0, 0] [%ms, %ks] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
        %rb = memref.alloc() : memref<8192xi8, #gpu.address_space<workgroup>>
        %wb = memref.view %rb[%c0][%c64, %c64] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
        %sb = memref.subview %wb[0, 0] [%ks, 40] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<?x40xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
        linalg.copy ins(%va : memref<?x?xf16, strided<[1016, 1], offset: ?>>) outs(%sa : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<?x40xf16, strided<[40, 1], offset: ?>>) outs(%sb : memref<?x40xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
        linalg.fill ins(%one : f16) outs(%sa : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// Rows of the global tensor that are not a multiple of 16 bytes (K = 1012 f16: 2024
// bytes): the copy still becomes a TMA load of the real 128x1012 tensor (the host stages
// it into 16-byte-pitched rows when it builds the descriptor: schedir/gpu/tma.py).
// CHECK-LABEL: func.func @unaligned_rows
// CHECK:       memref.cast %{{.*}} : memref<128x1012xf16> to memref<*xf16>
// CHECK:       nvgpu.tma.create.descriptor
// CHECK:       nvgpu.tma.async.load
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @unaligned_rows(%a: memref<128x1012xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %v = memref.subview %a[0, 0] [128, 64] [1, 1] : memref<128x1012xf16> to memref<128x64xf16, strided<[1012, 1]>>
      linalg.copy ins(%v : memref<128x64xf16, strided<[1012, 1]>>) outs(%s : memref<128x64xf16, #gpu.address_space<workgroup>>)
      gpu.terminator
    }
    return
  }
}
