// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.stage_accumulator_store is schedir's own extension op.

// Two consumers' stores (warp_specialize_tma_ring's roles: warpgroup 0 produces): two
// staging buffers of 64 rows of 64 + 8 f16 after the ring's 196608 bytes (the launch's
// dynamic shared memory grows by 2 x 9216 bytes), consumer w's at (tid / 128 - 1) x 4608
// elements; the store goes through its buffer, its epilogue kept.
// CHECK-LABEL: func.func @consumers
// CHECK:       %[[SIZE:.*]] = arith.constant 215040 : i32
// CHECK-NEXT:  gpu.launch
// CHECK-SAME:    dynamic_shared_memory_size %[[SIZE]]
// CHECK-NEXT:    %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK-NEXT:    %[[AT:.*]] = arith.constant 196608 : index
// CHECK-NEXT:    %[[BUFS:.*]] = memref.view %[[DYN]][%[[AT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<9216xf16, #gpu.address_space<workgroup>>
// CHECK:         nvvm.setmaxregister increase 232
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[WG:.*]] = arith.divui %[[TID]], %[[C128]] : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[MINE:.*]] = arith.subi %[[WG]], %[[FIRST]] : index
// CHECK-NEXT:    %[[ELEMENTS:.*]] = arith.constant 4608 : index
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[MINE]], %[[ELEMENTS]] : index
// CHECK-NEXT:    %[[BUF:.*]] = memref.reinterpret_cast %[[BUFS]] to offset: [%[[START]]], sizes: [64, 64], strides: [72, 1] : memref<9216xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT:    nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} through %[[BUF]] epilogue {
// CHECK:         } : <fragmented = vector<64x256xf32>> to memref<64x256xf16, strided<[1024, 1], offset: ?>> through memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.stage_accumulator_store %s columns = %c
        : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @consumers(%out: memref<1024x1024xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c384 = arith.constant 384 : index
    %size = arith.constant 196608 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c8, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c384, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %size {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %col = affine.apply affine_map<()[s0] -> (s0 * 256)>()[%bx]
      %row = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%by]
      %tile = memref.subview %out[%row, %col] [128, 256] [1, 1] : memref<1024x1024xf16> to memref<128x256xf16, strided<[1024, 1], offset: ?>>
      %tid = gpu.thread_id x
      %c128 = arith.constant 128 : index
      %wg = arith.divui %tid, %c128 : index
      %producer = arith.cmpi eq, %wg, %c0 : index
      scf.if %producer {
        nvvm.setmaxregister decrease 40
      } else {
        nvvm.setmaxregister increase 232
        %consumer = arith.subi %wg, %c1 : index
        %c64 = arith.constant 64 : index
        %row0 = arith.muli %consumer, %c64 : index
        %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>
        %rows = memref.subview %tile[%row0, %c0] [64, 256] [1, 1] : memref<128x256xf16, strided<[1024, 1], offset: ?>> to memref<64x256xf16, strided<[1024, 1], offset: ?>>
        nvgpu.warpgroup.mma.store %acc, %rows epilogue {
        ^bb0(%x: f32, %i: index, %j: index):
          %h = arith.truncf %x : f32 to f16
          linalg.yield %h : f16
        } : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to memref<64x256xf16, strided<[1024, 1], offset: ?>>
      }
      gpu.terminator
    }
    return
  }
}

// -----

// columns = 0 leaves the store as it was.
// CHECK-LABEL: func.func @direct
// CHECK:       dynamic_shared_memory_size %{{.*}} {
// CHECK-NOT:     memref.view
// CHECK:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} : <fragmented = vector<64x64xf32>> to memref<64x64xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.stage_accumulator_store %s columns = %c
        : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @direct(%out: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %size = arith.constant 32768 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %size {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
      nvgpu.warpgroup.mma.store %acc, %out : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf32>
      gpu.terminator
    }
    return
  }
}

// -----

// A chunk that does not divide the accumulator's columns.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 48 : i64 -> !transform.param<i64>
    // expected-error @below {{could not stage the accumulator store through shared memory}}
    transform.schedir.nvgpu.stage_accumulator_store %s columns = %c
        : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @chunk(%out: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %size = arith.constant 32768 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %size {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
      // expected-error @below {{'nvgpu.warpgroup.mma.store' op columns must divide the accumulator's 64 columns in chunks of a multiple of 16 bytes per row (64 rows of them a multiple of 128 pieces of 16 bytes), got 48}}
      nvgpu.warpgroup.mma.store %acc, %out : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf32>
      gpu.terminator
    }
    return
  }
}

// -----

// A destination whose column offset is not provably a multiple of 16 bytes.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 64 : i64 -> !transform.param<i64>
    // expected-error @below {{could not stage the accumulator store through shared memory}}
    transform.schedir.nvgpu.stage_accumulator_store %s columns = %c
        : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @unaligned(%out: memref<64x1024xf16>, %j: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %size = arith.constant 32768 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %size {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
      %v = memref.subview %out[%c0, %j] [64, 64] [1, 1] : memref<64x1024xf16> to memref<64x64xf16, strided<[1024, 1], offset: ?>>
      // expected-error @below {{'nvgpu.warpgroup.mma.store' op the destination's column offsets are not provably multiples of 16 bytes from an aligned buffer (the 16-byte pieces need them)}}
      nvgpu.warpgroup.mma.store %acc, %v : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x64xf16, strided<[1024, 1], offset: ?>>
      gpu.terminator
    }
    return
  }
}
