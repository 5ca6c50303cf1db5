// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// transform.apply_patterns.gpu.eliminate_barriers (upstream: mlir/test/Dialect/GPU/
// barrier-elimination.mlir): a barrier stays only if it orders a conflicting pair of
// accesses (on possibly aliasing memory, at least one a write) between it and the
// neighbouring barriers.

// CHECK-LABEL: func.func @read_after_write_kept
// CHECK:         memref.store
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.load
module attributes {transform.with_named_sequence} {
  func.func @read_after_write_kept(%a: memref<64xf32>, %i: index, %j: index, %v: f32) -> f32 {
    %c1 = arith.constant 1 : index
    %r = memref.alloc() : memref<1xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %s[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %s[%j] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %a[%i] : memref<64xf32>
      gpu.terminator
    }
    return %v : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Only reads around the barrier (the writes after it go to a new allocation, which
// cannot alias the arguments read before): no conflict.
// CHECK-LABEL: func.func @reads_only
// CHECK:         memref.load
// CHECK-NOT:     gpu.barrier
// CHECK:         memref.load
module attributes {transform.with_named_sequence} {
  func.func @reads_only(%a: memref<64xf32>, %b: memref<64xf32>, %i: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %w = memref.alloc() : memref<2xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%i] : memref<64xf32>
      gpu.barrier
      %y = memref.load %b[%i] : memref<64xf32>
      memref.store %x, %w[%c0] : memref<2xf32, #gpu.address_space<workgroup>>
      memref.store %y, %w[%c1] : memref<2xf32, #gpu.address_space<workgroup>>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Accesses to two distinct allocations cannot conflict.
// CHECK-LABEL: func.func @distinct_allocations
// CHECK:         memref.store
// CHECK-NOT:     gpu.barrier
// CHECK:         memref.load
module attributes {transform.with_named_sequence} {
  func.func @distinct_allocations(%i: index, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %s[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %t[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %t[%c1] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Two function arguments may alias: the barrier stays.
// CHECK-LABEL: func.func @arguments_may_alias
// CHECK:         memref.store
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.load
module attributes {transform.with_named_sequence} {
  func.func @arguments_may_alias(%a: memref<64xf32>, %b: memref<64xf32>, %i: index, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      memref.store %v, %a[%i] : memref<64xf32>
      gpu.barrier
      %x = memref.load %b[%i] : memref<64xf32>
      memref.store %x, %b[%c1] : memref<64xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.yield
  }
}

// -----

// In a loop the accesses at the end of one iteration come before the start of the next:
// the write after the barrier conflicts with the read before it, through the back edge.
// CHECK-LABEL: func.func @loop_carried
// CHECK:         scf.for
// CHECK:           memref.load
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      memref.store
module attributes {transform.with_named_sequence} {
  func.func @loop_carried(%i: index, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %s[%i] : memref<64xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        memref.store %x, %s[%k] : memref<64xf32, #gpu.address_space<workgroup>>
      }
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A single-element view of a block buffer at the thread's id is touched by that thread
// alone, so iterations do not conflict through it: the barrier that ends the chunk loop
// moves after the loop, where it orders the loop's writes before the read of all slots.
// CHECK-LABEL: func.func @per_thread_slot
// CHECK:         scf.for
// CHECK-NOT:       gpu.barrier
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.load
module attributes {transform.with_named_sequence} {
  func.func @per_thread_slot(%x: memref<1024xf32>, %out: memref<1xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() {schedir.workgroup_buffer} : memref<256xf32>
      %t = gpu.thread_id x
      %slot = memref.subview %s[%t] [1] [1] : memref<256xf32> to memref<1xf32, strided<[1], offset: ?>>
      scf.for %k = %c0 to %c1024 step %c256 {
        %i = arith.addi %k, %t : index
        %v = memref.load %x[%i] : memref<1024xf32>
        %a = memref.load %slot[%c0] : memref<1xf32, strided<[1], offset: ?>>
        %m = arith.maximumf %a, %v : f32
        memref.store %m, %slot[%c0] : memref<1xf32, strided<[1], offset: ?>>
        gpu.barrier
      }
      %r = memref.load %s[%c0] : memref<256xf32>
      memref.store %r, %out[%c0] : memref<1xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.yield
  }
}
