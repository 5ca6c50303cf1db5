// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// m, n, k of a 13x9 by 9x7 matmul go to positions 0, 2, 1 of the last three loops
// (loops (m, k, n)); m is packed by 4, n by 3, and k padded to the next multiple of 5
// (one tile of 10).
// CHECK-DAG: #[[$A:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>
// CHECK-DAG: #[[$C:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>
// CHECK-LABEL: func.func @matmul_odd
// CHECK:         %[[PA:.*]] = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) inner_dims_pos = [0, 1] inner_tiles = [4, 10] into %{{.*}} : tensor<13x9xf32> -> tensor<4x1x4x10xf32>
// CHECK:         %[[PB:.*]] = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) inner_dims_pos = [0, 1] inner_tiles = [10, 3] into %{{.*}} : tensor<9x7xf32> -> tensor<1x3x10x3xf32>
// CHECK:         %[[PC:.*]] = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) inner_dims_pos = [0, 1] inner_tiles = [4, 3] into %{{.*}} : tensor<13x7xf32> -> tensor<4x3x4x3xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction", "parallel"]} ins(%[[PA]], %[[PB]] : tensor<4x1x4x10xf32>, tensor<1x3x10x3xf32>) outs(%[[PC]] : tensor<4x3x4x3xf32>)
// CHECK:         linalg.unpack %[[G]] inner_dims_pos = [0, 1] inner_tiles = [4, 3] into %{{.*}} : tensor<4x3x4x3xf32> -> tensor<13x7xf32>
module attributes {transform.with_named_sequence} {
  func.func @matmul_odd(%a: tensor<13x9xf32>, %b: tensor<9x7xf32>, %c: tensor<13x7xf32>) -> tensor<13x7xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<13x9xf32>, tensor<9x7xf32>) outs(%c : tensor<13x7xf32>) -> tensor<13x7xf32>
    return %0 : tensor<13x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.pack_greedily %m matmul_packed_sizes = [4, 3, 0]
        matmul_padded_sizes_next_multiple_of = [0, 0, 5] matmul_inner_dims_order = [0, 2, 1]
        : (!transform.any_op) -> !transform.op<"linalg.generic">
    transform.yield
  }
}

// -----

// Ops without a matmul stay as they are and are returned as they are (a matvec: two
// loops; a generic whose reduction loop does not index the right-hand side: no k); an
// op that is not structured is dropped from the result.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     linalg.pack
// CHECK:         linalg.matvec {kept}
// CHECK:         linalg.generic {{.*}} attrs = {kept}
// CHECK:         return %{{.*}}, %{{.*}} : tensor<5xf32>, tensor<5x3xf32>{{$}}
module attributes {transform.with_named_sequence} {
  func.func @kept(%a: tensor<5x7xf32>, %x: tensor<7xf32>, %y: tensor<5xf32>, %b: tensor<3xf32>, %c: tensor<5x3xf32>) -> (tensor<5xf32>, tensor<5x3xf32>) {
    %0 = linalg.matvec ins(%a, %x : tensor<5x7xf32>, tensor<7xf32>) outs(%y : tensor<5xf32>) -> tensor<5xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(m, n, r) -> (m, r)>, affine_map<(m, n, r) -> (n)>, affine_map<(m, n, r) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<5x7xf32>, tensor<3xf32>) outs(%c : tensor<5x3xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.mulf %p, %q : f32
      %t = arith.addf %o, %s : f32
      linalg.yield %t : f32
    } -> tensor<5x3xf32>
    return %0, %1 : tensor<5xf32>, tensor<5x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mv = transform.structured.match ops{["linalg.matvec"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %all = transform.merge_handles %mv, %g, %r : !transform.any_op
    %p = transform.structured.pack_greedily %all matmul_packed_sizes = [2, 2, 2]
        matmul_inner_dims_order = [0, 1, 2] : (!transform.any_op) -> !transform.any_op
    transform.annotate %p "kept" : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{'transform.structured.pack_greedily' op "matmul_inner_dims_order" is not a valid permutation}}
    %p = transform.structured.pack_greedily %root matmul_packed_sizes = [2, 2, 2]
        matmul_inner_dims_order = [0, 2, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{at most one of the packed_size and the padded_sizes_next_multiple_of can be nonzero for the matmul strategy}}
    %p = transform.structured.pack_greedily %root matmul_packed_sizes = [2, 2, 2]
        matmul_padded_sizes_next_multiple_of = [0, 4, 0]
        matmul_inner_dims_order = [0, 1, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{attribute 'static_matmul_packed_sizes' failed to satisfy constraint: i64 dense array attribute with exactly 3 elements}}
    %p = transform.structured.pack_greedily %root matmul_packed_sizes = [2, 2]
        matmul_inner_dims_order = [0, 1, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
