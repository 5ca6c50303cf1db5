// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: iree-opt does not register the NVGPU transform extension (upstream's op; 2-D transfers are left alone as upstream does).

// Two 16-byte copies (8 f16) and a 4-byte one from global to shared memory, with index
// arithmetic between them: one group, waited for right after the last copy; bypass_l1
// only on the 16-byte copies. The 2-D transfer and the copy into global memory stay.
// CHECK-LABEL: func.func @copies
// CHECK-SAME:    %[[A:[^:]*]]: memref<64x64xf16>, %[[F:[^:]*]]: memref<64xf32>, %[[G:[^:]*]]: memref<64x64xf16>
// CHECK:       %[[S:.*]] = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
// CHECK:       %[[T:.*]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK:       %[[C0:.*]] = nvgpu.device_async_copy %[[A]][%{{.*}}, %{{.*}}], %[[S]][%{{.*}}, %{{.*}}], 8 bypassL1 : memref<64x64xf16> to memref<16x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[I:.*]] = arith.addi
// CHECK-NEXT:  %[[C1:.*]] = nvgpu.device_async_copy %[[A]][%[[I]], %{{.*}}], %[[S]][%[[I]], %{{.*}}], 8 bypassL1
// CHECK-NEXT:  %[[C2:.*]] = nvgpu.device_async_copy %[[F]][%{{.*}}], %[[T]][%{{.*}}], 1 : memref<64xf32> to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[GR:.*]] = nvgpu.device_async_create_group %[[C0]], %[[C1]], %[[C2]]
// CHECK-NEXT:  nvgpu.device_async_wait %[[GR]]
// CHECK-NEXT:  %[[V:.*]] = vector.transfer_read %[[A]]
// CHECK-NEXT:  vector.transfer_write %[[V]], %[[S]]
// CHECK-NEXT:  %[[W:.*]] = vector.transfer_read %[[A]]
// CHECK-NEXT:  vector.transfer_write %[[W]], %[[G]]
// CHECK-NOT:   nvgpu.device_async_copy
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %f2 = transform.nvgpu.create_async_groups %f bypass_l1 : (!transform.any_op) -> (!transform.any_op)
    transform.yield
  }
  func.func @copies(%a: memref<64x64xf16>, %f: memref<64xf32>, %g: memref<64x64xf16>) {
    %s = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
    %t = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pad = arith.constant 0.0 : f16
    %padf = arith.constant 0.0 : f32
    %0 = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true]} : memref<64x64xf16>, vector<8xf16>
    vector.transfer_write %0, %s[%c0, %c0] {in_bounds = [true]} : vector<8xf16>, memref<16x32xf16, #gpu.address_space<workgroup>>
    %i = arith.addi %c0, %c1 : index
    %1 = vector.transfer_read %a[%i, %c0], %pad {in_bounds = [true]} : memref<64x64xf16>, vector<8xf16>
    vector.transfer_write %1, %s[%i, %c0] {in_bounds = [true]} : vector<8xf16>, memref<16x32xf16, #gpu.address_space<workgroup>>
    %2 = vector.load %f[%c0] : memref<64xf32>, vector<1xf32>
    vector.store %2, %t[%c0] : memref<8xf32, #gpu.address_space<workgroup>>, vector<1xf32>
    %3 = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x64xf16>, vector<2x8xf16>
    vector.transfer_write %3, %s[%c0, %c0] {in_bounds = [true, true]} : vector<2x8xf16>, memref<16x32xf16, #gpu.address_space<workgroup>>
    %4 = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true]} : memref<64x64xf16>, vector<8xf16>
    vector.transfer_write %4, %g[%c0, %c0] {in_bounds = [true]} : vector<8xf16>, memref<64x64xf16>
    return
  }
}

// -----

// A read masked by a 1-D create_mask copies the mask's size (srcElements: the rest of
// the 16 bytes zero-filled); without bypass_l1 the copy goes through L1.
// CHECK-LABEL: func.func @masked
// CHECK-SAME:    %[[A:[^:]*]]: memref<64x64xf16>, %[[N:[^:]*]]: index
// CHECK:       %[[C:.*]] = nvgpu.device_async_copy %[[A]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8, %[[N]] : memref<64x64xf16> to memref<16x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[GR:.*]] = nvgpu.device_async_create_group %[[C]]
// CHECK-NEXT:  nvgpu.device_async_wait %[[GR]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %f2 = transform.nvgpu.create_async_groups %f : (!transform.any_op) -> (!transform.any_op)
    transform.yield
  }
  func.func @masked(%a: memref<64x64xf16>, %n: index) {
    %s = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f16
    %mask = vector.create_mask %n : vector<8xi1>
    %0 = vector.transfer_read %a[%c0, %c0], %pad, %mask {in_bounds = [true]} : memref<64x64xf16>, vector<8xf16>
    vector.transfer_write %0, %s[%c0, %c0] {in_bounds = [true]} : vector<8xf16>, memref<16x32xf16, #gpu.address_space<workgroup>>
    return
  }
}
