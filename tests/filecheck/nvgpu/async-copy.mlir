// RUN: %roundtrip | filecheck %s

// The cp.async ops in upstream's syntax: printed, parsed again and printed the same.

// CHECK-LABEL: func.func @copies
// CHECK:         %[[T1:.*]] = nvgpu.device_async_copy %[[G:.*]][%[[I:.*]], %[[I]]], %[[S:.*]][%[[I]], %[[I]], %[[I]]], 4 : memref<128x128xf32> to memref<3x16x128xf32, 3 : i64>
// CHECK:         %[[T2:.*]] = nvgpu.device_async_copy %[[G]][%[[I]], %[[I]]], %[[S]][%[[I]], %[[I]], %[[I]]], 4, %[[N:.*]] bypassL1 : memref<128x128xf32> to memref<3x16x128xf32, 3 : i64>
// CHECK:         %{{.*}} = nvgpu.device_async_copy %{{.*}}[%[[I]]], %{{.*}}[%[[I]]], 8 : memref<64xf16> to memref<64xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[G1:.*]] = nvgpu.device_async_create_group %[[T1]], %[[T2]]
// CHECK:         %{{.*}} = nvgpu.device_async_create_group{{$}}
// CHECK:         nvgpu.device_async_wait %[[G1]]{{$}}
// CHECK:         nvgpu.device_async_wait %[[G1]] numGroups = 1
func.func @copies(%g: memref<128x128xf32>, %s: memref<3x16x128xf32, 3>, %i: index, %n: index, %h: memref<64xf16>, %hs: memref<64xf16, #gpu.address_space<workgroup>>) {
  %t1 = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i, %i], 4 : memref<128x128xf32> to memref<3x16x128xf32, 3>
  %t2 = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i, %i], 4, %n bypassL1 : memref<128x128xf32> to memref<3x16x128xf32, 3>
  %t3 = nvgpu.device_async_copy %h[%i], %hs[%i], 8 : memref<64xf16> to memref<64xf16, #gpu.address_space<workgroup>>
  %g1 = nvgpu.device_async_create_group %t1, %t2
  %g2 = nvgpu.device_async_create_group
  nvgpu.device_async_wait %g1
  nvgpu.device_async_wait %g1 numGroups = 1
  return
}
