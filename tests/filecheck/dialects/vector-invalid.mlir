// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// Verifier errors of the vector dialect: upstream MLIR gives the same ones on the same
// lines (tests/unit/dialects/test_upstream_oracle.py checks).

func.func @c1(%a: vector<2x3xf32>, %b: vector<4x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{invalid contracting dimension map}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<4x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

func.func @c2(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{expected at least one contracting dimension pair}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "parallel"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

func.func @c3(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  // expected-error @below {{expected an indexing map for each vector operand}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

func.func @t1(%m: memref<8x8xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error @below {{requires 2 indices}}
  %0 = vector.transfer_read %m[%i], %p : memref<8x8xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @t2(%m: memref<8x8xf32>, %i: index, %p: f32) -> vector<4x4xf32> {
  // expected-error @below {{requires a permutation_map that is a permutation (found one dim used more than once)}}
  %0 = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d0, d0)>} : memref<8x8xf32>, vector<4x4xf32>
  return %0 : vector<4x4xf32>
}

// -----

func.func @t3(%m: memref<8x8xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error @below {{expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
  %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true]} : memref<8x8xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @e1(%v: vector<2x3xf32>) -> f32 {
  // expected-error @below {{expected position attribute #2 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %v[1, 5] : f32 from vector<2x3xf32>
  return %0 : f32
}

// -----

func.func @i1(%v: vector<2x3xf32>, %s: f32) -> vector<2x3xf32> {
  // expected-error @below {{expected position attribute rank to match the dest vector rank}}
  %0 = vector.insert %s, %v [1] : f32 into vector<2x3xf32>
  return %0 : vector<2x3xf32>
}

// -----

func.func @b1(%v: vector<3xf32>) -> vector<2x4xf32> {
  // expected-error @below {{dimension mismatch (3 vs. 4)}}
  %0 = vector.broadcast %v : vector<3xf32> to vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

func.func @s1(%v: vector<2x3xf32>) -> vector<5xf32> {
  // expected-error @below {{has different number of elements at source (6) and result (5)}}
  %0 = vector.shape_cast %v : vector<2x3xf32> to vector<5xf32>
  return %0 : vector<5xf32>
}

// -----

func.func @tr1(%v: vector<2x3xf32>) -> vector<3x2xf32> {
  // expected-error @below {{dimension size mismatch at: 0}}
  %0 = vector.transpose %v, [0, 0] : vector<2x3xf32> to vector<3x2xf32>
  return %0 : vector<3x2xf32>
}

// -----

func.func @mr1(%v: vector<2x3xf32>, %a: vector<3xf32>) -> vector<3xf32> {
  // expected-error @below {{destination type 'vector<3xf32>' is incompatible with source type 'vector<2x3xf32>'}}
  %0 = vector.multi_reduction <add>, %v, %a [1] : vector<2x3xf32> to vector<3xf32>
  return %0 : vector<3xf32>
}

// -----

func.func @r1(%v: vector<4xf32>) -> f32 {
  // expected-error @below {{unsupported reduction type ''f32'' for kind 'xor'}}
  %0 = vector.reduction <xor>, %v : vector<4xf32> into f32
  return %0 : f32
}

// -----

func.func @sh1(%v: vector<4xf32>) -> vector<2xf32> {
  // expected-error @below {{mask index #2 out of range}}
  %0 = vector.shuffle %v, %v [0, 9] : vector<4xf32>, vector<4xf32>
  return %0 : vector<2xf32>
}

// -----

func.func @ess(%v: vector<8xf32>) -> vector<4xf32> {
  // expected-error @below {{expected sum(offsets, sizes) dimension 0 to be confined to [1, 9)}}
  %0 = vector.extract_strided_slice %v offsets = [6], sizes = [4], strides = [1] : vector<8xf32> to vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @cm(%n: index) -> vector<4xi1> {
  // expected-error @below {{array attr of size out of bounds of vector result dimension size}}
  %0 = vector.constant_mask [5] : vector<4xi1>
  return %0 : vector<4xi1>
}

// -----

func.func @ld(%m: memref<8xf32>, %i: index) -> vector<4xf16> {
  // expected-error @below {{base and result element types should match}}
  %0 = vector.load %m[%i] : memref<8xf32>, vector<4xf16>
  return %0 : vector<4xf16>
}

// -----

func.func @bc(%v: vector<4xf32>) -> vector<3xi32> {
  // expected-error @below {{source/result bitwidth of the minor 1-D vectors must be equal}}
  %0 = vector.bitcast %v : vector<4xf32> to vector<3xi32>
  return %0 : vector<3xi32>
}

// -----

func.func @mk(%v: vector<4xf32>, %m: vector<8xi1>) -> f32 {
  // expected-error @below {{expects a 'vector<4xi1>' mask for the maskable operation}}
  %0 = vector.mask %m { vector.reduction <add>, %v : vector<4xf32> into f32 } : vector<8xi1> -> f32
  return %0 : f32
}
