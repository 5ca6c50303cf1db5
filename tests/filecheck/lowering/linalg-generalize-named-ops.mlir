// RUN: schedir-opt %s --mlir-print-local-scope -p linalg-generalize-named-ops --split-input-file | filecheck %s

// CHECK-LABEL: func.func @matmul_fill
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x5xf32>, %[[V:.*]]: f32)
// CHECK:         %[[F:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[V]] : f32) outs(%{{.*}} : tensor<4x5xf32>)
// CHECK:           linalg.yield
// CHECK:         %[[M:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x5xf32>) outs(%[[F]] : tensor<4x5xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         return %[[M]]
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     linalg.fill
func.func @matmul_fill(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %v: f32) -> tensor<4x5xf32> {
  %e = tensor.empty() : tensor<4x5xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%f : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %m : tensor<4x5xf32>
}

// -----

// On buffers too; generic ops and softmax are left alone.
// CHECK-LABEL: func.func @buffers
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : memref<3x2xf32>) outs(%{{.*}} : memref<2x3xf32>)
// CHECK:         linalg.softmax
// CHECK-NOT:     linalg.transpose
func.func @buffers(%t: memref<3x2xf32>, %u: memref<2x3xf32>, %x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  linalg.transpose ins(%t : memref<3x2xf32>) outs(%u : memref<2x3xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<2x3xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
