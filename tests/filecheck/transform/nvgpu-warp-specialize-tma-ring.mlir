// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.warp_specialize_tma_ring is schedir's own extension op.

// A 128 x 256 block (A 128 x 64, B 64 x 256 in four chunks) with two consumers of 64 rows
// each and a 3-stage ring: the launch grows to 384 threads with nvvm.minctasm = 1; the
// rings are views of the dynamic shared memory (48 KiB of A, 96 KiB of B); thread 0
// initializes full[0..2] (one arrival) and empty[3..5] (the consumers' 256 threads);
// warpgroup 0 lowers its registers and its thread 0 loads every step into stage i % 3
// after waiting (i >= 3) for that stage's empty barrier of the round before; the other
// warpgroups raise theirs, and each multiplies rows [64 c, 64 c + 64) of A's stage (c =
// warpgroup - 1) by B's into its own 64 x 256 accumulator, releases the stage of step
// i - 1 and stores its rows of C.
// CHECK-LABEL: func.func @k_loop
// CHECK:       %[[DA:.*]] = nvgpu.tma.create.descriptor
// CHECK:       %[[DB:.*]] = nvgpu.tma.create.descriptor
// CHECK:       %[[SIZE:.*]] = arith.constant 147456 : i32
// CHECK:       %[[THREADS:.*]] = arith.constant 384 : index
// CHECK:       gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %[[THREADS]], %{{.*}} = %c1, %{{.*}} = %c1) dynamic_shared_memory_size %[[SIZE]] {
// CHECK-NEXT:    %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK-NEXT:    %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[RA:.*]] = memref.view %[[DYN]][%[[O0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<24576xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[O1:.*]] = arith.constant 49152 : index
// CHECK-NEXT:    %[[RB:.*]] = memref.view %[[DYN]][%[[O1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<49152xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[EMPTY:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// CHECK-NOT:     memref.alloc
// CHECK:         scf.if %[[LEADER:.*]] {
// CHECK-COUNT-3:   nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %[[EMPTY]] :
// CHECK:         }
// CHECK-NEXT:    gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[WGT:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[WG:.*]] = arith.divui %[[TID]], %[[WGT]] : index
// CHECK:         %[[PRODUCER:.*]] = arith.cmpi eq, %[[WG]], %{{.*}} : index
// CHECK-NEXT:    scf.if %[[PRODUCER]] {
// CHECK-NEXT:      nvvm.setmaxregister decrease 40
// CHECK-NEXT:      scf.if %[[LEADER]] {
// CHECK-NEXT:        scf.for %[[PK:.*]] = %c0 to %c512 step %c64 {
// CHECK:               %[[PI:.*]] = arith.divui
// CHECK:               %[[PS:.*]] = arith.remui %[[PI]]
// CHECK:               %[[REUSED:.*]] = arith.cmpi uge, %[[PI]]
// CHECK-NEXT:          scf.if %[[REUSED]] {
// CHECK:                 nvgpu.mbarrier.try_wait.parity %[[BAR]]
// CHECK-NEXT:          }
// CHECK:               nvgpu.tma.async.load %[[DA]][%{{.*}}, %[[PK]]], %[[BAR]][%[[PS]]]
// CHECK-COUNT-4:       nvgpu.tma.async.load %[[DB]][%[[PK]], %{{.*}}], %[[BAR]][%[[PS]]]
// CHECK:               nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%[[PS]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    } else {
// CHECK-NEXT:      nvvm.setmaxregister increase 232
// CHECK:           %[[C:.*]] = arith.subi %[[WG]]
// CHECK:           %[[ROW0:.*]] = arith.muli %[[C]]
// CHECK-NEXT:      %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// CHECK-NEXT:      %[[R:.*]] = scf.for %{{.*}} = %c0 to %c512 step %c64 iter_args(%[[ACC:.*]] = %[[INIT]])
// CHECK:             %[[I:.*]] = arith.divui
// CHECK:             %[[S:.*]] = arith.remui %[[I]]
// CHECK:             nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[S]]]
// CHECK:             %[[VA:.*]] = memref.reinterpret_cast %[[RA]] to offset: [%{{.*}}], sizes: [64, 64], strides: [64, 1]
// CHECK:             %[[VB:.*]] = memref.reinterpret_cast %[[RB]] to offset: [%{{.*}}], sizes: [64, 256], strides: [256, 1]
// CHECK-NEXT:        %[[GA:.*]] = nvgpu.warpgroup.generate.descriptor %[[VA]], %[[DA]]
// CHECK-NEXT:        %[[GB:.*]] = nvgpu.warpgroup.generate.descriptor %[[VB]], %[[DB]]
// CHECK-NEXT:        %[[D:.*]] = nvgpu.warpgroup.mma %[[GA]], %[[GB]], %[[ACC]] : {{.*}} -> <fragmented = vector<64x256xf32>>
// CHECK:             scf.if
// CHECK-NEXT:          arith.addi
// CHECK-NEXT:          nvgpu.mbarrier.arrive %[[BAR]]
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %[[D]]
// CHECK-NEXT:      }
// CHECK:           %[[SUB:.*]] = memref.subview %{{.*}}[%[[ROW0]], %{{.*}}] [64, 256] [1, 1]
// CHECK-NEXT:      nvgpu.warpgroup.mma.store %[[R]], %[[SUB]]
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.terminator
// CHECK-NEXT:  } {nvvm.minctasm = 1 : i32}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @k_loop(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
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
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 256] [1, 1] : memref<512x256xf16> to memref<64x256xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x256xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// A K of one step (no loop): the step becomes a loop of one step, then as above with one
// consumer of all 128 rows (256 threads).
// CHECK-LABEL: func.func @one_step
// CHECK:       %[[THREADS:.*]] = arith.constant 256 : index
// CHECK:       gpu.launch {{.*}} in (%{{.*}} = %[[THREADS]], %{{.*}} = %c1, %{{.*}} = %c1) dynamic_shared_memory_size
// CHECK:           nvvm.setmaxregister decrease 24
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        scf.for %{{.*}} = %[[LB:.*]] to %[[UB:.*]] step %[[UB]] {
// CHECK:         } else {
// CHECK-NEXT:      nvvm.setmaxregister increase 240
// CHECK:           scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[UB]] iter_args
// CHECK:             nvgpu.warpgroup.mma {{.*}} -> <fragmented = vector<128x128xf32>>
// CHECK:           nvgpu.warpgroup.mma.store {{.*}} to memref<128x128xf32
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 2 : i64 -> !transform.param<i64>
    %c = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 24 : i64 -> !transform.param<i64>
    %q = transform.param.constant 240 : i64 -> !transform.param<i64>
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @one_step(%a: memref<128x64xf16>, %b: memref<64x128xf16>, %c: memref<128x128xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x128xf16, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
      linalg.copy ins(%a : memref<128x64xf16>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
      linalg.copy ins(%b : memref<64x128xf16>) outs(%sb : memref<64x128xf16, #gpu.address_space<workgroup>>)
      linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>)
                    outs(%c : memref<128x128xf32>)
      gpu.terminator
    }
    return
  }
}

