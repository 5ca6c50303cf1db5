// RUN: %roundtrip | filecheck %s

// ldmatrix and mma.sync in upstream's syntax: printed, parsed again and printed the same.

// CHECK-LABEL: func.func @warp
// CHECK:         %[[A:.*]] = nvgpu.ldmatrix %[[SM:.*]][%[[I:.*]], %[[I]]] numTiles = 4 transpose = false : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:         %[[B:.*]] = nvgpu.ldmatrix %[[SM]][%[[I]], %[[I]]] numTiles = 2 transpose = true : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK:         %{{.*}} = nvgpu.ldmatrix %{{.*}}[%[[I]]] numTiles = 1 transpose = false : memref<128xi8, 3 : i64> -> vector<1x4xi8>
// CHECK:         %{{.*}} = nvgpu.mma.sync(%[[A]], %[[B]], %[[C:.*]]) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:         %{{.*}} = nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) mmaShape = [16, 8, 8] tf32Enabled : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:         %{{.*}} = nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) mmaShape = [8, 8, 4] : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
// CHECK:         %{{.*}} = nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) mmaShape = [16, 8, 32] : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
func.func @warp(%sm: memref<64x32xf16, #gpu.address_space<workgroup>>, %i: index, %c: vector<2x2xf32>, %ta: vector<4x1xf32>, %tb: vector<2x1xf32>, %da: vector<1x1xf64>, %dc: vector<1x2xf64>, %ia: vector<4x4xi8>, %ib: vector<2x4xi8>, %ic: vector<2x2xi32>, %s8: memref<128xi8, 3>) {
  %a = nvgpu.ldmatrix %sm[%i, %i] numTiles = 4 transpose = false : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
  %b = nvgpu.ldmatrix %sm[%i, %i] transpose = true numTiles = 2 : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
  %e = nvgpu.ldmatrix %s8[%i] numTiles = 1 transpose = false : memref<128xi8, 3> -> vector<1x4xi8>
  %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %t = nvgpu.mma.sync(%ta, %tb, %c) mmaShape = [16, 8, 8] tf32Enabled : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  %f = nvgpu.mma.sync(%da, %da, %dc) mmaShape = [8, 8, 4] : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
  %g = nvgpu.mma.sync(%ia, %ib, %ic) mmaShape = [16, 8, 32] : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
  return
}
