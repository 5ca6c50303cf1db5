// RUN: schedir-opt %s | filecheck %s

// The legacy spelling of nvgpu properties (an attr-dict, before upstream printed them as
// keywords) is read; the keyword spelling is printed.

// CHECK-LABEL: func.func @legacy
// CHECK:         nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] numTiles = 4 transpose = false : memref
// CHECK:         nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) mmaShape = [16, 8, 16] : (
// CHECK:         nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) mmaShape = [16, 8, 8] tf32Enabled : (
// CHECK:         nvgpu.device_async_copy %{{.*}}, 4 bypassL1 {note = 1 : i64} : memref
// CHECK:         nvgpu.device_async_wait %{{.*}} numGroups = 2
// CHECK:         nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} transposeB : <tensor
func.func @legacy(%sm: memref<64x32xf16, 3>, %i: index, %c: vector<2x2xf32>, %b: vector<2x2xf16>,
                  %ta: vector<4x1xf32>, %tb: vector<2x1xf32>, %g: memref<16xf32>, %s: memref<16xf32, 3>,
                  %da: !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>,
                  %db: !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf16, 3>>,
                  %acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>) {
  %a = nvgpu.ldmatrix %sm[%i, %i] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, 3> -> vector<4x2xf16>
  %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %t = nvgpu.mma.sync (%ta, %tb, %c) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  %cp = nvgpu.device_async_copy %g[%i], %s[%i], 4 {bypassL1, note = 1} : memref<16xf32> to memref<16xf32, 3>
  nvgpu.device_async_wait %cp {numGroups = 2 : i32}
  %r = nvgpu.warpgroup.mma %da, %db, %acc {transposeB} : !nvgpu.warpgroup.descriptor<tensor = memref<64x16xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<16x64xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
  return
}
