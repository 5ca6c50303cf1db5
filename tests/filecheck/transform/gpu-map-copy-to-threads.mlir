// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// transform.structured.gpu.map_copy_to_threads (upstream: mlir/test/Dialect/Linalg/
// transform-op-gpu-map-copy-to-threads.mlir): the vector size of the most minor dimension
// and the threads per dimension come from upstream's CopyMappingInfo; the forall is mapped
// to linear thread ids, the most minor dimension on linear_dim_0.

// CHECK-LABEL: func.func @copy_8xf16_32_128
// CHECK:         scf.forall ({{.*}}) in (1) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<8xf16>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_8xf16_32_128(%t0: tensor<8xf16>, %out: tensor<8xf16>) -> tensor<8xf16> {
    %0 = linalg.copy ins(%t0 : tensor<8xf16>) outs(%out : tensor<8xf16>) -> tensor<8xf16>
    return %0 : tensor<8xf16>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_16xf16_32_128
// CHECK:         scf.forall ({{.*}}) in (2) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<8xf16>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_16xf16_32_128(%t0: tensor<16xf16>, %out: tensor<16xf16>) -> tensor<16xf16> {
    %0 = linalg.copy ins(%t0 : tensor<16xf16>) outs(%out : tensor<16xf16>) -> tensor<16xf16>
    return %0 : tensor<16xf16>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_20xf16_32_128
// CHECK:         scf.forall ({{.*}}) in (5) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<4xf16>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_20xf16_32_128(%t0: tensor<20xf16>, %out: tensor<20xf16>) -> tensor<20xf16> {
    %0 = linalg.copy ins(%t0 : tensor<20xf16>) outs(%out : tensor<20xf16>) -> tensor<20xf16>
    return %0 : tensor<20xf16>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_128xf16_32_128
// CHECK:         scf.forall ({{.*}}) in (32) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<4xf16>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_128xf16_32_128(%t0: tensor<128xf16>, %out: tensor<128xf16>) -> tensor<128xf16> {
    %0 = linalg.copy ins(%t0 : tensor<128xf16>) outs(%out : tensor<128xf16>) -> tensor<128xf16>
    return %0 : tensor<128xf16>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_256xf16_32_128
// CHECK:         scf.forall ({{.*}}) in (32) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<8xf16>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_256xf16_32_128(%t0: tensor<256xf16>, %out: tensor<256xf16>) -> tensor<256xf16> {
    %0 = linalg.copy ins(%t0 : tensor<256xf16>) outs(%out : tensor<256xf16>) -> tensor<256xf16>
    return %0 : tensor<256xf16>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_16x32x64xi8_32_128
// CHECK:         scf.forall ({{.*}}) in (1, 8, 4) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<16x4x16xi8>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_2>, #gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_16x32x64xi8_32_128(%t0: tensor<16x32x64xi8>, %out: tensor<16x32x64xi8>) -> tensor<16x32x64xi8> {
    %0 = linalg.copy ins(%t0 : tensor<16x32x64xi8>) outs(%out : tensor<16x32x64xi8>) -> tensor<16x32x64xi8>
    return %0 : tensor<16x32x64xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_16x32x64xi8_32_64
// CHECK:         scf.forall ({{.*}}) in (1, 4, 8) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<16x8x8xi8>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_2>, #gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_16x32x64xi8_32_64(%t0: tensor<16x32x64xi8>, %out: tensor<16x32x64xi8>) -> tensor<16x32x64xi8> {
    %0 = linalg.copy ins(%t0 : tensor<16x32x64xi8>) outs(%out : tensor<16x32x64xi8>) -> tensor<16x32x64xi8>
    return %0 : tensor<16x32x64xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 64 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_4x8x16xi8_32_128
// CHECK:         scf.forall ({{.*}}) in (4, 8, 1) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<1x1x16xi8>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_2>, #gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_4x8x16xi8_32_128(%t0: tensor<4x8x16xi8>, %out: tensor<4x8x16xi8>) -> tensor<4x8x16xi8> {
    %0 = linalg.copy ins(%t0 : tensor<4x8x16xi8>) outs(%out : tensor<4x8x16xi8>) -> tensor<4x8x16xi8>
    return %0 : tensor<4x8x16xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_4x8x16xi8_32_8
// CHECK:         scf.forall ({{.*}}) in (1, 2, 16) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<4x4x1xi8>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_2>, #gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_4x8x16xi8_32_8(%t0: tensor<4x8x16xi8>, %out: tensor<4x8x16xi8>) -> tensor<4x8x16xi8> {
    %0 = linalg.copy ins(%t0 : tensor<4x8x16xi8>) outs(%out : tensor<4x8x16xi8>) -> tensor<4x8x16xi8>
    return %0 : tensor<4x8x16xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 8 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_3x5x7xi8_32_8
