// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// The nvgpu verifiers, with upstream's messages.

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @load_shape_mismatch(%d: !tmap, %b: !bar, %s: memref<64x32xf16, 3>, %i: index) {
  // expected-error @below {{memref and tensor map shapes mismatch}}
  nvgpu.tma.async.load %d[%i, %i], %b[%i] to %s : !tmap, !bar -> memref<64x32xf16, 3>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @load_global_destination(%d: !tmap, %b: !bar, %s: memref<64x64xf16>, %i: index) {
  // expected-error @below {{the destination memref has incorrect address space, it must be shared memory address space.}}
  nvgpu.tma.async.load %d[%i, %i], %b[%i] to %s : !tmap, !bar -> memref<64x64xf16>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @load_coordinates(%d: !tmap, %b: !bar, %s: memref<64x64xf16, 3>, %i: index) {
  // expected-error @below {{number of coordinates do not match with the rank of tensor descriptor map.}}
  nvgpu.tma.async.load %d[%i], %b[%i] to %s : !tmap, !bar -> memref<64x64xf16, 3>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @load_element_type(%d: !tmap, %b: !bar, %s: memref<64x64xbf16, 3>, %i: index) {
  // expected-error @below {{the element type of tensor map descriptor and memref must be same}}
  nvgpu.tma.async.load %d[%i, %i], %b[%i] to %s : !tmap, !bar -> memref<64x64xbf16, 3>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @swizzled_row_bytes(%d: !tmap, %s: memref<64x32xf16, 3>, %i: index) {
  // expected-error @below {{the tensormap descriptor must have last dimension of 128 bytes but it is 64 bytes}}
  nvgpu.tma.async.store %s to %d[%i, %i] : memref<64x32xf16, 3> -> !tmap
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_32b, l2promo = none, oob = zero, interleave = none>
func.func @swizzle_span(%t: memref<*xf16>, %c: index) {
  // expected-error @below {{the tensormap descriptor must have last dimension of 32 bytes but it is 128 bytes}}
  %d = nvgpu.tma.create.descriptor %t box[%c, %c] : memref<*xf16> -> !tmap
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<512x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @box_too_large(%t: memref<*xf16>, %c: index) {
  // expected-error @below {{the tensor map descriptor must have dimensions between 1 and 256 but it is 512}}
  %d = nvgpu.tma.create.descriptor %t box[%c, %c] : memref<*xf16> -> !tmap
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @box_in_global(%t: memref<*xf16>, %c: index) {
  // expected-error @below {{the tensor map descriptor has incorrect address space, it must be shared memory address space.}}
  %d = nvgpu.tma.create.descriptor %t box[%c, %c] : memref<*xf16> -> !tmap
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = interleave_16b>
func.func @interleave(%t: memref<*xf16>, %c: index) {
  // expected-error @below {{Interleave options are not supported yet.}}
  %d = nvgpu.tma.create.descriptor %t box[%c, %c] : memref<*xf16> -> !tmap
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
func.func @create_ranked(%t: memref<64x64xf16>, %c: index) {
  // expected-error @below {{expected an unranked memref type}}
  %d = nvgpu.tma.create.descriptor %t box[%c, %c] : memref<64x64xf16> -> !tmap
  return
}

// -----

func.func @swizzle_keyword(%t: memref<*xf16>, %c: index) {
  // expected-error @below {{expected ::mlir::nvgpu::TensorMapSwizzleKind to be one of: none, swizzle_32b, swizzle_64b, swizzle_128b}}
  %d = nvgpu.tma.create.descriptor %t box[%c, %c] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_16b, l2promo = none, oob = zero, interleave = none>
  return
}

// -----

func.func @missing_parameter(%t: memref<*xf16>, %c: index) {
  // expected-error @below {{struct is missing required parameter: oob}}
  %d = nvgpu.tma.create.descriptor %t box[%c, %c] : memref<*xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = none, l2promo = none, interleave = none>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, 3>, swizzle = swizzle_64b, l2promo = none, oob = zero, interleave = none>
func.func @descriptor_swizzle(%s: memref<64x32xf16, 3>, %d: !tmap) {
  // expected-error @below {{supports only swizzle_128b is supported for the time being}}
  %g = nvgpu.warpgroup.generate.descriptor %s, %d : memref<64x32xf16, 3>, !tmap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf16, 3>>
  return
}

// -----

!tmap = !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @descriptor_needs_128b(%s: memref<64x32xf16, 3>, %d: !tmap) {
  // expected-error @below {{supports only swizzle_128b is supported for the time being}}
  %g = nvgpu.warpgroup.generate.descriptor %s, %d : memref<64x32xf16, 3>, !tmap -> !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf16, 3>>
  return
}

// -----

!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<32x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
func.func @wgmma_k(%a: !descA, %b: !descB, %c: !acc) {
  // expected-error @below {{'nvgpu.warpgroup.mma' op 2nd dim matrix-A (16)!= 1st dim matrix-B (32 )}}
  %d = nvgpu.warpgroup.mma %a, %b, %c : !descA, !descB, !acc -> !acc
  return
}

// -----

!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x64xf32>>
func.func @wgmma_m(%a: !descA, %b: !descB, %c: !acc) {
  // expected-error @below {{'nvgpu.warpgroup.mma' op 1st dim matrix-A ( 64 )!= 1st dim matrix-C ( 128 )}}
  %d = nvgpu.warpgroup.mma %a, %b, %c : !descA, !descB, !acc -> !acc
  return
}

// -----

!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x32xf32>>
func.func @wgmma_n(%a: !descA, %b: !descB, %c: !acc) {
  // expected-error @below {{'nvgpu.warpgroup.mma' op 2nd dim matrix-B ( 64 ) != 2nd dim matrix-C ( 32 )}}
  %d = nvgpu.warpgroup.mma %a, %b, %c : !descA, !descB, !acc -> !acc
  return
}

// -----

!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf32, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf32, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
func.func @wgmma_types(%a: !descA, %b: !descB, %c: !acc) {
  // expected-error @below {{'nvgpu.warpgroup.mma' op 'f32' += 'f32' * 'f32', it is not supported.}}
  %d = nvgpu.warpgroup.mma %a, %b, %c : !descA, !descB, !acc -> !acc
  return
}

// -----

!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<16x12xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x12xf32>>
func.func @wgmma_n_size(%a: !descA, %b: !descB, %c: !acc) {
  // expected-error @below {{'nvgpu.warpgroup.mma' op has input type 'memref<16x12xf16, 3 : i64>' n is set to 12, it is not supported}}
  %d = nvgpu.warpgroup.mma %a, %b, %c : !descA, !descB, !acc -> !acc
  return
}

// -----

!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
func.func @wgmma_transpose_a(%a: !descA, %b: !descB, %c: !acc) {
  // expected-error @below {{'nvgpu.warpgroup.mma' op supports non-transpose A (Row Major) and transpose B (Column Major) for the time being}}
  %d = nvgpu.warpgroup.mma %a, %b, %c transposeA : !descA, !descB, !acc -> !acc
  return
}

// -----

!descA = !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>
!descB = !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
func.func @wgmma_result(%a: !descA, %b: !descB, %c: !acc) {
  // expected-error @below {{'nvgpu.warpgroup.mma' op type of matrix C and matrix D must be the same}}
  %d = nvgpu.warpgroup.mma %a, %b, %c : !descA, !descB, !acc -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf16>>
  return
}

// -----

func.func @accumulator_m() {
  // expected-error @below {{'nvgpu.warpgroup.mma.init.accumulator' op has type 'vector<32x64xf32>'. It does not fit into warp-group level (wgmma) matrix multiplication instruction (or not supported yet)}}
  %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<32x64xf32>>
  return
}

// -----

func.func @accumulator_n() {
  // expected-error @below {{'nvgpu.warpgroup.mma.init.accumulator' op has type 'vector<64x260xf32>'. It does not fit}}
  %acc = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x260xf32>>
  return
}

// -----

func.func @store_shape(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %m: memref<64x32xf32, 3>) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op results ['vector<64x64xf32>'][64] values. However, destination memref[64][32]  does not have same size as results}}
  nvgpu.warpgroup.mma.store %d, %m : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x32xf32, 3>
  return
}

// -----

// schedir stores f32 accumulators into f32, f16 or bf16 memrefs, not others.
func.func @store_i32(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>, %m: memref<64x?xi32, 3>) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op destination element type i32 is not f32, f16 or bf16}}
  nvgpu.warpgroup.mma.store %d, %m : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> to memref<64x?xi32, 3>
  return
}

// -----

func.func @store_f16(%d: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf16>>, %m: memref<64x64xf16, 3>) {
  // expected-error @below {{'nvgpu.warpgroup.mma.store' op hit a limitation: only f32 results for the time being}}
  nvgpu.warpgroup.mma.store %d, %m : !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf16>> to memref<64x64xf16, 3>
  return
}

// -----

func.func @ldmatrix_global(%m: memref<64x32xf16>, %i: index) {
  // expected-error @below {{expected nvgpu.ldmatrix srcMemref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)}}
  %a = nvgpu.ldmatrix %m[%i, %i] numTiles = 4 transpose = false : memref<64x32xf16> -> vector<4x2xf16>
  return
}

// -----

func.func @ldmatrix_tiles(%m: memref<64x32xf16, 3>, %i: index) {
  // expected-error @below {{expected vector register shape[0] and numTiles to match}}
  %a = nvgpu.ldmatrix %m[%i, %i] numTiles = 2 transpose = false : memref<64x32xf16, 3> -> vector<4x2xf16>
  return
}

// -----

func.func @ldmatrix_transpose_8bit(%m: memref<64x32xi8, 3>, %i: index) {
  // expected-error @below {{nvgpu.ldmatrix transpose works only at 16b granularity}}
  %a = nvgpu.ldmatrix %m[%i, %i] numTiles = 4 transpose = true : memref<64x32xi8, 3> -> vector<4x4xi8>
  return
}

// -----

func.func @ldmatrix_lanes(%m: memref<64x32xf16, 3>, %i: index) {
  // expected-error @below {{expected vector register shape[1] = 2}}
  %a = nvgpu.ldmatrix %m[%i, %i] numTiles = 4 transpose = false : memref<64x32xf16, 3> -> vector<4x4xf16>
  return
}

// -----

func.func @ldmatrix_element(%m: memref<64x32xf16, 3>, %i: index) {
  // expected-error @below {{'nvgpu.ldmatrix' op failed to verify that srcMemref and res have same element type}}
  %a = nvgpu.ldmatrix %m[%i, %i] numTiles = 4 transpose = false : memref<64x32xf16, 3> -> vector<4x2xbf16>
  return
}

// -----

func.func @ldmatrix_needs_tiles(%m: memref<64x32xf16, 3>, %i: index) {
  // expected-error @below {{expected 'numTiles'}}
  %a = nvgpu.ldmatrix %m[%i, %i] transpose = false : memref<64x32xf16, 3> -> vector<4x2xf16>
  return
}

// -----

func.func @mma_a_elements(%a: vector<4x4xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) {
  // expected-error @below {{'nvgpu.mma.sync' op expected 256 warp-wide matrix A elements}}
  %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x4xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return
}

// -----

func.func @mma_c_elements(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<4x2xf32>) {
  // expected-error @below {{'nvgpu.mma.sync' op expected 128 warp-wide matrix C elements}}
  %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<4x2xf32>) -> vector<4x2xf32>
  return
}

// -----

func.func @mma_tf32(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) {
  // expected-error @below {{'nvgpu.mma.sync' op expected tf32 tensor cores only for F32 operands}}
  %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] tf32Enabled : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return
}

// -----

func.func @mma_b_shape(%a: vector<4x2xf16>, %b: vector<1x4xf16>, %c: vector<2x2xf32>) {
  // expected-error @below {{'nvgpu.mma.sync' op expected matrix B to be shaped (2 x 2)}}
  %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<1x4xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return
}

// -----

func.func @mma_element_types(%a: vector<4x2xf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) {
  // expected-error @below {{'nvgpu.mma.sync' op failed to verify that matrixA and matrixB have same element type}}
  %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return
}

// -----

func.func @mma_data_type(%a: vector<4x2xi16>, %b: vector<2x2xi16>, %c: vector<2x2xi32>) {
  // expected-error @below {{expected input data type (i4,i8,f16,bf16,tf32,f64) supported by nvgpu.mma.sync}}
  %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xi16>, vector<2x2xi16>, vector<2x2xi32>) -> vector<2x2xi32>
  return
}

// -----

func.func @copy_size(%g: memref<16xf32>, %s: memref<16xf32, 3>, %i: index) {
  // expected-error @below {{Requested copy elements is 3 with width 32. But copy elements could be one of 1, 2, 4.}}
  %t = nvgpu.device_async_copy %g[%i], %s[%i], 3 : memref<16xf32> to memref<16xf32, 3>
  return
}

// -----

func.func @copy_bypass(%g: memref<16xf32>, %s: memref<16xf32, 3>, %i: index) {
  // expected-error @below {{'nvgpu.device_async_copy' op bypassL1 does not satify alignment for 'memref<16xf32, 3 : i64>' with destination element 2. Unset bypassL1, or set destination element to 4}}
  %t = nvgpu.device_async_copy %g[%i], %s[%i], 2 bypassL1 : memref<16xf32> to memref<16xf32, 3>
  return
}

// -----

func.func @copy_to_global(%g: memref<16xf32>, %s: memref<16xf32>, %i: index) {
  // expected-error @below {{destination memref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)}}
  %t = nvgpu.device_async_copy %g[%i], %s[%i], 4 : memref<16xf32> to memref<16xf32>
  return
}

// -----

func.func @copy_indices(%g: memref<16x16xf32>, %s: memref<16xf32, 3>, %i: index) {
  // expected-error @below {{'nvgpu.device_async_copy' op expected 2 source indices, got 1}}
  %t = nvgpu.device_async_copy %g[%i], %s[%i], 4 : memref<16x16xf32> to memref<16xf32, 3>
  return
}

// -----

func.func @copy_strided(%g: memref<16x16xf32, strided<[16, 2]>>, %s: memref<16xf32, 3>, %i: index) {
  // expected-error @below {{source memref most minor dim must have unit stride}}
  %t = nvgpu.device_async_copy %g[%i, %i], %s[%i], 4 : memref<16x16xf32, strided<[16, 2]>> to memref<16xf32, 3>
  return
}

// -----

func.func @copy_element(%g: memref<16xf16>, %s: memref<16xf32, 3>, %i: index) {
  // expected-error @below {{source and destination must have the same element type}}
  %t = nvgpu.device_async_copy %g[%i], %s[%i], 4 : memref<16xf16> to memref<16xf32, 3>
  return
}

// -----

func.func @barrier_count() {
  // expected-error @+1 {{an mbarrier group holds at least one barrier}}
  %b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 0>
  return
}

// -----

func.func @barrier_parameter() {
  // expected-error @below {{'mbarrier.group' has no parameter 'count'}}
  %b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, count = 2>
  return
}

// -----

func.func @barrier_type(%i: index) {
  // expected-error @below {{expected !nvgpu.mbarrier.group}}
  %b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.token
  return
}
