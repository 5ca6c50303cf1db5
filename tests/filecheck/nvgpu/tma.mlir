// RUN: %roundtrip | filecheck %s

// The TMA ops in upstream's syntax: printed, parsed again and printed the same.

!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmap1 = !nvgpu.tensormap.descriptor<tensor = memref<256xf32, 3>, swizzle = none, l2promo = l2promo_256b, oob = nan, interleave = none>
!smem = memref<64x64xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @tma
// CHECK-SAME:    %[[D:[^:]*]]: !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK:         nvgpu.tma.async.load %[[D]][%[[X:.*]], %[[Y:.*]]], %[[B:.*]][%[[X]]] to %[[S:.*]] : <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, <memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.tma.async.load %[[D]][%[[X]], %[[Y]]], %[[B]][%[[X]]] to %[[S]] multicast_mask = %{{.*}}, predicate = %[[P:.*]] :
// CHECK:         nvgpu.tma.async.load %[[D]][%[[X]], %[[Y]]], %[[B]][%[[X]]] to %[[S]], predicate = %[[P]] :
// CHECK:         nvgpu.tma.async.store %[[S]] to %[[D]][%[[X]], %[[Y]]] : memref<64x64xf16, #gpu.address_space<workgroup>> -> <tensor
// CHECK:         nvgpu.tma.async.store %[[S]] to %[[D]][%[[X]], %[[Y]]], predicate = %[[P]] :
// CHECK:         nvgpu.tma.prefetch.descriptor %[[D]] : <tensor
// CHECK:         nvgpu.tma.prefetch.descriptor %[[D]], predicate = %[[P]] : <tensor
// CHECK:         nvgpu.tma.fence.descriptor %[[D]] : <tensor
// CHECK:         nvgpu.tma.async.load %{{.*}}[%[[X]]], %[[B]][%[[X]]] to %{{.*}} : <tensor = memref<256xf32, 3 : i64>, swizzle = none, l2promo = l2promo_256b, oob = nan, interleave = none>, <memorySpace
func.func @tma(%d: !tmap, %b: !bar, %s: !smem, %x: index, %y: index, %p: i1, %mask: i16, %d1: !tmap1, %s1: memref<256xf32, 3>) {
  nvgpu.tma.async.load %d[%x, %y], %b[%x] to %s : !tmap, !bar -> !smem
  nvgpu.tma.async.load %d[%x, %y], %b[%x] to %s multicast_mask = %mask, predicate = %p : !tmap, !bar -> !smem
  nvgpu.tma.async.load %d[%x, %y], %b[%x] to %s, predicate = %p : !tmap, !bar -> !smem
  nvgpu.tma.async.store %s to %d[%x, %y] : !smem -> !tmap
  nvgpu.tma.async.store %s to %d[%x, %y], predicate = %p : !smem -> !tmap
  nvgpu.tma.prefetch.descriptor %d : !tmap
  nvgpu.tma.prefetch.descriptor %d, predicate = %p : !tmap
  nvgpu.tma.fence.descriptor %d : !tmap
  nvgpu.tma.async.load %d1[%x], %b[%x] to %s1 : !tmap1, !bar -> memref<256xf32, 3>
  return
}

// CHECK-LABEL: func.func @create
// CHECK:         %{{.*}} = nvgpu.tma.create.descriptor %{{.*}} box[%[[C:.*]], %[[C]]] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// The struct parameters may come in any order; they print in upstream's.
// CHECK:         %{{.*}} = nvgpu.tma.create.descriptor %{{.*}} box[%[[C]]] : memref<*xf32> -> <tensor = memref<256xf32, 3 : i64>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @create(%t: memref<*xf16>, %u: memref<*xf32>) {
  %c64 = arith.constant 64 : index
  %d = nvgpu.tma.create.descriptor %t box[%c64, %c64] : memref<*xf16> -> !tmap
  %e = nvgpu.tma.create.descriptor %u box[%c64] : memref<*xf32> -> <oob = zero, interleave = none, swizzle = none, tensor = memref<256xf32, 3>, l2promo = none>
  return
}
