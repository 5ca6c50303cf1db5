// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.persistent_tiles is schedir's own extension op.

// 3 x 10 tiles on min(30, 4) blocks: the grid becomes (min(gx * gy, 4), 1, 1); the tile
// offsets are cloned into each role's tile loop (after its setmaxregister, inside the
// producer's thread-0 branch), from the tile (x', y') of the grouped order, right before
// the first op that reads them; the k loop's step index counts on from n * steps (n: the
// tile loop's iteration, first).
// CHECK-LABEL: func.func @roles
// CHECK:       %[[T:.*]] = arith.muli %[[GX:.*]], %[[GY:.*]] : index
// CHECK-NEXT:  %[[N:.*]] = arith.constant 4 : index
// CHECK-NEXT:  %[[B:.*]] = arith.minui %[[T]], %[[N]] : index
// CHECK-NEXT:  %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:  gpu.launch blocks({{.*}}) in (%{{.*}} = %[[B]], %{{.*}} = %[[ONE]], %{{.*}} = %{{.*}}) threads
// CHECK-NOT:     arith.muli
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK-NEXT:      nvvm.setmaxregister decrease 40
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT:        %[[G:.*]] = gpu.grid_dim x
// CHECK-NEXT:        scf.for %[[TILE:.*]] = %[[BX]] to %[[T]] step %[[G]] {
// CHECK-NEXT:          %[[D:.*]] = arith.subi %[[TILE]], %[[BX]] : index
// CHECK-NEXT:          %[[ITER:.*]] = arith.divui %[[D]], %[[G]] : index
// CHECK:               %[[Y:.*]] = arith.addi
// CHECK-NEXT:          %[[X:.*]] = arith.divui
// CHECK-NEXT:          %[[ROW:.*]] = arith.muli %[[Y]], %{{.*}} : index
// CHECK:               %[[BASE:.*]] = arith.muli %[[ITER]], %{{.*}} : index
// CHECK-NEXT:          scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:            %[[KD:.*]] = arith.subi %[[K]], %{{.*}} : index
// CHECK-NEXT:            %[[I:.*]] = arith.divui %[[KD]], %{{.*}} : index
// CHECK-NEXT:            %[[GI:.*]] = arith.addi %[[I]], %[[BASE]] : index
// CHECK-NEXT:            %[[S:.*]] = arith.remui %[[GI]], %{{.*}} : index
// CHECK-NEXT:            nvgpu.mbarrier.arrive %{{.*}}[%[[S]]]
// CHECK-NEXT:            memref.store %[[GI]], %{{.*}}[%[[ROW]], %[[X]]]
// CHECK:         } else {
// CHECK-NEXT:      nvvm.setmaxregister increase 232
// CHECK-NEXT:      gpu.block_id x
// CHECK-NEXT:      gpu.grid_dim x
// CHECK-NEXT:      scf.for
// CHECK:           gpu.terminator
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 4 : i64 -> !transform.param<i64>
    %g = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.persistent_tiles %l ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @roles(%out: memref<?x?xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c10 = arith.constant 10 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c320 = arith.constant 320 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c10, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %bars = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
      %row = arith.muli %by, %c128 : index
      gpu.barrier
      %tid = gpu.thread_id x
      %wg = arith.divui %tid, %c128 : index
      %producer = arith.cmpi eq, %wg, %c0 : index
      %lead = arith.cmpi eq, %tid, %c0 : index
      scf.if %producer {
        nvvm.setmaxregister decrease 40
        scf.if %lead {
          scf.for %k = %c0 to %c320 step %c64 {
            %d = arith.subi %k, %c0 : index
            %i = arith.divui %d, %c64 : index
            %s = arith.remui %i, %c3 : index
            %t = nvgpu.mbarrier.arrive %bars[%s] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4> -> !nvgpu.mbarrier.token
            memref.store %i, %out[%row, %bx] : memref<?x?xindex>
          }
        }
      } else {
        nvvm.setmaxregister increase 232
        memref.store %row, %out[%row, %bx] : memref<?x?xindex>
      }
      gpu.terminator
    }
    return
  }
}

// -----

