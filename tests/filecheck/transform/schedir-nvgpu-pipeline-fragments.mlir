// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.pipeline_fragments is schedir's own extension op.

// A pipelined k loop of two k sub-steps (one barrier per iteration, after its wait): the
// wait, the barrier and the first sub-step's ldmatrix of the first iteration move before
// the loop, those of iteration i + 1 into iteration i after its last ldmatrix and before
// its last mma.sync, and the loop carries the fragments to the first mma.sync.
// CHECK-LABEL: func.func @two_sub_steps
// CHECK-SAME:    %[[SH:[^:]*]]: memref<2x16x32xf16, #gpu.address_space<workgroup>>
// CHECK-SAME:    %[[T0:[^:]*]]: !nvgpu.device.async.token
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:   %[[C32:.*]] = arith.constant 32 : index
// CHECK:       nvgpu.device_async_wait %[[T0]] numGroups = 0
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  %[[S0:.*]] = affine.apply #{{.*}}(%[[C0]])
// CHECK-NEXT:  %[[A0:.*]] = nvgpu.ldmatrix %[[SH]][%[[S0]], %[[C0]], %[[C0]]] numTiles = 4 transpose = false
// CHECK-NEXT:  %[[B0:.*]] = nvgpu.ldmatrix %[[SH]][%[[S0]], %[[C0]], %[[C0]]] numTiles = 2 transpose = true
// CHECK-NEXT:  %[[R:.*]], %{{.*}}, %{{.*}} = scf.for %[[I:.*]] = %[[C0]] to %{{.*}} step %[[C32]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %[[A0]], %[[B:.*]] = %[[B0]]) -> (vector<2x2xf32>, vector<4x2xf16>, vector<2x2xf16>) {
// CHECK-NEXT:    %[[S:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK:         nvgpu.device_async_copy
// CHECK-NEXT:    nvgpu.device_async_create_group
// CHECK-NEXT:    %[[M0:.*]] = nvgpu.mma.sync(%[[A]], %[[B]], %[[ACC]])
// CHECK-NEXT:    %[[A1:.*]] = nvgpu.ldmatrix %[[SH]][%[[S]], %[[C0]], %[[C16]]] numTiles = 4
// CHECK-NEXT:    %[[B1:.*]] = nvgpu.ldmatrix %[[SH]][%[[S]], %[[C0]], %[[C16]]] numTiles = 2
// CHECK-NEXT:    nvgpu.device_async_wait %[[T0]] numGroups = 0
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    %[[NI:.*]] = arith.addi %[[I]], %[[C32]] : index
// CHECK-NEXT:    %[[NS:.*]] = affine.apply #{{.*}}(%[[NI]])
// CHECK-NEXT:    %[[NA:.*]] = nvgpu.ldmatrix %[[SH]][%[[NS]], %[[C0]], %[[C0]]] numTiles = 4
// CHECK-NEXT:    %[[NB:.*]] = nvgpu.ldmatrix %[[SH]][%[[NS]], %[[C0]], %[[C0]]] numTiles = 2
// CHECK-NEXT:    %[[M1:.*]] = nvgpu.mma.sync(%[[A1]], %[[B1]], %[[M0]])
// CHECK-NEXT:    scf.yield %[[M1]], %[[NA]], %[[NB]]
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[R]] :
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l2 = transform.schedir.nvgpu.pipeline_fragments failures(propagate) %loop : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @two_sub_steps(%g: memref<64x64xf16>, %sh: memref<2x16x32xf16, #gpu.address_space<workgroup>>, %acc0: vector<2x2xf32>, %t0: !nvgpu.device.async.token) -> vector<2x2xf32> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %r = scf.for %i = %c0 to %c64 step %c32 iter_args(%acc = %acc0) -> (vector<2x2xf32>) {
      %slot = affine.apply affine_map<(d0) -> ((d0 floordiv 32) mod 2)>(%i)
      nvgpu.device_async_wait %t0 numGroups = 0
      gpu.barrier
      %next = arith.addi %i, %c32 : index
      %nslot = affine.apply affine_map<(d0) -> ((d0 floordiv 32) mod 2)>(%next)
      %t = nvgpu.device_async_copy %g[%c0, %next], %sh[%nslot, %c0, %c0], 8 : memref<64x64xf16> to memref<2x16x32xf16, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t
      %a0 = nvgpu.ldmatrix %sh[%slot, %c0, %c0] numTiles = 4 transpose = false : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %b0 = nvgpu.ldmatrix %sh[%slot, %c0, %c0] numTiles = 2 transpose = true : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %m0 = nvgpu.mma.sync(%a0, %b0, %acc) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %a1 = nvgpu.ldmatrix %sh[%slot, %c0, %c16] numTiles = 4 transpose = false : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %b1 = nvgpu.ldmatrix %sh[%slot, %c0, %c16] numTiles = 2 transpose = true : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %m1 = nvgpu.mma.sync(%a1, %b1, %m0) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %m1 : vector<2x2xf32>
    }
    return %r : vector<2x2xf32>
  }
}

