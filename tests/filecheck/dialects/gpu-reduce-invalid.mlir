// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// The verifiers of gpu.subgroup_reduce and gpu.all_reduce, with upstream's messages
// (mlir/test/Dialect/GPU/invalid.mlir).

func.func @cluster_size_not_power_of_two(%v: f32) {
  // expected-error @below {{cluster size 3 is not a power of two}}
  %a = gpu.subgroup_reduce add %v cluster(size = 3) : (f32) -> f32
  return
}

// -----

func.func @cluster_stride_not_power_of_two(%v: f32) {
  // expected-error @below {{cluster stride 6 is not a power of two}}
  %a = gpu.subgroup_reduce add %v cluster(size = 4, stride = 6) : (f32) -> f32
  return
}

// -----

func.func @xor_of_floats(%v: f32) {
  // expected-error @below {{`xor` reduction operation is not compatible with type 'f32'}}
  %a = gpu.subgroup_reduce xor %v : (f32) -> f32
  return
}

// -----

func.func @maxnumf_of_integers(%v: i32) {
  // expected-error @below {{`maxnumf` reduction operation is not compatible with type 'i32'}}
  %a = gpu.subgroup_reduce maxnumf %v : (i32) -> i32
  return
}

// -----

func.func @vector_of_rank_two(%v: vector<2x2xf32>) {
  // expected-error @below {{must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<2x2xf32>'}}
  %a = gpu.subgroup_reduce add %v : (vector<2x2xf32>) -> vector<2x2xf32>
  return
}

// -----

func.func @result_type(%v: f32) {
  // expected-error @below {{requires the same type for all operands and results}}
  %a = gpu.subgroup_reduce add %v : (f32) -> f16
  return
}

// -----

func.func @unknown_operation(%v: f32) {
  // expected-error @below {{containing one of the following enum values for attribute 'op'}}
  %a = gpu.subgroup_reduce sum %v : (f32) -> f32
  return
}

// -----

func.func @neither_op_nor_body(%v: f32) {
  // expected-error @below {{expected either an op attribute or a non-empty body}}
  %a = gpu.all_reduce %v {} : (f32) -> f32
  return
}

// -----

func.func @both_op_and_body(%v: f32) {
  // expected-error @below {{expected either an op attribute or a non-empty body}}
  %a = gpu.all_reduce add %v {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    gpu.yield %s : f32
  } : (f32) -> f32
  return
}

// -----

func.func @and_of_floats(%v: f32) {
  // expected-error @below {{`and` reduction operation is not compatible with type 'f32'}}
  %a = gpu.all_reduce and %v {} : (f32) -> f32
  return
}

// -----

func.func @all_reduce_of_vector(%v: vector<4xf32>) {
  // expected-error @below {{must be Integer or Float, but got 'vector<4xf32>'}}
  %a = gpu.all_reduce add %v {} : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @region_arguments(%v: f32) {
  // expected-error @below {{expected two region arguments}}
  %a = gpu.all_reduce %v {
  ^bb0(%l: f32):
    gpu.yield %l : f32
  } : (f32) -> f32
  return
}
