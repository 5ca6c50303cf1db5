// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A matmul tiled by 3 along M is padded to 4 rows: every operand M indexes is padded to
// 4 rows (`4 - size` at the high end), the result is sliced back to the tile's size.

// CHECK-DAG:   #[[$HIGH:.*]] = affine_map<(d0) -> (-d0 + 4)>
// CHECK-LABEL: func.func @pad_m
// CHECK:       scf.for
// CHECK:         %[[SZ:.*]] = affine.min
// CHECK:         %[[H:.*]] = affine.apply #[[$HIGH]](%[[SZ]])
// CHECK:         tensor.pad %{{.*}} low[0, 0] high[%[[H]], 0]
// CHECK:         } : tensor<?x6xf32> to tensor<4x6xf32>
// CHECK:         tensor.pad
// CHECK:         } : tensor<6x5xf32> to tensor<6x5xf32>
// CHECK:         tensor.pad
// CHECK:         } : tensor<?x5xf32> to tensor<4x5xf32>
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x6xf32>, tensor<6x5xf32>) outs(%{{.*}} : tensor<4x5xf32>)
// CHECK:         tensor.extract_slice %[[MM]][0, 0] [%[[SZ]], 5] [1, 1] : tensor<4x5xf32> to tensor<?x5xf32>
func.func @pad_m(%a: tensor<11x6xf32>, %b: tensor<6x5xf32>, %c: tensor<11x5xf32>) -> tensor<11x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<11x6xf32>, tensor<6x5xf32>) outs(%c : tensor<11x5xf32>) -> tensor<11x5xf32>
  return %0 : tensor<11x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pads = transform.structured.pad_tiling_interface %t to padding_sizes [4] padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// To multiples of 8 along d0 and 1 along d1: the output dim `d0 + d1` reaches
// `(ceil8(M) - 1) + (5 - 1)`, so it is padded to `ceil8(M) + 4`; its slice back has
// `M + 5` (the map at the loop sizes, reified from dims of its own before the clone).

// CHECK-DAG:   #[[$H2:.*]] = affine_map<()[s0, s1] -> ((s0 ceildiv 8) * 8 + 4 - s1)>
// CHECK-DAG:   #[[$SZ:.*]] = affine_map<()[s0] -> (s0 + 5)>
// CHECK-LABEL: func.func @multiple_of
// CHECK-SAME:    %[[A:[0-9a-z_]+]]: tensor<?x5xf32>, %[[C:[0-9a-z_]+]]: tensor<?x3x?xf32>
// CHECK:       %[[M:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x5xf32>
// CHECK:       } : tensor<?x5xf32> to tensor<?x5xf32>
// CHECK:       %[[D2:.*]] = tensor.dim %[[C]], %c2 : tensor<?x3x?xf32>
// CHECK:       %[[HI2:.*]] = affine.apply #[[$H2]]()[%[[M]], %[[D2]]]
// CHECK:       tensor.pad %[[C]] low[0, 0, 0] high[%{{.*}}, 0, %[[HI2]]]
// CHECK:       %[[M2:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x5xf32>
// CHECK:       %[[N:.*]] = affine.apply #[[$SZ]]()[%[[M2]]]
// CHECK:       %[[G:.*]] = linalg.generic
// CHECK:       tensor.extract_slice %[[G]][0, 0, 0] [%[[M2]], 3, %[[N]]] [1, 1, 1] : tensor<?x3x?xf32> to tensor<?x3x?xf32>
#in = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d2, d0 + d1)>
func.func @multiple_of(%a: tensor<?x5xf32>, %c: tensor<?x3x?xf32>) -> tensor<?x3x?xf32> {
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a : tensor<?x5xf32>) outs(%c : tensor<?x3x?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<?x3x?xf32>
  return %0 : tensor<?x3x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %p, %pads = transform.structured.pad_tiling_interface %g to padding_sizes [8, 0, 0] pad_to_multiple_of padding_values = [0.0 : f32, 0.0 : f32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Tiled by 4 along M, padded to a multiple of 4: the tile size `min(11 - i, 4)` is
// positive and at most 4, so the padded tile is statically 4 rows (upstream's
// composeAffineMin); to a multiple of 3 it stays dynamic.

// CHECK-LABEL: func.func @multiple_of_tile
// CHECK:         } : tensor<?x6xf32> to tensor<4x6xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x6xf32>, tensor<6x5xf32>) outs(%{{.*}} : tensor<4x5xf32>)
// CHECK-LABEL: func.func @multiple_of_other
// CHECK:         } : tensor<?x6xf32> to tensor<?x6xf32>
func.func @multiple_of_tile(%a: tensor<11x6xf32>, %b: tensor<6x5xf32>, %c: tensor<11x5xf32>) -> tensor<11x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<11x6xf32>, tensor<6x5xf32>) outs(%c : tensor<11x5xf32>) -> tensor<11x5xf32>
  return %0 : tensor<11x5xf32>
}
func.func @multiple_of_other(%a: tensor<11x6xf32>, %b: tensor<6x5xf32>, %c: tensor<11x5xf32>) -> tensor<11x5xf32> {
  %0 = linalg.matmul {other} ins(%a, %b : tensor<11x6xf32>, tensor<6x5xf32>) outs(%c : tensor<11x5xf32>) -> tensor<11x5xf32>
  return %0 : tensor<11x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %one, %other = transform.split_handle %mm : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %l = transform.structured.tile_using_for %one tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pads = transform.structured.pad_tiling_interface %t to padding_sizes [4] pad_to_multiple_of padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %l2 = transform.structured.tile_using_for %other tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p2, %pads2 = transform.structured.pad_tiling_interface %t2 to padding_sizes [3] pad_to_multiple_of padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @not_structured(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{target op}}
  %0 = tensor.empty() : tensor<4xf32>
  return %0 : tensor<4xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["tensor.empty"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected TilingInterface target}}
    %p, %pads = transform.structured.pad_tiling_interface %e to padding_sizes [8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
