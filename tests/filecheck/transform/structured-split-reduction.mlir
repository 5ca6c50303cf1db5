// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// k = 32 splits into 4 parallel chunks of 8 (the chunk dim inserted at position 2 of the
// partials); the four result handles are the partials' empty, their fill, the split op
// and the combining op.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  (%[[A:.*]]: tensor<16x32xf32>, %[[B:.*]]: tensor<32x24xf32>, %[[C:.*]]: tensor<16x24xf32>)
// CHECK-DAG:   %[[EA:.*]] = tensor.expand_shape %[[A]] {{\[}}[0], [1, 2]] output_shape [16, 4, 8] : tensor<16x32xf32> into tensor<16x4x8xf32>
// CHECK-DAG:   %[[EB:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1], [2]] output_shape [4, 8, 24] : tensor<32x24xf32> into tensor<4x8x24xf32>
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<16x24x4xf32>
// CHECK:       %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[F:.*]] = linalg.fill {fill} ins(%[[Z]] : f32) outs(%[[E]] : tensor<16x24x4xf32>)
// CHECK:       %[[P:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[EA]], %[[EB]] : tensor<16x4x8xf32>, tensor<4x8x24xf32>) outs(%[[F]] : tensor<16x24x4xf32>) attrs = {split}
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[P]] : tensor<16x24x4xf32>) outs(%[[C]] : tensor<16x24xf32>) attrs = {combining}
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>, %c: tensor<16x24xf32>) -> tensor<16x24xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x24xf32>) outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
    return %0 : tensor<16x24xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %init, %fill, %split, %comb = transform.structured.split_reduction %m <{split_factor = 4, insert_split_dimension = 2}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %empty = transform.cast %init : !transform.any_op to !transform.op<"tensor.empty">
    transform.annotate %fill "fill" : !transform.any_op
    transform.annotate %split "split" : !transform.any_op
    transform.annotate %comb "combining" : !transform.any_op
    transform.yield
  }
}

// -----

// inner_parallel: the inner chunk is parallel (k = k0 * 4 + k1, k1 parallel); the
// partials' dim goes to position 0.
// CHECK-LABEL: func.func @inner_parallel
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [4, 4, 4]
// CHECK:       tensor.empty() : tensor<4x4xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
module attributes {transform.with_named_sequence} {
  func.func @inner_parallel(%I: tensor<4x16xf32>, %O: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%I : tensor<4x16xf32>) outs(%O : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.addf %acc, %in : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1:4 = transform.structured.split_reduction %m <{split_factor = 4, insert_split_dimension = 0, inner_parallel}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The scaling algorithm reindexes k as k0 * 4 + k1 with a shape-only i1 operand; max
// reductions start from -inf, and use_alloc makes the partials a bufferization.alloc_tensor.
// CHECK-LABEL: func.func @scaling
// CHECK:       %[[T:.*]] = bufferization.alloc_tensor() : tensor<4x4xf32>
// CHECK:       %[[NINF:.*]] = arith.constant 0x{{[fF]}}{{[fF]}}800000 : f32
// CHECK:       %[[F:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[T]] : tensor<4x4xf32>)
// CHECK:       %[[SH:.*]] = tensor.empty() : tensor<4x4xi1>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, {{\(?}}{{\(?}}d1 * 4{{\)?}} + d2{{\)?}})>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[SH]] : tensor<4x16xf32>, tensor<4x4xi1>) outs(%[[F]] : tensor<4x4xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32, %{{.*}}: i1, %{{.*}}: f32):
// CHECK:         arith.maximumf
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK:         arith.maximumf
module attributes {transform.with_named_sequence} {
  func.func @scaling(%I: tensor<4x16xf32>, %O: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%I : tensor<4x16xf32>) outs(%O : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.maximumf %acc, %in : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1:4 = transform.structured.split_reduction %m <{split_factor = 4, insert_split_dimension = 1, use_scaling_algorithm, use_alloc}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A split factor that does not divide the reduction: upstream's default definite failure.
module attributes {transform.with_named_sequence} {
  func.func @not_divisible(%I: tensor<4x15xf32>, %O: tensor<4xf32>) -> tensor<4xf32> {
    // expected-note @below {{attempted to apply to this op}}
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%I : tensor<4x15xf32>) outs(%O : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.addf %acc, %in : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %m = transform.structured.match ops{["linalg.generic"]} in %r : (!transform.any_op) -> !transform.any_op
      // expected-error @below {{failed to apply}}
      %1:4 = transform.structured.split_reduction %m <{split_factor = 4}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      transform.yield
    }
    transform.yield
  }
}

// -----

// A subtracting reduction has no neutral element.
module attributes {transform.with_named_sequence} {
  func.func @subtracting(%I: tensor<4x16xf32>, %O: tensor<4xf32>) -> tensor<4xf32> {
    // expected-note @below {{attempted to apply to this op}}
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%I : tensor<4x16xf32>) outs(%O : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.subf %acc, %in : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to apply}}
    %1:4 = transform.structured.split_reduction %m <{split_factor = 4, insert_split_dimension = 1}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Scaling with a dynamic parallel size: the partials take it from the init; the reduced
// loop's `linalg.index` becomes `k0 * 5 + k1` and the later loop's index shifts by one.
// CHECK-LABEL: func.func @scaling_dynamic_indexed
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[D:.*]] = tensor.dim %{{.*}}, %[[C0]] : tensor<?x3xi32>
// CHECK:       tensor.empty(%[[D]]) : tensor<?x2x3xi32>
// CHECK:       tensor.empty() : tensor<2x5xi1>
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK:       %[[P:.*]] = linalg.index 1 : index
// CHECK:       %[[R:.*]] = linalg.index 2 : index
// CHECK:       affine.apply affine_map<()[s0, s1] -> (s0 * 5 + s1)>()[%[[P]], %[[R]]]
// CHECK:       linalg.index 3 : index
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "reduction", "parallel"]
module attributes {transform.with_named_sequence} {
  func.func @scaling_dynamic_indexed(%A: tensor<?x10x3xi32>, %O: tensor<?x3xi32>) -> tensor<?x3xi32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (i, k, l)>, affine_map<(i, k, l) -> (i, l)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%A : tensor<?x10x3xi32>) outs(%O : tensor<?x3xi32>) {
    ^bb0(%a: i32, %acc: i32):
      %k = linalg.index 1 : index
      %l = linalg.index 2 : index
      %kl = arith.addi %k, %l : index
      %c = arith.index_cast %kl : index to i32
      %x = arith.addi %a, %c : i32
      %s = arith.addi %acc, %x : i32
      linalg.yield %s : i32
    } -> tensor<?x3xi32>
    return %r : tensor<?x3xi32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1:4 = transform.structured.split_reduction %m <{split_factor = 5, insert_split_dimension = 1, use_scaling_algorithm}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
