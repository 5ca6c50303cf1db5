// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.gpu.forward_reads is schedir's own extension op.

// transform.schedir.gpu.forward_reads: in one kernel, a read of memory that nothing in the
// target writes takes the value of an equal read that dominates it, across barriers and
// all-reduces; reads of written memory, of an argument that may alias a written one, and
// in another kernel stay.
// CHECK-LABEL: func.func @passes
// CHECK-SAME:  (%[[X:.*]]: memref<64x8192xf32> {llvm.noalias}, %[[Y:.*]]: memref<64x8192xf32> {llvm.noalias}, %[[S:.*]]: memref<512xf32, 3 : i64> {llvm.noalias}
// CHECK:       gpu.launch
// CHECK:         %[[A:.*]] = vector.transfer_read %[[X]]
// CHECK:         %[[M:.*]] = vector.reduction <maxnumf>, %[[A]]
// CHECK:         memref.store %[[M]], %[[S]]
// CHECK:         gpu.barrier
// CHECK:         %[[L:.*]] = memref.load %[[S]]
// CHECK:         %[[R:.*]] = gpu.all_reduce maxnumf %[[L]]
// CHECK:         gpu.barrier
// CHECK-NOT:     vector.transfer_read %[[X]]
// CHECK:         %[[B:.*]] = vector.broadcast %[[R]]
// CHECK:         %[[D:.*]] = arith.subf %[[A]], %[[B]]
// CHECK:         vector.transfer_write %[[D]], %[[Y]]
// CHECK:         %[[L2:.*]] = memref.load %[[S]]
// CHECK:         gpu.terminator
module attributes {transform.with_named_sequence} {
  func.func @passes(%x: memref<64x8192xf32> {llvm.noalias}, %y: memref<64x8192xf32> {llvm.noalias},
                    %s: memref<512xf32, 3> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %c16 = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c512, %sy = %c1, %sz = %c1) {
      %col = arith.muli %tx, %c16 : index
      %a = vector.transfer_read %x[%bx, %col], %pad {in_bounds = [true]} : memref<64x8192xf32>, vector<16xf32>
      %m = vector.reduction <maxnumf>, %a : vector<16xf32> into f32
      memref.store %m, %s[%tx] : memref<512xf32, 3>
      gpu.barrier
      %l = memref.load %s[%tx] : memref<512xf32, 3>
      %r = gpu.all_reduce maxnumf %l uniform {} : (f32) -> f32
      gpu.barrier
      %b = vector.transfer_read %x[%bx, %col], %pad {in_bounds = [true]} : memref<64x8192xf32>, vector<16xf32>
      %rb = vector.broadcast %r : f32 to vector<16xf32>
      %d = arith.subf %b, %rb : vector<16xf32>
      vector.transfer_write %d, %y[%bx, %col] {in_bounds = [true]} : vector<16xf32>, memref<64x8192xf32>
      // %s is written above: its second load stays.
      %l2 = memref.load %s[%tx] : memref<512xf32, 3>
      memref.store %l2, %s[%c0] : memref<512xf32, 3>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.schedir.gpu.forward_reads in %f : !transform.any_op
    transform.yield
  }
}

// -----

// Two arguments without llvm.noalias (one of them suffices) may be the same buffer: a write to one clobbers the
// other, so the second read stays. Equal reads in two kernels stay too.
// CHECK-LABEL: func.func @may_alias
// CHECK:       memref.load %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK:       memref.store
// CHECK:       memref.load %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK-LABEL: func.func @two_kernels
// CHECK:       gpu.launch
// CHECK:         memref.load
// CHECK:       gpu.launch
// CHECK:         memref.load
module attributes {transform.with_named_sequence} {
  func.func @may_alias(%x: memref<16xf32>, %y: memref<16xf32>, %i: index) -> f32 {
    %a = memref.load %x[%i] : memref<16xf32>
    memref.store %a, %y[%i] : memref<16xf32>
    %b = memref.load %x[%i] : memref<16xf32>
    %s = arith.addf %a, %b : f32
    return %s : f32
  }
  func.func @two_kernels(%x: memref<16xf32>, %y: memref<16xf32> {llvm.noalias}) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %a = memref.load %x[%tx] : memref<16xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %b = memref.load %x[%tx] : memref<16xf32>
      memref.store %b, %y[%tx] : memref<16xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.schedir.gpu.forward_reads in %f : !transform.any_op
    transform.yield
  }
}

