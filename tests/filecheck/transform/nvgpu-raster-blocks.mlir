// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.raster_blocks is schedir's own extension op.

// Groups of 4 rows of blocks: the linear block id p = y * gx + x walks 4 rows column by
// column; the body's block-id arguments and its gpu.block_id x/y read the new ids, z and
// the thread ids are left alone.
// CHECK-LABEL: func.func @grouped
// CHECK:       gpu.launch blocks(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[BZ:[a-z0-9_]+]]) in
// CHECK-NEXT:    %[[X:.*]] = gpu.block_id x
// CHECK-NEXT:    %[[Y:.*]] = gpu.block_id y
// CHECK-NEXT:    %[[GX:.*]] = gpu.grid_dim x
// CHECK-NEXT:    %[[GY:.*]] = gpu.grid_dim y
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %[[Y]], %[[GX]] : index
// CHECK-NEXT:    %[[P:.*]] = arith.addi %[[ROW]], %[[X]] : index
// CHECK-NEXT:    %[[G:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[W:.*]] = arith.muli %[[G]], %[[GX]] : index
// CHECK-NEXT:    %[[GID:.*]] = arith.divui %[[P]], %[[W]] : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.muli %[[GID]], %[[G]] : index
// CHECK-NEXT:    %[[LEFT:.*]] = arith.subi %[[GY]], %[[FIRST]] : index
// CHECK-NEXT:    %[[ROWS:.*]] = arith.minui %[[LEFT]], %[[G]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.remui %[[P]], %[[W]] : index
// CHECK-NEXT:    %[[DY:.*]] = arith.remui %[[IN]], %[[ROWS]] : index
// CHECK-NEXT:    %[[NY:.*]] = arith.addi %[[FIRST]], %[[DY]] : index
// CHECK-NEXT:    %[[NX:.*]] = arith.divui %[[IN]], %[[ROWS]] : index
// CHECK-NEXT:    %[[T:.*]] = gpu.thread_id x
// CHECK-NEXT:    %{{.*}} = arith.addi %[[NX]], %[[NY]] : index
// CHECK-NEXT:    %{{.*}} = arith.muli %[[NY]], %[[BZ]] : index
// CHECK-NEXT:    %{{.*}} = arith.addi %[[NX]], %[[T]] : index
// CHECK-NOT:     gpu.block_id
// CHECK:         gpu.terminator
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.raster_blocks %l group = %g : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @grouped(%out: memref<?xindex>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c10 = arith.constant 10 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c10, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %t = gpu.thread_id x
      %s = arith.addi %bx, %by : index
      %u = arith.muli %by, %bz : index
      %x = gpu.block_id x
      %v = arith.addi %x, %t : index
      memref.store %s, %out[%u] : memref<?xindex>
      memref.store %v, %out[%s] : memref<?xindex>
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{could not reorder the blocks}}
    transform.schedir.nvgpu.raster_blocks %l group = %g : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  func.func @no_group() {
    %c1 = arith.constant 1 : index
    // expected-error @below {{'gpu.launch' op group must be in 1..65536, got 0}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{could not reorder the blocks}}
    transform.schedir.nvgpu.raster_blocks %f group = %g : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
  // expected-error @below {{'func.func' op target is not a gpu.launch}}
  func.func @not_a_launch() {
    return
  }
}
