// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.pipeline_tma_ring is schedir's own extension op.

// A 128 x 128 block (A 128 x 64, B 64 x 128 in two chunks) in a 3-stage ring: the rings
// are views of the dynamic shared memory (3 x 16 KiB each, the launch reserves 96 KiB);
// thread 0 initializes full[0..2] (one arrival) and empty[3..5] (the block's 128
// threads); it loads steps 0 and 1 before the loop; iteration i waits on full[i % 3] with
// parity (i / 3) % 2, multiplies stage i % 3 with one group left in flight, releases the
// stage of step i - 1 on its empty barrier and thread 0 loads step i + 2 into it after
// waiting for that barrier's previous round.
// CHECK-LABEL: func.func @k_loop
// CHECK:       %[[DA:.*]] = nvgpu.tma.create.descriptor
// CHECK:       %[[DB:.*]] = nvgpu.tma.create.descriptor
// CHECK:       %[[SIZE:.*]] = arith.constant 98304 : i32
// CHECK:       gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]] {
// CHECK-NEXT:    %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[RA:.*]] = memref.view %[[DYN]][%[[O0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<24576xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[O1:.*]] = arith.constant 49152 : index
// CHECK-NEXT:    %[[RB:.*]] = memref.view %[[DYN]][%[[O1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<24576xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// CHECK-NOT:     memref.alloc
// CHECK:         scf.if %[[LEADER:.*]] {
// CHECK-COUNT-3:   nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %[[ONE:.*]] :
// CHECK-SAME:      num_barriers = 6
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK:         scf.if %[[LEADER]] {
// CHECK:           nvgpu.tma.async.load %[[DA]]
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %[[BAR]]
// CHECK:           nvgpu.tma.async.load %[[DA]]
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %[[BAR]]
// CHECK:         }
// CHECK:         %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NOT:       gpu.barrier
// CHECK:           %[[I:.*]] = arith.divui
// CHECK-NEXT:      %[[S:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK:           nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[S]]]
// CHECK:           %[[VA:.*]] = memref.reinterpret_cast %[[RA]] to offset: [%{{.*}}], sizes: [128, 64], strides: [64, 1]
// CHECK-NEXT:      %[[GA:.*]] = nvgpu.warpgroup.generate.descriptor %[[VA]], %[[DA]]
// CHECK:           %[[VB:.*]] = memref.reinterpret_cast %[[RB]] to offset: [%{{.*}}], sizes: [64, 128], strides: [128, 1]
// CHECK-NEXT:      %[[GB:.*]] = nvgpu.warpgroup.generate.descriptor %[[VB]], %[[DB]]
// CHECK-NEXT:      %[[D:.*]] = nvgpu.warpgroup.mma %[[GA]], %[[GB]], %[[ACC]] :
// CHECK:           scf.if
// CHECK:             nvgpu.mbarrier.arrive %[[BAR]]
// CHECK:           scf.if
// CHECK:             scf.if
// CHECK:               nvgpu.mbarrier.try_wait.parity %[[BAR]]
// CHECK-COUNT-3:     nvgpu.tma.async.load
// CHECK:             nvgpu.mbarrier.arrive.expect_tx %[[BAR]]
// CHECK:           scf.yield %[[D]]
// CHECK:         nvgpu.warpgroup.mma.store %[[R]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %l = transform.schedir.nvgpu.pipeline_tma_ring %w stages = %s : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @k_loop(%a: memref<256x512xf16>, %b: memref<512x128xf16>, %c: memref<256x128xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x128xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 128] [1, 1] : memref<256x128xf32> to memref<128x128xf32, strided<[128, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x128xf32, strided<[128, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 128] [1, 1] : memref<512x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x128xf16, strided<[128, 1], offset: ?>>) outs(%sb : memref<64x128xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x128xf32, strided<[128, 1], offset: ?>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// Nine stages: more than a ring takes.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 9 : i64 -> !transform.param<i64>
    // expected-error @below {{could not pipeline the loop into a TMA ring}}
    %l = transform.schedir.nvgpu.pipeline_tma_ring %w stages = %s : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @too_many(%a: memref<64x512xf16>, %b: memref<512x64xf16>, %c: memref<64x64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{'nvgpu.warpgroup.mma' op stages must be in 1..8, got 9}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[0, %k] [64, 64] [1, 1] : memref<64x512xf16> to memref<64x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 64] [1, 1] : memref<512x64xf16> to memref<64x64xf16, strided<[64, 1], offset: ?>>
        linalg.copy ins(%va : memref<64x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<64x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x64xf16, strided<[64, 1], offset: ?>>) outs(%sb : memref<64x64xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>)
                      outs(%c : memref<64x64xf32>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// The target is not a warpgroup MMA.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{could not pipeline the loop into a TMA ring}}
    %l = transform.schedir.nvgpu.pipeline_tma_ring %f stages = %s : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  // expected-error @below {{'func.func' op target is not an nvgpu.warpgroup.mma}}
  func.func @not_mma() {
    return
  }
}