// -----

// One stage: the consumers would release the stage the producer refills while they read it.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    // expected-error @below {{could not warp-specialize the TMA ring}}
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @one_stage(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{'nvgpu.warpgroup.mma' op stages must be in 2..8 (a consumer reads one stage while the producer fills another), got 1}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 256] [1, 1] : memref<512x256xf16> to memref<64x256xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x256xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// A register budget that is not a multiple of 8.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 236 : i64 -> !transform.param<i64>
    // expected-error @below {{could not warp-specialize the TMA ring}}
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @odd_budget(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{'nvgpu.warpgroup.mma' op consumer_registers must be a multiple of 8 in 24..256, got 236}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 256] [1, 1] : memref<512x256xf16> to memref<64x256xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x256xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// Two consumers of 256 registers and a producer of 40: more than the SM has.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 256 : i64 -> !transform.param<i64>
    // expected-error @below {{could not warp-specialize the TMA ring}}
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @over_budget(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{'nvgpu.warpgroup.mma' op 1 producer warpgroup of 40 and 2 consumer warpgroups of 256 registers per thread take 70656 registers (an SM has 65536)}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 256] [1, 1] : memref<512x256xf16> to memref<64x256xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x256xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// The producer keeps more registers than the consumers get.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 240 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    // expected-error @below {{could not warp-specialize the TMA ring}}
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @producer_heavier(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{'nvgpu.warpgroup.mma' op producer_registers (240) exceeds consumer_registers (232): the producer only gives registers to the consumers}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 256] [1, 1] : memref<512x256xf16> to memref<64x256xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x256xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// Another block barrier in the launch: the producer's threads would not reach it.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    // expected-error @below {{could not warp-specialize the TMA ring}}
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @barrier(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
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
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 256] [1, 1] : memref<512x256xf16> to memref<64x256xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x256xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      }
      // expected-error @below {{'gpu.barrier' op the gpu.launch has another block barrier (the producer's threads do not reach it)}}
      gpu.barrier
      gpu.terminator
    }
    return
  }
}