// -----

// Double-buffered: the second sub-step's ldmatrix also move before the first sub-step's
// mma.sync (two sub-steps' fragments live at once).
// CHECK-LABEL: func.func @double_buffer
// CHECK:       scf.for
// CHECK:         nvgpu.device_async_create_group
// CHECK-NEXT:    %[[A1:.*]] = nvgpu.ldmatrix %{{.*}} numTiles = 4
// CHECK-NEXT:    %[[B1:.*]] = nvgpu.ldmatrix %{{.*}} numTiles = 2
// CHECK-NEXT:    %[[M0:.*]] = nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:    nvgpu.device_async_wait
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    affine.apply
// CHECK-NEXT:    %[[NA:.*]] = nvgpu.ldmatrix %{{.*}} numTiles = 4
// CHECK-NEXT:    %[[NB:.*]] = nvgpu.ldmatrix %{{.*}} numTiles = 2
// CHECK-NEXT:    %[[M1:.*]] = nvgpu.mma.sync(%[[A1]], %[[B1]], %[[M0]])
// CHECK-NEXT:    scf.yield %[[M1]], %[[NA]], %[[NB]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l2 = transform.schedir.nvgpu.pipeline_fragments failures(propagate) %loop <{double_buffer}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @double_buffer(%g: memref<64x64xf16>, %sh: memref<2x16x32xf16, #gpu.address_space<workgroup>>, %acc0: vector<2x2xf32>, %t0: !nvgpu.device.async.token) -> vector<2x2xf32> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %r = scf.for %i = %c0 to %c64 step %c32 iter_args(%acc = %acc0) -> (vector<2x2xf32>) {
      %slot = affine.apply affine_map<(d0) -> ((d0 floordiv 32) mod 2)>(%i)
      nvgpu.device_async_wait %t0 numGroups = 0
      gpu.barrier
      %next = arith.addi %i, %c32 : index
      %nslot = affine.apply affine_map<(d0) -> ((d0 floordiv 32) mod 2)>(%next)
      %t = nvgpu.device_async_copy %g[%c0, %next], %sh[%nslot, %c0, %c0], 8 : memref<64x64xf16> to memref<2x16x32xf16, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t
      %a0 = nvgpu.ldmatrix %sh[%slot, %c0, %c0] numTiles = 4 transpose = false : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %b0 = nvgpu.ldmatrix %sh[%slot, %c0, %c0] numTiles = 2 transpose = true : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %m0 = nvgpu.mma.sync(%a0, %b0, %acc) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %a1 = nvgpu.ldmatrix %sh[%slot, %c0, %c16] numTiles = 4 transpose = false : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %b1 = nvgpu.ldmatrix %sh[%slot, %c0, %c16] numTiles = 2 transpose = true : memref<2x16x32xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %m1 = nvgpu.mma.sync(%a1, %b1, %m0) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %m1 : vector<2x2xf32>
    }
    return %r : vector<2x2xf32>
  }
}

// -----

// A loop not pipelined (its body does not open with a wait and a barrier: the copies of
// edge tiles stay synchronous) is a silenceable failure at the loop, reported with
// failures(propagate) ...
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to pipeline the fragments}}
    %l2 = transform.schedir.nvgpu.pipeline_fragments failures(propagate) %loop : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @not_pipelined(%sh: memref<16x16xf16, #gpu.address_space<workgroup>>, %acc0: vector<2x2xf32>) -> vector<2x2xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @below {{the loop's body does not start with a wait for its copies (not pipelined)}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<2x2xf32>) {
      %a = nvgpu.ldmatrix %sh[%c0, %c0] numTiles = 4 transpose = false : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %b = nvgpu.ldmatrix %sh[%c0, %c0] numTiles = 2 transpose = true : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %m = nvgpu.mma.sync(%a, %b, %acc) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      gpu.barrier
      scf.yield %m : vector<2x2xf32>
    }
    return %r : vector<2x2xf32>
  }
}

// -----

// ... and dropped with failures(suppress): the loop stays as it is.
// CHECK-LABEL: func.func @suppressed
// CHECK:       scf.for
// CHECK-NEXT:    nvgpu.ldmatrix
// CHECK-NEXT:    nvgpu.ldmatrix
// CHECK-NEXT:    nvgpu.mma.sync
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    scf.yield
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l2 = transform.schedir.nvgpu.pipeline_fragments failures(suppress) %loop : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @suppressed(%sh: memref<16x16xf16, #gpu.address_space<workgroup>>, %acc0: vector<2x2xf32>) -> vector<2x2xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (vector<2x2xf32>) {
      %a = nvgpu.ldmatrix %sh[%c0, %c0] numTiles = 4 transpose = false : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %b = nvgpu.ldmatrix %sh[%c0, %c0] numTiles = 2 transpose = true : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %m = nvgpu.mma.sync(%a, %b, %acc) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      gpu.barrier
      scf.yield %m : vector<2x2xf32>
    }
    return %r : vector<2x2xf32>
  }
}