// -----

// A read in one branch does not dominate a read after the branch: both stay; the read
// after it and a later equal one are merged. An op of unknown effects (a call) may write
// anything: nothing is forwarded in its function.
// CHECK-LABEL: func.func @branch
// CHECK:       scf.if
// CHECK-NEXT:    memref.load %[[X:[^\[]*]]
// CHECK:       %[[A:.*]] = memref.load %[[X]]
// CHECK-NOT:   memref.load
// CHECK:       arith.addf %[[A]], %[[A]]
// CHECK-LABEL: func.func @unknown
// CHECK:       memref.load
// CHECK:       call @opaque
// CHECK:       memref.load
module attributes {transform.with_named_sequence} {
  func.func @branch(%x: memref<16xf32>, %c: i1, %i: index) -> f32 {
    scf.if %c {
      %u = memref.load %x[%i] : memref<16xf32>
    }
    %a = memref.load %x[%i] : memref<16xf32>
    %b = memref.load %x[%i] : memref<16xf32>
    %s = arith.addf %a, %b : f32
    return %s : f32
  }
  func.func private @opaque(memref<16xf32>)
  func.func @unknown(%x: memref<16xf32>, %i: index) -> f32 {
    %a = memref.load %x[%i] : memref<16xf32>
    func.call @opaque(%x) : (memref<16xf32>) -> ()
    %b = memref.load %x[%i] : memref<16xf32>
    %s = arith.addf %a, %b : f32
    return %s : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.schedir.gpu.forward_reads in %f : !transform.any_op
    transform.yield
  }
}

// -----

// A slot every thread fills with one block-uniform value (a gpu.all_reduce's result, and
// arith of it and constants), then a barrier: a read of one element of the buffer that
// some thread wrote is that value, broadcast to the read's type (any element a thread of
// the 256 wrote: [0, 0], [0, 255]); the writes and the barrier stay.
// CHECK-LABEL: func.func @uniform_slots
// CHECK:         %[[R:.*]] = gpu.all_reduce add
// CHECK:         %[[M:.*]] = arith.maxnumf %[[R]]
// CHECK:         %[[B:.*]] = vector.broadcast %[[M]] : f32 to vector<1x1xf32>
// CHECK:         vector.transfer_write %[[B]], %[[S:.*]][%{{.*}}, %{{.*}}]
// CHECK:         gpu.barrier
// CHECK-NEXT:    %[[A:.*]] = vector.broadcast %[[M]] : f32 to vector<1x4xf32>
// CHECK-NEXT:    %[[E:.*]] = vector.extract %[[A]][0, 3] : f32 from vector<1x4xf32>
// CHECK-NEXT:    %[[F:.*]] = arith.addf %[[E]], %[[M]] : f32
// CHECK-NEXT:    memref.store %[[F]]
module attributes {transform.with_named_sequence} {
  func.func @uniform_slots(%y: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %pad = arith.constant 0.0 : f32
    %nan = arith.constant 0xFFC00000 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<1x256xf32, 3>
      %t = gpu.thread_id x
      %i = arith.index_cast %t : index to i32
      %v = arith.sitofp %i : i32 to f32
      %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %m = arith.maxnumf %r, %nan : f32
      %b = vector.broadcast %m : f32 to vector<1x1xf32>
      vector.transfer_write %b, %s[%c0, %t] {in_bounds = [true, true]} : vector<1x1xf32>, memref<1x256xf32, 3>
      gpu.barrier
      %a = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<1x256xf32, 3>, vector<1x4xf32>
      %e = vector.extract %a[0, 3] : f32 from vector<1x4xf32>
      %l = memref.load %s[%c0, %c255] : memref<1x256xf32, 3>
      %f = arith.addf %e, %l : f32
      memref.store %f, %y[%bx] : memref<64xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.schedir.gpu.forward_reads in %f : !transform.any_op
    transform.yield
  }
}

// -----

