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
