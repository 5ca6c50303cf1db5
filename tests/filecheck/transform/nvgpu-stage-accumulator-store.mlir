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

// -----

// tma_buffers = 2: a TMA descriptor of the output with the chunk's box (64 x 64 f16,
// 128B-swizzled) before the launch; two unpadded buffers of 64 x 64 per consumer after
// the ring, 1024-byte aligned (the dynamic shared memory grows by 2 x 2 x 8192 bytes);
// the store goes through them to the descriptor at its view's offsets in the output (the
// subviews' offsets summed), and the consumer drains its TMA stores when its role ends.
// CHECK-LABEL: func.func @tma_consumers
// CHECK:       %[[SIZE:.*]] = arith.constant 229376 : i32
// CHECK-NEXT:  %[[U:.*]] = memref.cast %{{.*}} : memref<1024x1024xf16> to memref<*xf16>
// CHECK-NEXT:  %[[R:.*]] = arith.constant 64 : index
// CHECK-NEXT:  %[[C:.*]] = arith.constant 64 : index
// CHECK-NEXT:  %[[DESC:.*]] = nvgpu.tma.create.descriptor %[[U]] box[%[[R]], %[[C]]] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK-NEXT:  gpu.launch
// CHECK-SAME:    dynamic_shared_memory_size %[[SIZE]]
// CHECK-NEXT:    %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK-NEXT:    %[[AT:.*]] = arith.constant 196608 : index
// CHECK-NEXT:    %[[BUFS:.*]] = memref.view %[[DYN]][%[[AT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[COL:.*]] = affine.apply
// CHECK-NEXT:    %[[ROW:.*]] = affine.apply
// CHECK:         nvvm.setmaxregister increase 232
// CHECK:         %[[ROW0:.*]] = arith.muli
// CHECK:         %[[ELEMENTS:.*]] = arith.constant 8192 : index
// CHECK-NEXT:    %[[START:.*]] = arith.muli %{{.*}}, %[[ELEMENTS]] : index
// CHECK-NEXT:    %[[MINE:.*]] = memref.reinterpret_cast %[[BUFS]] to offset: [%[[START]]], sizes: [2, 64, 64], strides: [4096, 64, 1] : memref<16384xf16, #gpu.address_space<workgroup>> to memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[I:.*]] = arith.addi %[[ROW0]], %[[ROW]] : index
// CHECK-NEXT:    %[[J:.*]] = arith.addi %{{.*}}, %[[COL]] : index
// CHECK-NEXT:    nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} through %[[MINE]] to %[[DESC]][%[[I]], %[[J]]] epilogue {
// CHECK:         } : <fragmented = vector<64x256xf32>> to memref<64x256xf16, strided<[1024, 1], offset: ?>> through memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> to <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 0 read
// CHECK-NEXT:  }
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 64 : i64 -> !transform.param<i64>
    %b = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.stage_accumulator_store %s columns = %c tma_buffers = %b
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @tma_consumers(%out: memref<1024x1024xf16>) {
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

// tma_box_rows = 16: the descriptor's box is a warp's 16 rows by the chunk; the buffers
// are as with the warpgroup's boxes.
// CHECK-LABEL: func.func @tma_warp_boxes
// CHECK:       %[[R:.*]] = arith.constant 16 : index
// CHECK-NEXT:  %[[C:.*]] = arith.constant 64 : index
// CHECK-NEXT:  %[[DESC:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%[[R]], %[[C]]] : memref<*xf16> -> <tensor = memref<16x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} through %{{.*}} to %[[DESC]][%{{.*}}, %{{.*}}] epilogue {
// CHECK:         } : <fragmented = vector<64x256xf32>> to memref<64x256xf16, strided<[1024, 1], offset: ?>> through memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> to <tensor = memref<16x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 0 read
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 64 : i64 -> !transform.param<i64>
    %b = transform.param.constant 2 : i64 -> !transform.param<i64>
    %r = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.stage_accumulator_store %s columns = %c tma_buffers = %b tma_box_rows = %r
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @tma_warp_boxes(%out: memref<1024x1024xf16>) {
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

// Rows of 1028 f16 (2056 bytes, no multiple of 16): no TMA descriptor describes the
// output; the padded buffer and 16-byte stores of tma_buffers = 0.
// CHECK-LABEL: func.func @tma_unaligned_rows
// CHECK-NOT:     nvgpu.tma.create.descriptor
// CHECK:         memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<9216xf16, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} through %{{.*}} epilogue {
// CHECK-NOT:     nvvm.cp.async.bulk.wait_group
// CHECK:         gpu.terminator
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 64 : i64 -> !transform.param<i64>
    %b = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.stage_accumulator_store %s columns = %c tma_buffers = %b
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @tma_unaligned_rows(%out: memref<1024x1028xf16>) {
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
      %tile = memref.subview %out[%row, %col] [128, 256] [1, 1] : memref<1024x1028xf16> to memref<128x256xf16, strided<[1028, 1], offset: ?>>
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
        %rows = memref.subview %tile[%row0, %c0] [64, 256] [1, 1] : memref<128x256xf16, strided<[1028, 1], offset: ?>> to memref<64x256xf16, strided<[1028, 1], offset: ?>>
        nvgpu.warpgroup.mma.store %acc, %rows epilogue {
        ^bb0(%x: f32, %i: index, %j: index):
          %h = arith.truncf %x : f32 to f16
          linalg.yield %h : f16
        } : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to memref<64x256xf16, strided<[1028, 1], offset: ?>>
      }
      gpu.terminator
    }
    return
  }
}


// -----

// TMA chunks are one 128-byte swizzle span: 128 f16 columns are not.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["nvgpu.warpgroup.mma.store"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 128 : i64 -> !transform.param<i64>
    %b = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{could not stage the accumulator store through shared memory}}
    transform.schedir.nvgpu.stage_accumulator_store %s columns = %c tma_buffers = %b
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @tma_chunk(%out: memref<1024x1024xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %size = arith.constant 0 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %size {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>
      %rows = memref.subview %out[0, 0] [64, 256] [1, 1] : memref<1024x1024xf16> to memref<64x256xf16, strided<[1024, 1]>>
      // expected-error @below {{'nvgpu.warpgroup.mma.store' op a TMA store takes chunks of 128 bytes per row (64 columns), a multiple of 2 of them in the accumulator's 256 columns, got 128 columns}}
      nvgpu.warpgroup.mma.store %acc, %rows : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to memref<64x256xf16, strided<[1024, 1]>>
      gpu.terminator
    }
    return
  }
}