// Reads that stay: of an element no thread wrote (column 256 of a block of 256 threads),
// of a thread-dependent value, with no barrier after the write, with another write after
// the barrier, and of a slot written only in some threads (under scf.if).
// CHECK-LABEL: func.func @not_uniform_slots
// CHECK-COUNT-5: memref.load %{{.*}} : memref<1x512xf32, 3 : i64>
module attributes {transform.with_named_sequence} {
  func.func @not_uniform_slots(%y: memref<64x5xf32>, %c: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %one = arith.constant 1.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<1x512xf32, 3>
      %t = gpu.thread_id x
      %i = arith.index_cast %t : index to i32
      %v = arith.sitofp %i : i32 to f32
      %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
      memref.store %r, %s[%c0, %t] : memref<1x512xf32, 3>
      gpu.barrier
      %a = memref.load %s[%c0, %c256] : memref<1x512xf32, 3>
      memref.store %a, %y[%bx, %c0] : memref<64x5xf32>
      gpu.barrier
      memref.store %v, %s[%c0, %t] : memref<1x512xf32, 3>
      gpu.barrier
      %b = memref.load %s[%c0, %c0] : memref<1x512xf32, 3>
      memref.store %b, %y[%bx, %c1] : memref<64x5xf32>
      gpu.barrier
      memref.store %r, %s[%c0, %t] : memref<1x512xf32, 3>
      %d = memref.load %s[%c0, %c0] : memref<1x512xf32, 3>
      memref.store %d, %y[%bx, %c2] : memref<64x5xf32>
      gpu.barrier
      memref.store %r, %s[%c0, %t] : memref<1x512xf32, 3>
      gpu.barrier
      memref.store %one, %s[%c0, %c7] : memref<1x512xf32, 3>
      %e = memref.load %s[%c0, %c0] : memref<1x512xf32, 3>
      memref.store %e, %y[%bx, %c3] : memref<64x5xf32>
      gpu.barrier
      scf.if %c {
        memref.store %r, %s[%c0, %t] : memref<1x512xf32, 3>
      }
      gpu.barrier
      %g = memref.load %s[%c0, %c0] : memref<1x512xf32, 3>
      memref.store %g, %y[%bx, %c4] : memref<64x5xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.schedir.gpu.forward_reads in %f : !transform.any_op
    transform.yield
  }
}

// -----

// The slot written through a view of the buffer (a thread's 1x1 subview at [0, tid], as
// bufferization leaves a forall's slot): the read of [0, 0] is the value.
// CHECK-LABEL: func.func @uniform_slot_views
// CHECK:         %[[R:.*]] = gpu.all_reduce maxnumf
// CHECK:         gpu.barrier
// CHECK-NOT:     vector.transfer_read
// CHECK:         %[[A:.*]] = vector.broadcast %[[R]] : f32 to vector<1xf32>
// CHECK-NEXT:    vector.transfer_write %[[A]], %{{.*}}[%{{.*}}] {in_bounds = [true]} : vector<1xf32>, memref<64xf32>
module attributes {transform.with_named_sequence} {
  func.func @uniform_slot_views(%x: memref<64x256xf32>, %y: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %pad = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c64, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<1x256xf32, 3>
      %t = gpu.thread_id x
      %slot = memref.subview %s[0, %t] [1, 1] [1, 1] : memref<1x256xf32, 3> to memref<1x1xf32, strided<[256, 1], offset: ?>, 3>
      %v = memref.load %x[%bx, %t] : memref<64x256xf32>
      %r = gpu.all_reduce maxnumf %v uniform {} : (f32) -> f32
      %b = vector.broadcast %r : f32 to vector<1x1xf32>
      vector.transfer_write %b, %slot[%c0, %c0] {in_bounds = [true, true]} : vector<1x1xf32>, memref<1x1xf32, strided<[256, 1], offset: ?>, 3>
      gpu.barrier
      %a = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true]} : memref<1x256xf32, 3>, vector<1xf32>
      vector.transfer_write %a, %y[%bx] {in_bounds = [true]} : vector<1xf32>, memref<64xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.schedir.gpu.forward_reads in %f : !transform.any_op
    transform.yield
  }
}
