// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: iree-opt does not register the NVGPU transform extension; schedir pipelines the predicated asynchronous form directly (upstream goes through its generic loop pipeliner and carries the tokens as iter_args).

// Depth 2 over a 2-slot buffer: iteration 0's copy before the loop, iteration i + 1's in
// iteration i (predicated off past the end: 0 elements), one group per iteration, a wait
// leaving one group in flight, a closing barrier (the next copy overwrites the slot read
// here) and a wait for everything after the loop.
// CHECK-LABEL: func.func @depth_2
// CHECK-SAME:    %[[G:[^:]*]]: memref<128xf32>
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[C128:.*]] = arith.constant 128 : index
// CHECK:       %[[SH:.*]] = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
// CHECK:       %[[IV0:.*]] = arith.addi %[[C0]], %{{.*}} : index
// CHECK:       %[[IN0:.*]] = arith.cmpi slt, %[[IV0]], %[[C128]] : index
// CHECK:       %[[SLOT0:.*]] = affine.apply #{{.*}}(%[[IV0]])
// CHECK:       %[[N0:.*]] = arith.select %[[IN0]], %{{.*}}, %{{.*}} : index
// CHECK:       %[[T0:.*]] = nvgpu.device_async_copy %[[G]][%[[IV0]]], %[[SH]][%[[SLOT0]], %[[C0]]], 4, %[[N0]]
// CHECK:       %[[G0:.*]] = nvgpu.device_async_create_group %[[T0]]
// CHECK:       scf.for %[[I:.*]] = %[[C0]] to %[[C128]] step %[[C4]] {
// CHECK:         %[[SLOT:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK:         %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK:         %[[IN:.*]] = arith.cmpi slt, %[[NEXT]], %[[C128]] : index
// CHECK:         %[[SLOT1:.*]] = affine.apply #{{.*}}(%[[NEXT]])
// CHECK:         %[[N:.*]] = arith.select %[[IN]], %{{.*}}, %{{.*}} : index
// CHECK:         %[[T:.*]] = nvgpu.device_async_copy %[[G]][%[[NEXT]]], %[[SH]][%[[SLOT1]], %[[C0]]], 4, %[[N]]
// CHECK:         %[[GR:.*]] = nvgpu.device_async_create_group %[[T]]
// CHECK-NEXT:    nvgpu.device_async_wait %[[GR]] numGroups = 1
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[SH]][%[[SLOT]], %[[C0]]]
// CHECK-NEXT:    memref.store %[[V]]
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:  }
// CHECK-NEXT:  nvgpu.device_async_wait %[[G0]] numGroups = 0
// CHECK-NOT:   nvgpu.device_async_copy
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l2 = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %loop <{depth = 2}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @depth_2(%g: memref<128xf32>, %out: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %sh = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c128 step %c4 {
      %slot = affine.apply affine_map<(d0) -> ((d0 floordiv 4) mod 2)>(%i)
      %t = nvgpu.device_async_copy %g[%i], %sh[%slot, %c0], 4 : memref<128xf32> to memref<2x4xf32, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %grp
      gpu.barrier
      %v = memref.load %sh[%slot, %c0] : memref<2x4xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%i] : memref<128xf32>
    }
    return
  }
}

// -----

// A synchronous write of shared memory in the loop cannot be predicated: a silenceable
// failure, reported with failures(propagate) ...
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to pipeline the shared memory copies}}
    %l2 = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %loop <{depth = 3}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @synchronous(%g: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %sh = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c128 step %c4 {
      %t = nvgpu.device_async_copy %g[%i], %sh[%c0], 4 : memref<128xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %grp
      %v = memref.load %g[%i] : memref<128xf32>
      // expected-error @below {{couldn't predicate a synchronous write of shared memory}}
      memref.store %v, %sh[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    }
    return
  }
}

// -----

// ... and dropped by the default failures(suppress): the loop is unchanged.
// CHECK-LABEL: func.func @suppressed
// CHECK:       scf.for
// CHECK-NEXT:    nvgpu.device_async_copy
// CHECK-NEXT:    nvgpu.device_async_create_group
// CHECK-NEXT:    nvgpu.device_async_wait %{{[^ ]*}}{{$}}
// CHECK-NEXT:    memref.load
// CHECK-NEXT:    memref.store
// CHECK-NEXT:  }
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l2 = transform.nvgpu.pipeline_shared_memory_copies failures(suppress) %loop <{depth = 2}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @suppressed(%g: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %sh = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c128 step %c4 {
      %t = nvgpu.device_async_copy %g[%i], %sh[%c0], 4 : memref<128xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %grp
      %v = memref.load %g[%i] : memref<128xf32>
      memref.store %v, %sh[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    }
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'depth' must be at least 2 (a stage in flight), got 1}}
    %l2 = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %loop <{depth = 1}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A body that writes no memory but its copies (it reads the slot into registers, as
// mma.sync fragments), with a barrier after its wait and a closing one: one barrier per
// iteration. Iteration i waits for its own group (depth - 2 later ones in flight), the
// barrier (every thread's copies of i landed, every thread done with the slot of
// i - 1), then issues iteration i + depth - 1's copies into that slot; the closing barrier
// goes.
// CHECK-LABEL: func.func @one_barrier
// CHECK-SAME:    %[[G:[^:]*]]: memref<128xf32>
// CHECK:       nvgpu.device_async_copy
// CHECK:       nvgpu.device_async_create_group
// CHECK:       nvgpu.device_async_copy
// CHECK:       %[[G1:.*]] = nvgpu.device_async_create_group
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:         nvgpu.device_async_wait %[[G1]] numGroups = 1
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[T:.*]] = nvgpu.device_async_copy %[[G]]
// CHECK-NEXT:    nvgpu.device_async_create_group %[[T]]
// CHECK:         memref.load
// CHECK-NEXT:    arith.addf
// CHECK-NOT:     gpu.barrier
// CHECK:         scf.yield
// CHECK:       nvgpu.device_async_wait %[[G1]] numGroups = 0
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l2 = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %loop <{depth = 3}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @one_barrier(%g: memref<128xf32>, %out: memref<1xf32>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %sh = memref.alloc() : memref<3x4xf32, #gpu.address_space<workgroup>>
    %sum = scf.for %i = %c0 to %c128 step %c4 iter_args(%acc = %zero) -> (f32) {
      %slot = affine.apply affine_map<(d0) -> ((d0 floordiv 4) mod 3)>(%i)
      %t = nvgpu.device_async_copy %g[%i], %sh[%slot, %c0], 4 : memref<128xf32> to memref<3x4xf32, #gpu.address_space<workgroup>>
      %grp = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %grp
      gpu.barrier
      %v = memref.load %sh[%slot, %c0] : memref<3x4xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %acc, %v : f32
      gpu.barrier
      scf.yield %s : f32
    }
    memref.store %sum, %out[%c0] : memref<1xf32>
    return
  }
}
