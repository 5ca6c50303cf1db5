// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.carry_ring_offsets is schedir's own extension op.

// A pipelined loop over a 3-slot ring of 18432-byte slots: the slot offsets of iteration
// i + 2 steps (first slot 2) and of iteration i (first slot 0) become two carried slot
// indices, advanced by one and wrapped at 3, whose products with the slot's bytes the
// body uses (equal constants are left to canonicalization); the apply of a loop-invariant
// symbol stays.
// CHECK-LABEL: func.func @ring
// CHECK-DAG:   %[[TWO:.*]] = arith.constant 2 : index
// CHECK-DAG:   %[[BYTES:.*]] = arith.constant 18432 : index
// CHECK-DAG:   %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:   %[[THREE:.*]] = arith.constant 3 : index
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[T:.*]] = %[[TWO]], %[[S:.*]] = %{{.*}}) -> (f16, index, index) {
// CHECK-NEXT:    %[[OT:.*]] = arith.muli %[[T]], %[[BYTES]] : index
// CHECK-NEXT:    %[[OS:.*]] = arith.muli %[[S]], %{{.*}} : index
// CHECK-NOT:     floordiv 64
// CHECK:         nvgpu.device_async_wait
// CHECK:         memref.view %{{.*}}[%[[OT]]][]
// CHECK:         affine.apply #{{.*}}()[%{{.*}}]
// CHECK:         memref.view %{{.*}}[%[[OS]]][]
// CHECK:         %[[NT:.*]] = arith.addi %[[T]], %[[ONE]] : index
// CHECK-NEXT:    %[[WT:.*]] = arith.cmpi eq, %[[NT]], %[[THREE]] : index
// CHECK-NEXT:    %[[ST:.*]] = arith.select %[[WT]], %{{.*}}, %[[NT]] : index
// CHECK-NEXT:    %[[NS:.*]] = arith.addi %[[S]], %{{.*}} : index
// CHECK-NEXT:    %[[WS:.*]] = arith.cmpi eq, %[[NS]], %{{.*}} : index
// CHECK-NEXT:    %[[SS:.*]] = arith.select %[[WS]], %{{.*}}, %[[NS]] : index
// CHECK-NEXT:    scf.yield %{{.*}}, %[[ST]], %[[SS]] : f16, index, index
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l2 = transform.schedir.nvgpu.carry_ring_offsets failures(propagate) %loop : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @ring(%g: memref<4096xf16>, %t0: !nvgpu.device.async.token, %n: index) -> f16 {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %f = arith.constant 0.0 : f16
    %ring = memref.alloc() : memref<55296xi8, #gpu.address_space<workgroup>>
    %r = scf.for %i = %c0 to %c4096 step %c64 iter_args(%x = %f) -> (f16) {
      %next = arith.addi %i, %c128 : index
      %o2 = affine.apply affine_map<(d0) -> ((d0 floordiv 64) * 18432 - ((d0 floordiv 64) floordiv 3) * 55296)>(%next)
      nvgpu.device_async_wait %t0 numGroups = 1
      gpu.barrier
      %v2 = memref.view %ring[%o2][] : memref<55296xi8, #gpu.address_space<workgroup>> to memref<64xf16, #gpu.address_space<workgroup>>
      %t = nvgpu.device_async_copy %g[%next], %v2[%c0], 8 : memref<4096xf16> to memref<64xf16, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t
      %j = affine.apply affine_map<()[s0] -> (s0 * 8)>()[%n]
      %o = affine.apply affine_map<(d0) -> (((d0 floordiv 64) mod 3) * 18432)>(%i)
      %v = memref.view %ring[%o][] : memref<55296xi8, #gpu.address_space<workgroup>> to memref<64xf16, #gpu.address_space<workgroup>>
      %e = memref.load %v[%j] : memref<64xf16, #gpu.address_space<workgroup>>
      %y = arith.addf %x, %e : f16
      scf.yield %y : f16
    }
    return %r : f16
  }
}

// -----

// A loop that does not wait for asynchronous copies (not pipelined: at partial tiles the
// copies stay synchronous) is a silenceable failure at the loop, reported with
// failures(propagate).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to carry the ring offsets}}
    %l2 = transform.schedir.nvgpu.carry_ring_offsets failures(propagate) %loop : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @not_pipelined(%g: memref<4096xf16>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    %ring = memref.alloc() : memref<384xf16, #gpu.address_space<workgroup>>
    // expected-error @below {{the loop does not wait for asynchronous copies (not pipelined)}}
    scf.for %i = %c0 to %c4096 step %c64 {
      %o = affine.apply affine_map<(d0) -> (((d0 floordiv 64) mod 3) * 64)>(%i)
      %e = memref.load %g[%i] : memref<4096xf16>
      memref.store %e, %ring[%o] : memref<384xf16, #gpu.address_space<workgroup>>
    }
    return
  }
}