// -----

// Thread-dependent code outside the MMA's loop: it assumed one warpgroup.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    // expected-error @below {{could not warp-specialize the TMA ring}}
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @thread_ids(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
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
      %sb = memref.alloc() : memref<64x256xf16, #gpu.address_space<workgroup>>
      %m0 = arith.muli %by, %c128 : index
      %vc = memref.subview %c[%m0, 0] [128, 256] [1, 1] : memref<256x256xf32> to memref<128x256xf32, strided<[256, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[%m0, %k] [128, 64] [1, 1] : memref<256x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 256] [1, 1] : memref<512x256xf16> to memref<64x256xf16, strided<[256, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x256xf16, strided<[256, 1], offset: ?>>) outs(%sb : memref<64x256xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>)
                      outs(%vc : memref<128x256xf32, strided<[256, 1], offset: ?>>)
      }
      // expected-error @below {{'gpu.thread_id' op the gpu.launch computes with thread ids outside the MMA's loop (code that assumes one warpgroup)}}
      %t = gpu.thread_id x
      memref.store %zero, %c[%t, %t] : memref<256x256xf32>
      gpu.terminator
    }
    return
  }
}

// -----

// Ping-pong (CUTLASS's KernelTmaWarpSpecializedPingpong): two consumers, each with the
// whole 128 x 128 block in its accumulator, one consumer per stage (empty[3..5] count 128
// arrivals) and four turn barriers (6..7 the mainloop's, 8..9 the epilogue's, 128 arrivals
// each); the consumer index comes from lane 0's warpgroup (gpu.shuffle idx: warp-uniform
// for ptxas); the block's one tile is consumer 0's (`scf.if consumer == 0
// {schedir.pingpong = 2}`: persistent_tiles deals a persistent block's tiles to both). In its first step the
// consumer waits for its mainloop turn (barrier 6 + c, parity of tile ((n + 1) / 2) even,
// n = i / steps); it releases the previous stage only after its own first step; in its last
// step it hands the mainloop turn on (6 + (c + 1) mod 2), waits for its MMAs, releases the
// last stage and waits for its epilogue turn (8 + c); after the store it hands that on.
// CHECK-LABEL: func.func @pingpong
// CHECK:       %[[THREADS:.*]] = arith.constant 384 : index
// CHECK:       gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %[[THREADS]], {{.*}} dynamic_shared_memory_size
// CHECK:         %[[EMPTY:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[TURN:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 10>
// CHECK:         scf.if %[[LEADER:.*]] {
// CHECK-COUNT-3:   nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %[[EMPTY]] :
// CHECK-COUNT-4:   nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %[[TURN]] :
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier
// CHECK:         } else {
// CHECK-NEXT:      nvvm.setmaxregister increase 232
// CHECK-NEXT:      %[[WG32:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:      %[[LANE0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[WIDTH:.*]] = arith.constant 32 : i32
// CHECK-NEXT:      %[[UWG32:.*]], %{{.*}} = gpu.shuffle idx %[[WG32]], %[[LANE0]], %[[WIDTH]] : i32
// CHECK-NEXT:      %[[UWG:.*]] = arith.index_cast %[[UWG32]] : i32 to index
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[C:.*]] = arith.subi %[[UWG]], %[[ONE]] : index
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %[[C]], %[[ZERO]] : index
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK:             %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK-NEXT:        %[[R:.*]] = scf.for %[[K:.*]] = %c0 to %c512 step %c64 iter_args(%[[ACC:.*]] = %[[INIT]])
// CHECK:               %[[I:.*]] = arith.divui
// CHECK:               %[[S:.*]] = arith.remui %[[I]]
// CHECK:               %[[K0:.*]] = arith.cmpi eq, %[[K]], %c0 : index
// CHECK-NEXT:          scf.if %[[K0]] {
// CHECK:                 %[[STEPS:.*]] = arith.divui %{{.*}}, %c64 : index
// CHECK-NEXT:            %[[TILE:.*]] = arith.divui %[[I]], %[[STEPS]] : index
// CHECK:                 %[[MINE:.*]] = arith.constant 6 : index
// CHECK-NEXT:            %[[MY_TURN:.*]] = arith.addi %[[C]], %[[MINE]] : index
// CHECK-NEXT:            nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[MY_TURN]]]
// CHECK-NEXT:          }
// CHECK:               nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[S]]]
// CHECK:               memref.reinterpret_cast {{.*}} sizes: [128, 64], strides: [64, 1]
// CHECK:               memref.reinterpret_cast {{.*}} sizes: [64, 128], strides: [128, 1]
// CHECK:               %[[D:.*]] = nvgpu.warpgroup.mma {{.*}}, %[[ACC]] : {{.*}} -> <fragmented = vector<128x128xf32>>
// CHECK:               %[[LATER:.*]] = arith.cmpi ne, %[[K]], %c0 : index
// CHECK-NEXT:          scf.if %[[LATER]] {
// CHECK-NEXT:            arith.addi
// CHECK-NEXT:            nvgpu.mbarrier.arrive %[[BAR]]
// CHECK-NEXT:          }
// CHECK-NEXT:          %[[NEXT_K:.*]] = arith.addi %[[K]], %c64 : index
// CHECK-NEXT:          %[[LAST:.*]] = arith.cmpi uge, %[[NEXT_K]], %c512 : index
// CHECK-NEXT:          scf.if %[[LAST]] {
// CHECK:                 %[[NEXT:.*]] = arith.remui
// CHECK-NEXT:            arith.constant 6 : index
// CHECK-NEXT:            %[[ITS_TURN:.*]] = arith.addi %[[NEXT]]
// CHECK-NEXT:            nvgpu.mbarrier.arrive %[[BAR]][%[[ITS_TURN]]]
// CHECK-NEXT:            nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:            %[[MY_EMPTY:.*]] = arith.addi %[[S]], %{{.*}} : index
// CHECK-NEXT:            nvgpu.mbarrier.arrive %[[BAR]][%[[MY_EMPTY]]]
// CHECK:                 arith.constant 8 : index
// CHECK-NEXT:            %[[MY_EPILOGUE:.*]] = arith.addi %[[C]]
// CHECK-NEXT:            nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[MY_EPILOGUE]]]
// CHECK-NEXT:          }
// CHECK-NEXT:          scf.yield %[[D]]
// CHECK-NEXT:        }
// CHECK:             %[[SUB:.*]] = memref.subview %{{.*}}[%{{.*}}, %{{.*}}] [128, 128] [1, 1]
// CHECK-NEXT:        nvgpu.warpgroup.mma.store %[[R]], %[[SUB]]
// CHECK:             %[[NEXT2:.*]] = arith.remui
// CHECK-NEXT:        arith.constant 8 : index
// CHECK-NEXT:        %[[ITS_EPILOGUE:.*]] = arith.addi %[[NEXT2]]
// CHECK-NEXT:        nvgpu.mbarrier.arrive %[[BAR]][%[[ITS_EPILOGUE]]]
// CHECK-NEXT:      }{schedir.pingpong = 2 : i32}
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
    transform.yield
  }
  func.func @pingpong(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
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

// -----

// Ping-pong takes turns between two consumers at least.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %c = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    %on = transform.param.constant 1 : i64 -> !transform.param<i64>
    // expected-error @below {{could not warp-specialize the TMA ring}}
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q pingpong = %on
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @one_consumer(%a: memref<128x512xf16>, %b: memref<512x128xf16>, %c: memref<128x128xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{'nvgpu.warpgroup.mma' op ping-pong consumers take turns: at least 2 of them, got 1}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x128xf16, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[0, %k] [128, 64] [1, 1] : memref<128x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 128] [1, 1] : memref<512x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x128xf16, strided<[128, 1], offset: ?>>) outs(%sb : memref<64x128xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>)
                      outs(%c : memref<128x128xf32>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// Staggered consumers (stagger = 2, two consumers of 64 x 128 rows, 3 stages): one more
// mbarrier after the ring's (6, 128 arrivals); consumer 1 waits for it (phase 0) before
// the block's first k step; consumer 0 arrives on it after issuing step min(2, steps - 1)
// = 2; the consumer index comes from lane 0's warpgroup (gpu.shuffle idx).
// CHECK-LABEL: func.func @staggered
// CHECK:         %[[EMPTY:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[LEAD_COUNT:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 7>
// CHECK:         scf.if %{{.*}} {
// CHECK-COUNT-3:   nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %[[EMPTY]] :
// CHECK-NEXT:      %[[LEAD:.*]] = arith.constant 6 : index
// CHECK-NEXT:      nvgpu.mbarrier.init %[[BAR]][%[[LEAD]]], %[[LEAD_COUNT]] :
// CHECK-NEXT:    }
// CHECK:         nvvm.setmaxregister increase 232
// CHECK:           gpu.shuffle idx
// CHECK:           %[[C:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:           scf.for %[[K:.*]] = %c0 to %c512 step %c64 iter_args
// CHECK:             %[[I:.*]] = arith.divui
// CHECK:             %[[FOLLOWER:.*]] = arith.cmpi ne, %[[C]], %{{.*}} : index
// CHECK-NEXT:        %[[START:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : index
// CHECK-NEXT:        %[[WAIT:.*]] = arith.andi %[[FOLLOWER]], %[[START]] : i1
// CHECK-NEXT:        scf.if %[[WAIT]] {
// CHECK-NEXT:          %[[PHASE0:.*]] = arith.constant false
// CHECK-NEXT:          arith.constant
// CHECK-NEXT:          %[[LEAD_W:.*]] = arith.constant 6 : index
// CHECK-NEXT:          nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[LEAD_W]]], %[[PHASE0]]
// CHECK-NEXT:        }
// CHECK:             nvgpu.warpgroup.mma
// CHECK:             nvgpu.mbarrier.arrive %[[BAR]]
// CHECK:             %[[FIRST:.*]] = arith.cmpi eq, %[[C]], %{{.*}} : index
// CHECK:             %[[AHEAD:.*]] = arith.constant 2 : index
// CHECK-NEXT:        %[[STEP:.*]] = arith.minui %[[AHEAD]], %{{.*}} : index
// CHECK-NEXT:        %[[THERE:.*]] = arith.cmpi eq, %[[I]], %[[STEP]] : index
// CHECK-NEXT:        %[[ARRIVE:.*]] = arith.andi %[[FIRST]], %[[THERE]] : i1
// CHECK-NEXT:        scf.if %[[ARRIVE]] {
// CHECK-NEXT:          %[[LEAD_A:.*]] = arith.constant 6 : index
// CHECK-NEXT:          nvgpu.mbarrier.arrive %[[BAR]][%[[LEAD_A]]]
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    %off = transform.param.constant 0 : i64 -> !transform.param<i64>
    %d = transform.param.constant 2 : i64 -> !transform.param<i64>
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q pingpong = %off stagger = %d
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @staggered(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
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

// -----

// Staggered consumers less than a ring apart: a stagger of the 3 stages would wait for
// a stage only the other consumer's releases refill.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.param.constant 2 : i64 -> !transform.param<i64>
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm warpgroups = %c : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %p = transform.param.constant 40 : i64 -> !transform.param<i64>
    %q = transform.param.constant 232 : i64 -> !transform.param<i64>
    %off = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{could not warp-specialize the TMA ring}}
    %l = transform.schedir.nvgpu.warp_specialize_tma_ring %w stages = %s consumers = %c producer_registers = %p consumer_registers = %q pingpong = %off stagger = %s
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
  func.func @stagger_of_a_ring(%a: memref<128x512xf16>, %b: memref<512x128xf16>, %c: memref<128x128xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{'nvgpu.warpgroup.mma' op staggered consumers start 1..stages - 1 (2) steps apart, two of them at least, cooperating (not ping-pong), got 3 steps}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %sa = memref.alloc() : memref<128x64xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x128xf16, #gpu.address_space<workgroup>>
      linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
      scf.for %k = %c0 to %c512 step %c64 {
        %va = memref.subview %a[0, %k] [128, 64] [1, 1] : memref<128x512xf16> to memref<128x64xf16, strided<[512, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [64, 128] [1, 1] : memref<512x128xf16> to memref<64x128xf16, strided<[128, 1], offset: ?>>
        linalg.copy ins(%va : memref<128x64xf16, strided<[512, 1], offset: ?>>) outs(%sa : memref<128x64xf16, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<64x128xf16, strided<[128, 1], offset: ?>>) outs(%sb : memref<64x128xf16, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>)
                      outs(%c : memref<128x128xf32>)
      }
      gpu.terminator
    }
    return
  }
}