// CHECK:         scf.forall ({{.*}}) in (3, 1, 7) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<1x5x1xi8>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_2>, #gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_3x5x7xi8_32_8(%t0: tensor<3x5x7xi8>, %out: tensor<3x5x7xi8>) -> tensor<3x5x7xi8> {
    %0 = linalg.copy ins(%t0 : tensor<3x5x7xi8>) outs(%out : tensor<3x5x7xi8>) -> tensor<3x5x7xi8>
    return %0 : tensor<3x5x7xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 8 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_16x15x5xi8_128_8
// CHECK:         scf.forall ({{.*}}) in (8, 3, 5) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<2x5x1xi8>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_2>, #gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_16x15x5xi8_128_8(%t0: tensor<16x15x5xi8>, %out: tensor<16x15x5xi8>) -> tensor<16x15x5xi8> {
    %0 = linalg.copy ins(%t0 : tensor<16x15x5xi8>) outs(%out : tensor<16x15x5xi8>) -> tensor<16x15x5xi8>
    return %0 : tensor<16x15x5xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 128 desired_bit_alignment = 8 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @copy_16x15x40xi8_128_64
// CHECK:         scf.forall ({{.*}}) in (8, 3, 5) shared_outs
// CHECK:           linalg.copy {{.*}} -> tensor<2x5x8xi8>
// CHECK:         } {mapping = [#gpu.thread<linear_dim_2>, #gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
module attributes {transform.with_named_sequence} {
  func.func @copy_16x15x40xi8_128_64(%t0: tensor<16x15x40xi8>, %out: tensor<16x15x40xi8>) -> tensor<16x15x40xi8> {
    %0 = linalg.copy ins(%t0 : tensor<16x15x40xi8>) outs(%out : tensor<16x15x40xi8>) -> tensor<16x15x40xi8>
    return %0 : tensor<16x15x40xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 128 desired_bit_alignment = 64 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @copy_fails_1024xf16(%t0: tensor<1024xf16>, %out: tensor<1024xf16>) -> tensor<1024xf16> {
    // expected-note @below {{target op}}
    %0 = linalg.copy ins(%t0 : tensor<1024xf16>) outs(%out : tensor<1024xf16>) -> tensor<1024xf16>
    return %0 : tensor<1024xf16>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too few threads to map copy op to threads on the most minor dimension, given alignment and vector size constraints, try smaller tile size of mapping to more threads}}
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @copy_fails_257xf16(%t0: tensor<257xf16>, %out: tensor<257xf16>) -> tensor<257xf16> {
    // expected-note @below {{target op}}
    %0 = linalg.copy ins(%t0 : tensor<257xf16>) outs(%out : tensor<257xf16>) -> tensor<257xf16>
    return %0 : tensor<257xf16>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too few threads to map copy op to threads on the most minor dimension, given alignment and vector size constraints, try smaller tile size of mapping to more threads}}
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @copy_fails_512xi8(%t0: tensor<512xi8>, %out: tensor<512xi8>) -> tensor<512xi8> {
    // expected-note @below {{target op}}
    %0 = linalg.copy ins(%t0 : tensor<512xi8>) outs(%out : tensor<512xi8>) -> tensor<512xi8>
    return %0 : tensor<512xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too few threads to map copy op to threads on the most minor dimension, given alignment and vector size constraints, try smaller tile size of mapping to more threads}}
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 8 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @copy_fails_16x32x64xi8(%t0: tensor<16x32x64xi8>, %out: tensor<16x32x64xi8>) -> tensor<16x32x64xi8> {
    // expected-note @below {{target op}}
    %0 = linalg.copy ins(%t0 : tensor<16x32x64xi8>) outs(%out : tensor<16x32x64xi8>) -> tensor<16x32x64xi8>
    return %0 : tensor<16x32x64xi8>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too few threads to map copy op to threads on the most minor dimension, given alignment and vector size constraints, try smaller tile size of mapping to more threads}}
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 8 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_a_copy(%t0: tensor<8xf32>) -> tensor<8xf32> {
    %c = arith.constant 0.0 : f32
    // expected-note @below {{target op}}
    %0 = linalg.fill ins(%c : f32) outs(%t0 : tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only linalg.copy and tensor.pad target ops are supported}}
    %f, %c = transform.structured.gpu.map_copy_to_threads %0 total_num_threads = 32 desired_bit_alignment = 128 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
