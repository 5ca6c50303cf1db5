// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @zero_tile(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error @below {{invalid zero tile factor}}
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 0] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %p : tensor<2x2x8x8xf32>
}

// -----

func.func @repeated_pos(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error @below {{invalid inner_dims_pos vector}}
  %p = linalg.pack %s inner_dims_pos = [0, 0] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %p : tensor<2x2x8x8xf32>
}

// -----

func.func @short_perm(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error @below {{outer_dims_perm must be a permutation or empty}}
  %p = linalg.pack %s outer_dims_perm = [0] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %p : tensor<2x2x8x8xf32>
}

// -----

func.func @tile_count(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error @below {{tiling factors must equal the number of dimensions to tile}}
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %p : tensor<2x2x8x8xf32>
}

// -----

func.func @rank(%s: tensor<16x16xf32>, %d: tensor<2x2x8xf32>) -> tensor<2x2x8xf32> {
  // expected-error @below {{packed rank != (unpacked rank + num tiling factors), got 3 != 4}}
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8xf32>
  return %p : tensor<2x2x8xf32>
}

// -----

func.func @outer_shape(%s: tensor<16x16xf32>, %d: tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> {
  // expected-error @below {{expected 'tensor<2x2x8x8xf32>' for the packed domain value, got 'tensor<1x2x8x8xf32>'}}
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<1x2x8x8xf32>
  return %p : tensor<1x2x8x8xf32>
}

// -----

func.func @inner_shape(%s: tensor<16x16xf32>, %d: tensor<2x2x8x4xf32>) -> tensor<2x2x8x4xf32> {
  // expected-error @below {{mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type at index 1: got 4 != 8}}
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<16x16xf32> -> tensor<2x2x8x4xf32>
  return %p : tensor<2x2x8x4xf32>
}

// -----

func.func @dynamic_tile_static_dim(%s: tensor<16x16xf32>, %d: tensor<2x2x8x8xf32>, %t: index) -> tensor<2x2x8x8xf32> {
  // expected-error @below {{mismatch in inner tile sizes specified at index 1: got static shape 8 but dynamic tile size}}
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, %t] into %d : tensor<16x16xf32> -> tensor<2x2x8x8xf32>
  return %p : tensor<2x2x8x8xf32>
}

// -----

func.func @partial_without_padding(%s: tensor<15x16xf32>, %d: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
  // expected-error @below {{'linalg.pack' op invalid tile factor or output size provided. Only full tiles are supported when padding_value is not set}}
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<15x16xf32> -> tensor<2x2x8x8xf32>
  return %p : tensor<2x2x8x8xf32>
}

// -----

func.func @padding_type(%s: tensor<15x16xf32>, %d: tensor<2x2x8x8xf32>, %v: f16) -> tensor<2x2x8x8xf32> {
  // expected-error @below {{'linalg.pack' op expected padding_value has 'f32' but got: 'f16'}}
  %p = linalg.pack %s padding_value(%v : f16) inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<15x16xf32> -> tensor<2x2x8x8xf32>
  return %p : tensor<2x2x8x8xf32>
}

// -----

func.func @unpack_shape(%s: tensor<2x2x8x8xf32>, %d: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @below {{expected 'tensor<2x4x8x8xf32>' for the packed domain value, got 'tensor<2x2x8x8xf32>'}}
  %p = linalg.unpack %s inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %d : tensor<2x2x8x8xf32> -> tensor<16x32xf32>
  return %p : tensor<16x32xf32>
}
