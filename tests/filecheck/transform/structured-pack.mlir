// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// Packing m by 4 and k by 2 (n untouched): every operand indexed by a packed loop is
// packed (with a zero padding value: 13 and 9 are not multiples), the op becomes a
// generic with the tile loops appended, and the packed result is unpacked into %C.
// CHECK-LABEL: func.func @matmul
// CHECK:         %[[EA:.*]] = tensor.empty() : tensor<4x5x4x2xf32>
// CHECK:         %[[PA:.*]] = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %[[EA]] : tensor<13x9xf32> -> tensor<4x5x4x2xf32>
// CHECK:         %[[PB:.*]] = linalg.pack %{{.*}} inner_dims_pos = [0] inner_tiles = [2] into %{{.*}} : tensor<9x7xf32> -> tensor<5x7x2xf32>
// CHECK:         %[[PC:.*]] = linalg.pack %{{.*}} inner_dims_pos = [0] inner_tiles = [4] into %{{.*}} : tensor<13x7xf32> -> tensor<4x7x4xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>], iterator_types = ["parallel", "parallel", "reduction", "parallel", "reduction"]}
// CHECK-SAME:      ins(%[[PA]], %[[PB]] : tensor<4x5x4x2xf32>, tensor<5x7x2xf32>) outs(%[[PC]] : tensor<4x7x4xf32>)
// CHECK-SAME:      attrs = {packed}
// CHECK:         linalg.unpack %[[G]] inner_dims_pos = [0] inner_tiles = [4] into %{{.*}} : tensor<4x7x4xf32> -> tensor<13x7xf32>
module attributes {transform.with_named_sequence} {
  func.func @matmul(%A: tensor<13x9xf32>, %B: tensor<9x7xf32>, %C: tensor<13x7xf32>) -> tensor<13x7xf32> {
    %0 = linalg.matmul ins(%A, %B : tensor<13x9xf32>, tensor<9x7xf32>) outs(%C : tensor<13x7xf32>) -> tensor<13x7xf32>
    return %0 : tensor<13x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.pack %m packed_sizes = [4, 0, 2] : (!transform.any_op) -> !transform.op<"linalg.generic">
    transform.annotate %p "packed" : !transform.op<"linalg.generic">
    transform.yield
  }
}

// -----

// Sizes that divide the dimensions need no padding value.
// CHECK-LABEL: func.func @exact
// CHECK:         linalg.pack %{{.*}} inner_dims_pos = [0, 1] inner_tiles = [4, 3] into
// CHECK-NOT:     padding_value
// CHECK:         linalg.generic
module attributes {transform.with_named_sequence} {
  func.func @exact(%A: tensor<8x6xf32>, %B: tensor<8x6xf32>) -> tensor<8x6xf32> {
    %0 = linalg.copy ins(%A : tensor<8x6xf32>) outs(%B : tensor<8x6xf32>) -> tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.pack %m packed_sizes = [4, 3] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @count(%A: tensor<13x9xf32>, %B: tensor<9x7xf32>, %C: tensor<13x7xf32>) -> tensor<13x7xf32> {
    %0 = linalg.matmul ins(%A, %B : tensor<13x9xf32>, tensor<9x7xf32>) outs(%C : tensor<13x7xf32>) -> tensor<13x7xf32>
    return %0 : tensor<13x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{requires number of packed sizes match the number of loops (2 vs 3)}}
    %p = transform.structured.pack %m packed_sizes = [4, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @two(%A: tensor<8xf32>, %B: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = linalg.copy ins(%A : tensor<8xf32>) outs(%B : tensor<8xf32>) -> tensor<8xf32>
    %1 = linalg.copy ins(%A : tensor<8xf32>) outs(%B : tensor<8xf32>) -> tensor<8xf32>
    return %0, %1 : tensor<8xf32>, tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{requires target to map to exactly 1 LinalgOp (got 2)}}
    %p = transform.structured.pack %m packed_sizes = [4] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// pack_transpose of the packed B: outer and inner dimensions swapped in the pack and in
// the generic's map of B.
// CHECK-LABEL: func.func @transpose
// CHECK:         %[[PB:.*]] = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 3] into %{{.*}} : tensor<9x7xf32> -> tensor<3x5x2x3xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>]
// CHECK-SAME:      ins(%{{.*}}, %[[PB]] :
module attributes {transform.with_named_sequence} {
  func.func @transpose(%A: tensor<13x9xf32>, %B: tensor<9x7xf32>, %C: tensor<13x7xf32>) -> tensor<13x7xf32> {
    %0 = linalg.matmul ins(%A, %B : tensor<13x9xf32>, tensor<9x7xf32>) outs(%C : tensor<13x7xf32>) -> tensor<13x7xf32>
    return %0 : tensor<13x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.pack %m packed_sizes = [4, 3, 2] : (!transform.any_op) -> !transform.any_op
    %packs = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.split_handle %packs : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %g, %pb, %u = transform.structured.pack_transpose %b with_compute_op(%p) outer_perm = [1, 0] inner_perm = [1, 0] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @bad_inner(%A: tensor<13x9xf32>, %B: tensor<9x7xf32>, %C: tensor<13x7xf32>) -> tensor<13x7xf32> {
    %0 = linalg.matmul ins(%A, %B : tensor<13x9xf32>, tensor<9x7xf32>) outs(%C : tensor<13x7xf32>) -> tensor<13x7xf32>
    return %0 : tensor<13x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.pack %m packed_sizes = [4, 3, 2] : (!transform.any_op) -> !transform.any_op
    %packs = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.split_handle %packs : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{invalid inner_perm}}
    %g, %pb, %u = transform.structured.pack_transpose %a with_compute_op(%p) inner_perm = [1, 0, 2] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{"outer_perm" is not a valid permutation}}
    %g, %pb, %u = transform.structured.pack_transpose %a with_compute_op(%a) outer_perm = [1, 1] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
