// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @matmul_operand_shape(%a: tensor<4x8xf32>, %b: tensor<7x5xf32>, %c: tensor<4x5xf32>) {
  // expected-error @below {{inferred input/output operand #1 has shape's dimension #0 to be 8, but found 7}}
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<7x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @matmul_init_shape(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x6xf32>) {
  // expected-error @below {{inferred input/output operand #2 has shape's dimension #1 to be 5, but found 6}}
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @matmul_result_type(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) {
  // expected-error @below {{expected type of operand #2 ('tensor<4x5xf32>') to match type of corresponding result ('tensor<4x6xf32>')}}
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @matmul_rank(%a: tensor<4x8x2xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) {
  // expected-error @below {{expected operand #0 rank (3) to match the result rank of indexing_map (2)}}
  %r = linalg.matmul ins(%a, %b : tensor<4x8x2xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @matmul_transposed_maps(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) {
  // expected-error @below {{inferred input/output operand #1 has shape's dimension #1 to be 8, but found 5}}
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @batch_matmul_batch(%a: tensor<2x4x8xf16>, %b: tensor<3x8x5xf16>, %c: tensor<2x4x5xf32>) {
  // expected-error @below {{inferred input/output operand #1 has shape's dimension #0 to be 2, but found 3}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf16>, tensor<3x8x5xf16>) outs(%c : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return
}

// -----

func.func @matvec_shape(%a: tensor<4x8xf32>, %x: tensor<9xf32>, %y: tensor<4xf32>) {
  // expected-error @below {{inferred input/output operand #1 has shape's dimension #0 to be 8, but found 9}}
  %r = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<9xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @fill_value_type(%a: tensor<4x8xf32>, %v: f16) {
  // expected-error @below {{expected fill value type ('f16') to match output element type ('f32')}}
  %r = linalg.fill ins(%v : f16) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @mixed_semantics(%a: tensor<4x8xf32>, %m: memref<4x8xf32>) {
  // expected-error @below {{expected to have pure tensor or buffer semantics}}
  linalg.copy ins(%a : tensor<4x8xf32>) outs(%m : memref<4x8xf32>)
  return
}

// -----

func.func @conv_strides(%i: tensor<1x10x10x3xf32>, %k: tensor<3x3x3x8xf32>, %o: tensor<1x8x8x8xf32>) {
  // expected-error @below {{inferred input/output operand #0 has shape's dimension #1 to be greater than or equal to 17, but found 10}}
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @transpose_dims(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) {
  // expected-error @below {{dim(result, 1) = 5 doesn't match dim(input, permutation[1]) = 4}}
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x5xf32>) permutation = [1, 0]
  return
}

// -----

func.func @transpose_permutation(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @below {{permutation is not valid}}
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 1]
  return
}

// -----

func.func @broadcast_dims(%a: tensor<4xf32>, %b: tensor<4x8xf32>) {
  // expected-error @below {{input dim 0 should match init dim 1. input: 4, init: 8}}
  %t = linalg.broadcast ins(%a : tensor<4xf32>) outs(%b : tensor<4x8xf32>) dimensions = [0]
  return
}

// -----

func.func @broadcast_rank(%a: tensor<4xf32>, %b: tensor<4x8xf32>) {
  // expected-error @below {{input rank plus added dimensions does not match init rank. input rank: 1, dimensions size: 2, init rank: 2}}
  %t = linalg.broadcast ins(%a : tensor<4xf32>) outs(%b : tensor<4x8xf32>) dimensions = [1, 2]
  return
}

// -----

func.func @reduce_init_shape(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @below {{init dimensions [8] doesn't match input dimensions after reduction [4]}}
  %t = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%b : tensor<8xf32>) dimensions = [1]
  return
}

// -----

func.func @reduce_dimension_range(%a: tensor<4x8xf32>, %b: tensor<4xf32>) {
  // expected-error @below {{dimensions for reduction should be in the range [0, 1]}}
  %t = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%b : tensor<4xf32>) dimensions = [2]
  return
}

// -----

func.func @reduce_init_rank(%a: tensor<4x8xf32>, %c: tensor<4x5xf32>) {
  // expected-error @below {{number of dimensions after reduction 1 doesn't match the init rank 2}}
  %t = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x5xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      linalg.yield %x : f32
    }
  return
}

// -----

func.func @map_shape(%a: tensor<4x8xf32>, %b: tensor<4x4xf32>) {
  // expected-error @below {{expected shape of input (4, 8) to match shape of output (4, 4)}}
  %t = linalg.map { arith.addf } ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x4xf32>)
  return
}

// -----

func.func @map_arity(%a: tensor<4x8xf32>) {
  // expected-error @below {{expects number of operands to match the arity of mapper, but got: 2 and 1}}
  %t = linalg.map ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
    (%x: f32) {
      linalg.yield %x : f32
    }
  return
}

// -----

func.func @softmax_dimension(%a: tensor<4x8xf32>) {
  // expected-error @below {{incorrect dimension specified}}
  %t = linalg.softmax dimension(2) ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @softmax_shape(%a: tensor<4x8xf32>, %b: tensor<4x9xf32>) {
  // expected-error @below {{incompatible output shape}}
  %t = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x9xf32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @generic_map_count(%a: tensor<4x8xf32>) {
  // expected-error @below {{expected the number of indexing_map (1) to be equal to the number of input/output operands (2)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @generic_non_invertible(%a: tensor<4x8xf32>) {
  // expected-error @below {{invalid indexing maps are non-invertible: ((d0, d1) -> (d0, d0, d0, d0))}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d0)>, affine_map<(d0, d1) -> (d0, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @generic_bb_arg_type(%a: tensor<4x8xf32>) {
  // expected-error @below {{expected type of bb argument #0 ('f16') to match element or self type of the corresponding operand ('f32')}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f16, %y: f32):
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @generic_bb_arg_count(%a: tensor<4x8xf32>) {
  // expected-error @below {{expected as many non-induction variable region arguments as the number of input/output operands}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @generic_min_shape(%a: tensor<4x8xf32>) {
  // expected-error @below {{inferred input/output operand #0 has shape's dimension #1 to be greater than or equal to 9, but found 8}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 + 1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @yield_type(%a: tensor<4x8xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %i = arith.constant 1 : i32
    // expected-error @below {{type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')}}
    linalg.yield %i : i32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @yield_count(%a: tensor<4x8xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @below {{expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)}}
    linalg.yield %x, %y : f32, f32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @index_dim(%a: tensor<4x8xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error @below {{expected dim (2) to be lower than the number of loops (2) of the enclosing LinalgOp}}
    %i = linalg.index 2 : index
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_lhs_uses_n(%a: tensor<5x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) {
  // expected-error @below {{dim expression in map result}}
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<5x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}
