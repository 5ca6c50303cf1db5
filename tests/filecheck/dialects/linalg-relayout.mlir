// RUN: %roundtrip | filecheck %s

// linalg.pack / linalg.unpack print as upstream: optional padding value and outer
// permutation, static and dynamic tiles.
// CHECK-LABEL: func.func @pack_unpack
// CHECK:         linalg.pack %{{.*}} padding_value(%{{.*}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %{{.*}} : tensor<13x15xf32> -> tensor<2x4x4x8xf32>
// CHECK:         linalg.unpack %{{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %{{.*}} : tensor<2x4x4x8xf32> -> tensor<13x15xf32>
func.func @pack_unpack(%a: tensor<13x15xf32>, %d: tensor<2x4x4x8xf32>, %v: f32) -> tensor<13x15xf32> {
  %p = linalg.pack %a padding_value(%v : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %d : tensor<13x15xf32> -> tensor<2x4x4x8xf32>
  %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %a : tensor<2x4x4x8xf32> -> tensor<13x15xf32>
  return %u : tensor<13x15xf32>
}

// CHECK-LABEL: func.func @dynamic_tile
// CHECK:         linalg.pack %{{.*}} inner_dims_pos = [1] inner_tiles = [%{{.*}}] into %{{.*}} : tensor<?x16xf32> -> tensor<?x?x?xf32>
// CHECK:         linalg.unpack %{{.*}} inner_dims_pos = [1] inner_tiles = [%{{.*}}] into %{{.*}} : tensor<?x?x?xf32> -> tensor<?x16xf32>
func.func @dynamic_tile(%a: tensor<?x16xf32>, %d: tensor<?x?x?xf32>, %t: index) -> tensor<?x16xf32> {
  %p = linalg.pack %a inner_dims_pos = [1] inner_tiles = [%t] into %d : tensor<?x16xf32> -> tensor<?x?x?xf32>
  %u = linalg.unpack %p inner_dims_pos = [1] inner_tiles = [%t] into %a : tensor<?x?x?xf32> -> tensor<?x16xf32>
  return %u : tensor<?x16xf32>
}
