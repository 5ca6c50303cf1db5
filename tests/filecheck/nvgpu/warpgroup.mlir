// RUN: %roundtrip | filecheck %s

// The warpgroup (wgmma) ops in upstream's syntax: printed, parsed again and printed the same.

!tmapA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmapB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!descA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>

// CHECK-LABEL: func.func @wgmma
// CHECK:         %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %{{.*}} : memref<128x64xf16, 3 : i64>, <tensor = memref<128x64xf16, 3 : i64>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> <tensor = memref<128x64xf16, 3 : i64>>
// CHECK:         %{{.*}} = nvgpu.warpgroup.generate.descriptor %{{.*}}, %{{.*}} : memref<64x64xbf16, 3 : i64>, <tensor = memref<64x64xbf16, 3 : i64>, {{.*}}> -> <tensor = memref<64x64xbf16, 3 : i64>>
// CHECK:         %[[ACC:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK:         %[[D:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DB:.*]], %[[ACC]] : <tensor = memref<128x64xf16, 3 : i64>>, <tensor = memref<64x128xf16, 3 : i64>>, <fragmented = vector<128x128xf32>> -> <fragmented = vector<128x128xf32>>
// CHECK:         %{{.*}} = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[D]] transposeB :
// CHECK:         %{{.*}} = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[D]] waitGroup = 0 transposeA transposeB {note} :
// CHECK:         nvgpu.warpgroup.mma.store %[[D]], %{{.*}} : <fragmented = vector<128x128xf32>> to memref<128x128xf32, 3 : i64>
func.func @wgmma(%a: memref<128x64xf16, 3>, %ta: !tmapA, %bb: memref<64x64xbf16, 3>, %tb: !tmapB, %db: !descB, %out: memref<128x128xf32, 3>) {
  %da = nvgpu.warpgroup.generate.descriptor %a, %ta : memref<128x64xf16, 3>, !tmapA -> !descA
  %dbb = nvgpu.warpgroup.generate.descriptor %bb, %tb : memref<64x64xbf16, 3>, !tmapB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xbf16, 3>>
  %acc = nvgpu.warpgroup.mma.init.accumulator -> !acc
  %d = nvgpu.warpgroup.mma %da, %db, %acc : !descA, !descB, !acc -> !acc
  %d2 = nvgpu.warpgroup.mma %da, %db, %d transposeB : !descA, !descB, !acc -> !acc
  %d3 = nvgpu.warpgroup.mma %da, %db, %d transposeB transposeA waitGroup = 0 {note} : <tensor = memref<128x64xf16, 3>>, !descB, !acc -> <fragmented = vector<128x128xf32>>
  nvgpu.warpgroup.mma.store %d, %out : !acc to memref<128x128xf32, 3>
  return
}

// Accepted accumulators: M a multiple of 64, N a wgmma size, bf16 operands.
// CHECK-LABEL: func.func @shapes
// CHECK:         nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x8xf32>>
// CHECK:         nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<192x256xf32>>
// CHECK:         nvgpu.warpgroup.mma %{{.*}} : <tensor = memref<64x16xbf16, 3 : i64>>, <tensor = memref<16x24xbf16, 3 : i64>>, <fragmented = vector<64x24xf32>>
func.func @shapes(%a: !nvgpu.warpgroup.descriptor<tensor = memref<64x16xbf16, 3>>, %b: !nvgpu.warpgroup.descriptor<tensor = memref<16x24xbf16, 3>>, %c: !nvgpu.warpgroup.accumulator<fragmented = vector<64x24xf32>>) {
  %0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x8xf32>>
  %1 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<192x256xf32>>
  %2 = nvgpu.warpgroup.mma %a, %b, %c : !nvgpu.warpgroup.descriptor<tensor = memref<64x16xbf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<16x24xbf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x24xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x24xf32>>
  return
}
