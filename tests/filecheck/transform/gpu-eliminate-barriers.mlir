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

// -----

// Chunks of y at the loop's induction variable, at most one step long, are disjoint
// between iterations whatever the thread: the chunk loop's barrier moves after it.
// CHECK-LABEL: func.func @iteration_window
// CHECK:         scf.for
// CHECK-NOT:       gpu.barrier
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.load
module attributes {transform.with_named_sequence} {
  func.func @iteration_window(%x: memref<999xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c999 = arith.constant 999 : index
    %y = memref.alloc() : memref<999xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %t = gpu.thread_id x
      scf.for %k = %c0 to %c999 step %c256 {
        %n = affine.min affine_map<(d0) -> (-d0 + 999, 256)>(%k)
        %chunk = memref.subview %y[%k] [%n] [1] : memref<999xf32> to memref<?xf32, strided<[1], offset: ?>>
        %i = arith.addi %k, %t : index
        %v = memref.load %x[%i] : memref<999xf32>
        memref.store %v, %chunk[%t] : memref<?xf32, strided<[1], offset: ?>>
        gpu.barrier
      }
      %r = memref.load %y[%c0] : memref<999xf32>
      memref.store %r, %x[%c0] : memref<999xf32>
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

// A chunk of up to 512 elements at a step of 256 overlaps the next iteration's: thread 0
// of one iteration may write what thread 256 wrote in the previous one. The barrier stays.
// CHECK-LABEL: func.func @iteration_window_too_long
// CHECK:         scf.for
// CHECK:           memref.store
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:    }
module attributes {transform.with_named_sequence} {
  func.func @iteration_window_too_long(%x: memref<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %y = memref.alloc() : memref<1024xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c512, %sy = %c1, %sz = %c1) {
      %t = gpu.thread_id x
      scf.for %k = %c0 to %c512 step %c256 {
        %chunk = memref.subview %y[%k] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1], offset: ?>>
        %v = memref.load %x[%t] : memref<1024xf32>
        memref.store %v, %chunk[%t] : memref<512xf32, strided<[1], offset: ?>>
        gpu.barrier
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

// tile_using_forall's thread slices of a chunk of partials: offset tid * (n ceildiv 256)
// with n in [1, 256], i.e. tid, and at most one element. Each thread touches its own slot
// (the same one the fill before the loop wrote), so neither barrier is needed.
// CHECK-LABEL: func.func @thread_slice_slot
// CHECK:         linalg.fill
// CHECK-NEXT:    scf.for
// CHECK-NOT:       gpu.barrier
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.load
module attributes {transform.with_named_sequence} {
  func.func @thread_slice_slot(%x: memref<999xf32>, %out: memref<1xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c999 = arith.constant 999 : index
    %z = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() {schedir.workgroup_buffer} : memref<1x256xf32>
      %t = gpu.thread_id x
      %own = memref.subview %s[0, %t] [1, 1] [1, 1] : memref<1x256xf32> to memref<1x1xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%z : f32) outs(%own : memref<1x1xf32, strided<[256, 1], offset: ?>>)
      gpu.barrier
      scf.for %k = %c0 to %c999 step %c256 {
        %n = affine.min affine_map<(d0) -> (-d0 + 999, 256)>(%k)
        %part = memref.subview %s[0, 0] [1, %n] [1, 1] : memref<1x256xf32> to memref<1x?xf32, strided<[256, 1]>>
        %per = affine.apply affine_map<(d0) -> (d0 ceildiv 256)>(%n)
        %o = arith.muli %t, %per : index
        %m = affine.min affine_map<(d0, d1) -> (d0 - d1, d0 ceildiv 256)>(%n, %o)
        %size = affine.max affine_map<(d0) -> (0, d0)>(%m)
        %slot = memref.subview %part[0, %o] [1, %size] [1, 1] : memref<1x?xf32, strided<[256, 1]>> to memref<1x?xf32, strided<[256, 1], offset: ?>>
        %i = arith.addi %k, %t : index
        %v = memref.load %x[%i] : memref<999xf32>
        %a = memref.load %slot[%c0, %c0] : memref<1x?xf32, strided<[256, 1], offset: ?>>
        %r = arith.addf %a, %v : f32
        memref.store %r, %slot[%c0, %c0] : memref<1x?xf32, strided<[256, 1], offset: ?>>
        gpu.barrier
      }
      %r = memref.load %s[%c0, %c1] : memref<1x256xf32>
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

// -----

// The same slices with a per-thread extent that is not known to be 1 (%per from outside):
// thread 1's slice [%per, 2 * %per) may hold thread 0's or overlap another iteration's.
// Both barriers stay.
// CHECK-LABEL: func.func @thread_slice_unknown_extent
// CHECK:         linalg.fill
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    scf.for
// CHECK:           memref.store
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:    }
module attributes {transform.with_named_sequence} {
  func.func @thread_slice_unknown_extent(%x: memref<999xf32>, %per: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c999 = arith.constant 999 : index
    %z = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() {schedir.workgroup_buffer} : memref<1x256xf32>
      %t = gpu.thread_id x
      %own = memref.subview %s[0, %t] [1, 1] [1, 1] : memref<1x256xf32> to memref<1x1xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%z : f32) outs(%own : memref<1x1xf32, strided<[256, 1], offset: ?>>)
      gpu.barrier
      scf.for %k = %c0 to %c999 step %c256 {
        %o = arith.muli %t, %per : index
        %slot = memref.subview %s[0, %o] [1, 1] [1, 1] : memref<1x256xf32> to memref<1x1xf32, strided<[256, 1], offset: ?>>
        %i = arith.addi %k, %t : index
        %v = memref.load %x[%i] : memref<999xf32>
        %a = memref.load %slot[%c0, %c0] : memref<1x1xf32, strided<[256, 1], offset: ?>>
        %r = arith.addf %a, %v : f32
        memref.store %r, %slot[%c0, %c0] : memref<1x1xf32, strided<[256, 1], offset: ?>>
        gpu.barrier
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

// The access's own indices name the thread's slot (the partials of
// tile_reduction_using_forall after vectorization: a store or transfer at [0, tid], one
// element wide along the thread's dimension): no other thread touches it, so the barrier
// between the thread's write and its read goes. A read at [tid, 0] is another thread's
// slot, and a transfer four elements wide along the thread's dimension reaches the next
// threads' slots: both keep their barrier.
// CHECK-LABEL: func.func @access_index_slot
// CHECK:         vector.transfer_write %{{.*}}, %[[S:.*]][%c0, %[[T:.*]]] {{.*}} : vector<1xf32>
// CHECK-NEXT:    memref.load %[[S]][%c0, %[[T]]]
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.load %[[S]][%[[T]], %c0]
// CHECK-NEXT:    vector.transfer_write {{.*}} : vector<4xf32>
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.transfer_read %[[S]][%c0, %[[T]]]
module attributes {transform.with_named_sequence} {
  func.func @access_index_slot(%v: vector<1xf32>, %w: vector<4xf32>, %out: memref<2xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %pad = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() {schedir.workgroup_buffer} : memref<1x260xf32>
      %t = gpu.thread_id x
      vector.transfer_write %v, %s[%c0, %t] {in_bounds = [true]} : vector<1xf32>, memref<1x260xf32>
      gpu.barrier
      %a = memref.load %s[%c0, %t] : memref<1x260xf32>
      memref.store %a, %s[%c0, %t] : memref<1x260xf32>
      gpu.barrier
      %c = memref.load %s[%t, %c0] : memref<1x260xf32>
      vector.transfer_write %w, %s[%c0, %t] {in_bounds = [true]} : vector<4xf32>, memref<1x260xf32>
      gpu.barrier
      %b = vector.transfer_read %s[%c0, %t], %pad {in_bounds = [true]} : memref<1x260xf32>, vector<1xf32>
      %e = vector.extract %b[0] : f32 from vector<1xf32>
      %r = arith.addf %c, %e : f32
      memref.store %r, %out[%c0] : memref<2xf32>
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

// A gpu.all_reduce of a block of more than one warp synchronizes the block (its lowering
// exchanges the warp results behind a barrier): the shared store before it and the load
// after it are ordered by it, so the barrier before it goes. With one warp (32 threads)
// the all-reduce is shuffles only, and the barrier stays. A dealloc of a shared buffer
// frees nothing (the buffer becomes a static shared array), so a barrier before the
// kernel's end with only such deallocs after it goes too.
// CHECK-LABEL: func.func @all_reduce_synchronizes
// CHECK:         memref.store %{{.*}}, %[[S:.*]][%{{.*}}] : memref<256xf32>
// CHECK-NEXT:    gpu.all_reduce add
// CHECK:         memref.load %[[S]]
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    memref.dealloc
// CHECK-NEXT:    gpu.terminator
// CHECK:         memref.store %{{.*}}, %[[W:.*]][%{{.*}}] : memref<32xf32>
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    gpu.all_reduce add
// CHECK:         memref.load %[[W]]
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.dealloc %{{.*}} : memref<4xf32>
// CHECK-NEXT:    gpu.terminator
module attributes {transform.with_named_sequence} {
  func.func @all_reduce_synchronizes(%x: memref<256xf32>, %out: memref<256xf32>, %g: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() {schedir.workgroup_buffer} : memref<256xf32>
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<256xf32>
      memref.store %v, %s[%t] : memref<256xf32>
      gpu.barrier
      %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %n = arith.subi %c256, %t : index
      %m = arith.subi %n, %c1 : index
      %w = memref.load %s[%m] : memref<256xf32>
      %p = arith.addf %w, %r : f32
      memref.store %p, %out[%t] : memref<256xf32>
      gpu.barrier
      memref.dealloc %s : memref<256xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() {schedir.workgroup_buffer} : memref<32xf32>
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<256xf32>
      memref.store %v, %s[%t] : memref<32xf32>
      gpu.barrier
      %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %n = arith.subi %c32, %t : index
      %m = arith.subi %n, %c1 : index
      %w = memref.load %s[%m] : memref<32xf32>
      %p = arith.addf %w, %r : f32
      memref.store %p, %out[%t] : memref<256xf32>
      gpu.barrier
      memref.dealloc %g : memref<4xf32>
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

// Slots k elements wide: thread t's elements [4t, 4t + 4) (the 4-wide partials of a
// tile_reduction_using_forall over chunks of 4 floats per thread: an offset tid * 4 by
// affine.apply or arith.muli, a vector<4> or a subview of 4 at stride 1 there): no other
// thread touches them, so the barriers between a thread's writes and reads go. A
// vector<8> at 4 tid reaches the next thread's slot, an access at [0, tid] is a slot of
// another width (thread t's element t lies in thread t / 4's slot), and a subview of
// stride 2 leaves [4t, 4t + 4): their barriers stay.
// CHECK-LABEL: func.func @scaled_slot
// CHECK:         vector.transfer_write %{{.*}}, %[[S:.*]][%c0, %[[O:.*]]] {{.*}} : vector<4xf32>
// CHECK-NEXT:    vector.transfer_read %[[S]][%c0, %[[O]]]
// CHECK-NEXT:    vector.transfer_write %{{.*}}, %[[S]][%c0, %[[M:.*]]] {{.*}} : vector<4xf32>
// CHECK-NEXT:    memref.subview %[[S]][0, %[[O]]] [1, 4] [1, 1]
// CHECK-NEXT:    memref.load
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.transfer_write {{.*}} : vector<8xf32>
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.transfer_read %[[S]][%c0, %[[O]]]
// CHECK-NEXT:    memref.store %{{.*}}, %[[S]][%c0, %{{.*}}]
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.transfer_read %[[S]][%c0, %[[O]]]
// CHECK-NEXT:    memref.subview %[[S]][0, %[[O]]] [1, 4] [1, 2]
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.transfer_read %[[S]][%c0, %[[O]]]
module attributes {transform.with_named_sequence} {
  func.func @scaled_slot(%v: vector<4xf32>, %w: vector<8xf32>, %x: f32, %out: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %pad = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() {schedir.workgroup_buffer} : memref<1x2048xf32>
      %t = gpu.thread_id x
      %o = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%t]
      %m = arith.muli %t, %c4 : index
      vector.transfer_write %v, %s[%c0, %o] {in_bounds = [true]} : vector<4xf32>, memref<1x2048xf32>
      gpu.barrier
      %a = vector.transfer_read %s[%c0, %o], %pad {in_bounds = [true]} : memref<1x2048xf32>, vector<4xf32>
      gpu.barrier
      vector.transfer_write %a, %s[%c0, %m] {in_bounds = [true]} : vector<4xf32>, memref<1x2048xf32>
      gpu.barrier
      %p = memref.subview %s[0, %o] [1, 4] [1, 1] : memref<1x2048xf32> to memref<1x4xf32, strided<[2048, 1], offset: ?>>
      %e = memref.load %p[%c0, %c1] : memref<1x4xf32, strided<[2048, 1], offset: ?>>
      gpu.barrier
      vector.transfer_write %w, %s[%c0, %o] {in_bounds = [true]} : vector<8xf32>, memref<1x2048xf32>
      gpu.barrier
      %b = vector.transfer_read %s[%c0, %o], %pad {in_bounds = [true]} : memref<1x2048xf32>, vector<4xf32>
      memref.store %e, %s[%c0, %t] : memref<1x2048xf32>
      gpu.barrier
      %c = vector.transfer_read %s[%c0, %o], %pad {in_bounds = [true]} : memref<1x2048xf32>, vector<4xf32>
      %q = memref.subview %s[0, %o] [1, 4] [1, 2] : memref<1x2048xf32> to memref<1x4xf32, strided<[2048, 2], offset: ?>>
      memref.store %x, %q[%c0, %c1] : memref<1x4xf32, strided<[2048, 2], offset: ?>>
      gpu.barrier
      %d = vector.transfer_read %s[%c0, %o], %pad {in_bounds = [true]} : memref<1x2048xf32>, vector<4xf32>
      %bc = arith.addf %b, %c : vector<4xf32>
      %bcd = arith.addf %bc, %d : vector<4xf32>
      vector.transfer_write %bcd, %out[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
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
