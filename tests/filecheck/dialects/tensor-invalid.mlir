// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @extract_size_mismatch(%t: tensor<128x64xf32>) {
  // expected-error @below {{expected type to be 'tensor<32x16xf32>' or a rank-reduced version. (size mismatch)}}
  %x = tensor.extract_slice %t[0, 0] [32, 16] [1, 1] : tensor<128x64xf32> to tensor<32x8xf32>
  return
}

// -----

func.func @extract_element_type(%t: tensor<128x64xf32>) {
  // expected-error @below {{expected element type to be 'f32'}}
  %x = tensor.extract_slice %t[0, 0] [32, 16] [1, 1] : tensor<128x64xf32> to tensor<32x16xf16>
  return
}

// -----

func.func @extract_rank_too_large(%t: tensor<128x64xf32>) {
  // expected-error @below {{expected rank to be smaller or equal to the other rank}}
  %x = tensor.extract_slice %t[0, 0] [32, 16] [1, 1] : tensor<128x64xf32> to tensor<1x32x16xf32>
  return
}

// -----

func.func @extract_offset_count(%t: tensor<128x64xf32>) {
  // expected-error @below {{expected 2 offset values, got 3}}
  %x = tensor.extract_slice %t[0, 0, 0] [32, 16, 1] [1, 1, 1] : tensor<128x64xf32> to tensor<32x16xf32>
  return
}

// -----

func.func @extract_out_of_bounds(%t: tensor<128x64xf32>) {
  // expected-error @below {{slice along dimension 0 runs out-of-bounds: 151 >= 128}}
  %x = tensor.extract_slice %t[120, 0] [32, 16] [1, 1] : tensor<128x64xf32> to tensor<32x16xf32>
  return
}

// -----

func.func @extract_negative_size(%t: tensor<128x64xf32>) {
  // expected-error @below {{expected sizes to be non-negative, but got -1}}
  %x = tensor.extract_slice %t[0, 0] [32, -1] [1, 1] : tensor<128x64xf32> to tensor<32x8xf32>
  return
}

// -----

func.func @insert_size_mismatch(%t: tensor<128x64xf32>, %s: tensor<32x8xf32>) {
  // expected-error @below {{expected type to be 'tensor<32x16xf32>' or a rank-reduced version. (size mismatch)}}
  %x = tensor.insert_slice %s into %t[0, 0] [32, 16] [1, 1] : tensor<32x8xf32> into tensor<128x64xf32>
  return
}

// -----

func.func @parallel_insert_outside_forall(%t: tensor<128x64xf32>, %s: tensor<32x16xf32>) {
  // expected-error @below {{expected InParallelOpInterface parent, got:}}
  tensor.parallel_insert_slice %s into %t[0, 0] [32, 16] [1, 1] : tensor<32x16xf32> into tensor<128x64xf32>
  return
}

// -----

func.func @parallel_insert_size(%t: tensor<128x64xf32>, %s: tensor<32x16xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<128x64xf32>) {
    scf.forall.in_parallel {
      // expected-error @below {{expected type to be 'tensor<32x8xf32>' or a rank-reduced version. (size mismatch)}}
      tensor.parallel_insert_slice %s into %o[0, 0] [32, 8] [1, 1] : tensor<32x16xf32> into tensor<128x64xf32>
    }
  }
  return
}

// -----

func.func @parallel_insert_ranks(%t: tensor<128x64xf32>, %s: tensor<32x16xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<128x64xf32>) {
    scf.forall.in_parallel {
      // expected-error @below {{expected mixed offsets rank to match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed}}
      tensor.parallel_insert_slice %s into %o[0] [32, 16] [1, 1] : tensor<32x16xf32> into tensor<128x64xf32>
    }
  }
  return
}

// -----

func.func @generate_extents(%n: index, %f: f32) {
  // expected-error @below {{incorrect number of dynamic sizes, has 2, expected 1}}
  %g = tensor.generate %n, %n {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f32
  } : tensor<?x3xf32>
  return
}

// -----

func.func @generate_yield_type(%n: index, %f: f16) {
  // expected-error @below {{body must be terminated with a `yield` operation of the tensor element type}}
  %g = tensor.generate %n {
  ^bb0(%a: index, %b: index):
    tensor.yield %f : f16
  } : tensor<?x3xf32>
  return
}
