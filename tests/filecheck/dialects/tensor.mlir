// RUN: %roundtrip | filecheck %s

// CHECK-LABEL: func.func @tensor_ops
func.func @tensor_ops(%t: tensor<128x64xf32>, %s: tensor<32x16xf32>, %d: tensor<?x?xf32>, %i: index, %j: index, %f: f32) {
  // CHECK: %e0 = tensor.empty() : tensor<4x8xf32>
  %e0 = tensor.empty() : tensor<4x8xf32>
  // CHECK: %e1 = tensor.empty(%i, %j) : tensor<?x4x?xf32>
  %e1 = tensor.empty(%i, %j) : tensor<?x4x?xf32>
  // CHECK: %x0 = tensor.extract_slice %t[0, 0] [32, 16] [1, 1] : tensor<128x64xf32> to tensor<32x16xf32>
  %x0 = tensor.extract_slice %t[0, 0] [32, 16] [1, 1] : tensor<128x64xf32> to tensor<32x16xf32>
  // Rank-reducing.
  // CHECK: %x1 = tensor.extract_slice %t[%i, 0] [1, 16] [1, 1] : tensor<128x64xf32> to tensor<16xf32>
  %x1 = tensor.extract_slice %t[%i, 0] [1, 16] [1, 1] : tensor<128x64xf32> to tensor<16xf32>
  // Dynamic offsets, sizes and strides.
  // CHECK: %x2 = tensor.extract_slice %d[%i, %j] [%j, 4] [2, %i] : tensor<?x?xf32> to tensor<?x4xf32>
  %x2 = tensor.extract_slice %d[%i, %j] [%j, 4] [2, %i] : tensor<?x?xf32> to tensor<?x4xf32>
  // CHECK: %i0 = tensor.insert_slice %s into %t[0, %i] [32, 16] [1, 1] : tensor<32x16xf32> into tensor<128x64xf32>
  %i0 = tensor.insert_slice %s into %t[0, %i] [32, 16] [1, 1] : tensor<32x16xf32> into tensor<128x64xf32>
  // CHECK: %i1 = tensor.insert_slice %x1 into %t[%i, 0] [1, 16] [1, 1] : tensor<16xf32> into tensor<128x64xf32>
  %i1 = tensor.insert_slice %x1 into %t[%i, 0] [1, 16] [1, 1] : tensor<16xf32> into tensor<128x64xf32>
  // CHECK:      %p0 = tensor.pad %s low[1, 2] high[3, 4] {
  // CHECK-NEXT: ^bb0(%a: index, %b: index):
  // CHECK-NEXT:   tensor.yield %f : f32
  // CHECK-NEXT: } : tensor<32x16xf32> to tensor<36x22xf32>
  %p0 = tensor.pad %s low[1, 2] high[3, 4] {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f32
  } : tensor<32x16xf32> to tensor<36x22xf32>
  // CHECK: %p1 = tensor.pad %s nofold low[%i, 0] high[0, %j] {
  // CHECK: } : tensor<32x16xf32> to tensor<?x?xf32>
  %p1 = tensor.pad %s nofold low[%i, 0] high[0, %j] {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f32
  } : tensor<32x16xf32> to tensor<?x?xf32>
  // CHECK: %dim = tensor.dim %d, %i : tensor<?x?xf32>
  %dim = tensor.dim %d, %i : tensor<?x?xf32>
  // CHECK: %el = tensor.extract %t[%i, %j] : tensor<128x64xf32>
  %el = tensor.extract %t[%i, %j] : tensor<128x64xf32>
  // CHECK: %in = tensor.insert %f into %t[%i, %j] : tensor<128x64xf32>
  %in = tensor.insert %f into %t[%i, %j] : tensor<128x64xf32>
  // CHECK: %c = tensor.cast %t : tensor<128x64xf32> to tensor<?x64xf32>
  %c = tensor.cast %t : tensor<128x64xf32> to tensor<?x64xf32>
  // CHECK: %cs = tensor.collapse_shape %t {{\[\[}}0, 1]] : tensor<128x64xf32> into tensor<8192xf32>
  %cs = tensor.collapse_shape %t [[0, 1]] : tensor<128x64xf32> into tensor<8192xf32>
  // CHECK: %es = tensor.expand_shape %t {{\[\[}}0, 1], [2]] output_shape [2, 64, 64] : tensor<128x64xf32> into tensor<2x64x64xf32>
  %es = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 64, 64] : tensor<128x64xf32> into tensor<2x64x64xf32>
  // CHECK: %es2 = tensor.expand_shape %d {{\[\[}}0, 1], [2]] output_shape [%i, 4, %j] : tensor<?x?xf32> into tensor<?x4x?xf32>
  %es2 = tensor.expand_shape %d [[0, 1], [2]] output_shape [%i, 4, %j] : tensor<?x?xf32> into tensor<?x4x?xf32>
  // CHECK: %fe = tensor.from_elements %f, %f : tensor<2xf32>
  %fe = tensor.from_elements %f, %f : tensor<2xf32>
  // CHECK:      %g = tensor.generate %i {
  // CHECK-NEXT: ^bb0(%a_2: index, %b_2: index):
  // CHECK-NEXT:   tensor.yield %f : f32
  // CHECK-NEXT: } : tensor<?x3xf32>
  %g = tensor.generate %i {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f32
  } : tensor<?x3xf32>
  // CHECK: %sp = tensor.splat %f : tensor<4x4xf32>
  %sp = tensor.splat %f : tensor<4x4xf32>
  // CHECK: %sp2 = tensor.splat %f[%i] : tensor<?x4xf32>
  %sp2 = tensor.splat %f[%i] : tensor<?x4xf32>
  // CHECK: %cc = tensor.concat dim(0) %t, %t : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<256x64xf32>
  %cc = tensor.concat dim(0) %t, %t : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<256x64xf32>
  return
}