// ctas = 0: a block per tile, in raster groups (raster_blocks).
// CHECK-LABEL: func.func @not_persistent
// CHECK:       gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GX:[a-z0-9_]+]], %{{.*}} = %[[GY:[a-z0-9_]+]],
// CHECK-NEXT:    gpu.block_id x
// CHECK-NEXT:    gpu.block_id y
// CHECK-NEXT:    gpu.grid_dim x
// CHECK-NOT:     scf.for
// CHECK:         gpu.terminator
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 0 : i64 -> !transform.param<i64>
    %g = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.persistent_tiles %l ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @not_persistent(%out: memref<?xindex>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c3, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      memref.store %bx, %out[%by] : memref<?xindex>
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 132 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{could not make the tile loop persistent}}
    transform.schedir.nvgpu.persistent_tiles %l ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @grid_z(%out: memref<?xindex>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @below {{'gpu.launch' op the gpu.launch's grid must have one block along z}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c2)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      memref.store %bx, %out[%bz] : memref<?xindex>
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 132 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{could not make the tile loop persistent}}
    transform.schedir.nvgpu.persistent_tiles %l ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @ring_without_a_step_index(%out: memref<?xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %bars = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
      gpu.barrier
      // expected-error @below {{'scf.for' op the loop synchronizes on mbarriers without counting its steps as (iv - lb) / step}}
      scf.for %k = %c0 to %c4 step %c1 {
        %t = nvgpu.mbarrier.arrive %bars[%k] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4> -> !nvgpu.mbarrier.token
        memref.store %k, %out[%bx] : memref<?xindex>
      }
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 132 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{could not make the tile loop persistent}}
    transform.schedir.nvgpu.persistent_tiles %l ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @effect_before_the_barrier(%out: memref<?xindex>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      // expected-error @below {{'memref.store' op an op before the block barrier depends on the block ids and is not pure index arithmetic}}
      memref.store %bx, %out[%bx] : memref<?xindex>
      gpu.barrier
      memref.store %bx, %out[%by] : memref<?xindex>
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 132 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{could not make the tile loop persistent}}
    transform.schedir.nvgpu.persistent_tiles %l ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @nested_block_id(%out: memref<?xindex>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.for %i = %c1 to %c4 step %c1 {
        // expected-error @below {{'gpu.block_id' op a gpu.block_id is read in a nested region}}
        %x = gpu.block_id x
        memref.store %x, %out[%i] : memref<?xindex>
      }
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 65537 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{could not make the tile loop persistent}}
    transform.schedir.nvgpu.persistent_tiles %l ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @too_many(%out: memref<?xindex>) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{'gpu.launch' op ctas must be in 0..65536, got 65537}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}

// -----

// Ping-pong consumers (warp_specialize_tma_ring pingpong = 1) on 3 blocks over 2 x 2
// tiles: the producer loads every tile of its block; consumer c (= warpgroup - 1) takes the
// block's tiles c, c + 2, ...: its loop starts at block_id + c * grid_dim and steps by 2 *
// grid_dim, the `scf.if consumer == 0` dissolved around it; n = (t - block_id) / grid_dim
// stays the tile's place in the block's sequence, so the ring's step counts on from
// n * steps for either consumer.
// CHECK-LABEL: func.func @pingpong_tiles
// CHECK:         nvvm.setmaxregister decrease 40
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      %[[PBX:.*]] = gpu.block_id x
// CHECK-NEXT:      %[[PG:.*]] = gpu.grid_dim x
// CHECK-NEXT:      scf.for %{{.*}} = %[[PBX]] to %[[T:.*]] step %[[PG]] {
// CHECK:         } else {
// CHECK-NEXT:      nvvm.setmaxregister increase 232
// CHECK:           %[[C:.*]] = arith.subi
// CHECK-NOT:       scf.if
// CHECK:           %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT:      %[[G:.*]] = gpu.grid_dim x
// CHECK-NEXT:      %[[SKIP:.*]] = arith.muli %[[C]], %[[G]] : index
// CHECK-NEXT:      %[[START:.*]] = arith.addi %[[BX]], %[[SKIP]] : index
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[STEP:.*]] = arith.muli %[[G]], %[[TWO]] : index
// CHECK-NEXT:      scf.for %[[TILE:.*]] = %[[START]] to %[[T]] step %[[STEP]] {
// CHECK-NEXT:        %[[D:.*]] = arith.subi %[[TILE]], %[[BX]] : index
// CHECK-NEXT:        %[[ITER:.*]] = arith.divui %[[D]], %[[G]] : index
// CHECK:             %[[BASE:.*]] = arith.muli %[[ITER]], %{{.*}} : index
// CHECK-NEXT:        scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:          arith.subi
// CHECK-NEXT:          %[[I:.*]] = arith.divui
// CHECK-NEXT:          %[[GI:.*]] = arith.addi %[[I]], %[[BASE]] : index
// CHECK:               nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:             nvgpu.warpgroup.mma.store
// CHECK:             nvgpu.mbarrier.arrive
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.terminator
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    %on = transform.param.constant 1 : i64 -> !transform.param<i64>
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q pingpong = %on
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %launch = transform.get_parent_op %l <{op_name = "gpu.launch"}> : (!transform.any_op) -> !transform.any_op
    %ctas = transform.param.constant 3 : i64 -> !transform.param<i64>
    %g = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.persistent_tiles %launch ctas = %ctas group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @pingpong_tiles(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x128xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %n0 = arith.muli %bx, %c128 : index
      %vc = memref.subview %c[%m0, %n0] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, %n0] [64, 128] [1, 1] : memref<512x256xf16> to memref<64x128xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x128xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x128xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x128xf32, strided<[256, 1], offset: ?>>)
      }
      gpu.terminator
    }
    return
  }
}