// Element types.

// CHECK-LABEL: func.func @element_types
func.func @element_types(%a: tensor<8xf64>, %b: tensor<8xf16>, %c: tensor<8xbf16>, %d: tensor<8xi32>, %e: tensor<8xi64>, %f: tensor<8xi8>, %g: tensor<8xi1>) {
  // CHECK: tensor.extract_slice %a[0] [4] [1] : tensor<8xf64> to tensor<4xf64>
  %0 = tensor.extract_slice %a[0] [4] [1] : tensor<8xf64> to tensor<4xf64>
  // CHECK: tensor.extract_slice %b[0] [4] [1] : tensor<8xf16> to tensor<4xf16>
  %1 = tensor.extract_slice %b[0] [4] [1] : tensor<8xf16> to tensor<4xf16>
  // CHECK: tensor.extract_slice %c[0] [4] [2] : tensor<8xbf16> to tensor<4xbf16>
  %2 = tensor.extract_slice %c[0] [4] [2] : tensor<8xbf16> to tensor<4xbf16>
  // CHECK: tensor.insert_slice %{{.*}} into %d[4] [4] [1] : tensor<4xi32> into tensor<8xi32>
  %3 = tensor.extract_slice %d[0] [4] [1] : tensor<8xi32> to tensor<4xi32>
  %4 = tensor.insert_slice %3 into %d[4] [4] [1] : tensor<4xi32> into tensor<8xi32>
  // CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1xi64> into tensor<i64>
  %5 = tensor.extract_slice %e[0] [1] [1] : tensor<8xi64> to tensor<1xi64>
  %6 = tensor.collapse_shape %5 [] : tensor<1xi64> into tensor<i64>
  // CHECK: tensor.cast %f : tensor<8xi8> to tensor<?xi8>
  %7 = tensor.cast %f : tensor<8xi8> to tensor<?xi8>
  // CHECK: tensor.empty() : tensor<2x2xi1>
  %8 = tensor.empty() : tensor<2x2xi1>
  return
}
