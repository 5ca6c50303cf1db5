// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// scf.for: the partials hold one accumulator per position of the 5-wide reduction
// tile; inside the loop the reduction is parallel; linalg.reduce merges the partials.
// CHECK-LABEL: func.func @for_dynamic
// CHECK-SAME:  (%[[A:.*]]: tensor<?x?xf32>, %[[OUT:.*]]: tensor<?xf32>)
// CHECK:       %[[M:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[K:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[E:.*]] = tensor.empty(%[[M]]) : tensor<?x5xf32>
// CHECK:       %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[F:.*]] = linalg.fill {fill} ins(%[[Z]] : f32) outs(%[[E]] : tensor<?x5xf32>)
// CHECK:       %[[L:.*]] = scf.for %[[IV:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[F]]) -> (tensor<?x5xf32>) {
// CHECK:         %[[SZ:.*]] = affine.min
// CHECK:         %[[IN:.*]] = tensor.extract_slice %[[A]][0, %[[IV]]] [%[[M]], %[[SZ]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK:         %[[PART:.*]] = tensor.extract_slice %[[ACC]][0, 0] [%[[M]], %[[SZ]]] [1, 1] : tensor<?x5xf32> to tensor<?x?xf32>
// CHECK:         %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[IN]] : tensor<?x?xf32>) outs(%[[PART]] : tensor<?x?xf32>) attrs = {partial}
// CHECK:         %[[U:.*]] = tensor.insert_slice %[[T]] into %[[ACC]][0, 0] [%[[M]], %[[SZ]]] [1, 1] : tensor<?x?xf32> into tensor<?x5xf32>
// CHECK:         scf.yield %[[U]] : tensor<?x5xf32>
// CHECK:       } {loop}
// CHECK:       %[[R:.*]] = linalg.reduce ins(%[[L]] : tensor<?x5xf32>) outs(%[[OUT]] : tensor<?xf32>) dimensions = [1] {combining}
// CHECK:         arith.addf
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @for_dynamic(%arg0: tensor<?x?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
    %red = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x?xf32>) outs(%out : tensor<?xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %1 = arith.addf %acc, %in : f32
      linalg.yield %1 : f32
    } -> tensor<?xf32>
    return %red : tensor<?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_for %0 by tile_sizes = [0, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %fill "fill" : !transform.any_op
    transform.annotate %part "partial" : !transform.any_op
    transform.annotate %comb "combining" : !transform.any_op
    transform.annotate %loop "loop" : !transform.any_op
    transform.yield
  }
}

// -----

// Two tiled reduction loops: a loop nest, both dims appended to the partials; an
// untiled reduction loop stays a reduction of the partial op.
// CHECK-LABEL: func.func @two_loops
// CHECK:       tensor.empty() : tensor<6x4x3xf32>
// CHECK:       scf.for
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<6x?x?xf32>) outs(%{{.*}} : tensor<6x?x?xf32>)
// CHECK:       linalg.reduce ins(%{{.*}} : tensor<6x4x3xf32>) outs(%{{.*}} : tensor<6xf32>) dimensions = [1, 2]
// CHECK-LABEL: func.func @one_of_two_loops
// CHECK:       tensor.empty() : tensor<6x4xf32>
// CHECK:       scf.for
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:       linalg.reduce ins(%{{.*}} : tensor<6x4xf32>) outs(%{{.*}} : tensor<6xf32>) dimensions = [1]
module attributes {transform.with_named_sequence} {
  func.func @two_loops(%arg0: tensor<6x10x7xf32>, %out: tensor<6xf32>) -> tensor<6xf32> {
    %red = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%arg0 : tensor<6x10x7xf32>) outs(%out : tensor<6xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %1 = arith.addf %acc, %in : f32
      linalg.yield %1 : f32
    } -> tensor<6xf32>
    return %red : tensor<6xf32>
  }
  func.func @one_of_two_loops(%arg0: tensor<6x10x7xf32>, %out: tensor<6xf32>) -> tensor<6xf32> {
    %red = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%arg0 : tensor<6x10x7xf32>) outs(%out : tensor<6xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %1 = arith.addf %acc, %in : f32
      linalg.yield %1 : f32
    } -> tensor<6xf32>
    return %red : tensor<6xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %f1, %f2 = transform.split_handle %f : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %g1 = transform.structured.match ops{["linalg.generic"]} in %f1 : (!transform.any_op) -> !transform.any_op
    %g2 = transform.structured.match ops{["linalg.generic"]} in %f2 : (!transform.any_op) -> !transform.any_op
    %a:4 = transform.structured.tile_reduction_using_for %g1 by tile_sizes = [0, 4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %b:4 = transform.structured.tile_reduction_using_for %g2 by tile_sizes = [0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// scf.forall by num_threads: each thread reduces its chunk into its own (rank-reduced)
// slot of the partials; the mapping goes on the forall.
// CHECK-LABEL: func.func @forall_threads
// CHECK:       tensor.empty() : tensor<7x5xf32>
// CHECK:       scf.forall (%[[T:.*]]) in (5) shared_outs(%[[ACC:.*]] = %{{.*}}) -> (tensor<7x5xf32>) {
// CHECK:         %[[SLOT:.*]] = tensor.extract_slice %[[ACC]][0, %[[T]]] [7, 1] [1, 1] : tensor<7x5xf32> to tensor<7xf32>
// CHECK:         %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<7x?xf32>) outs(%[[SLOT]] : tensor<7xf32>)
// CHECK:         scf.forall.in_parallel {
// CHECK:           tensor.parallel_insert_slice %[[P]] into %[[ACC]][0, %[[T]]] [7, 1] [1, 1] : tensor<7xf32> into tensor<7x5xf32>
// CHECK:       } {mapping = [#gpu.thread<x>]}
// CHECK:       linalg.reduce ins(%{{.*}} : tensor<7x5xf32>) outs(%{{.*}} : tensor<7xf32>) dimensions = [1]
module attributes {transform.with_named_sequence} {
  func.func @forall_threads(%arg0: tensor<7x13xf32>, %out: tensor<7xf32>) -> tensor<7xf32> {
    %red = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<7x13xf32>) outs(%out : tensor<7xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %1 = arith.maximumf %acc, %in : f32
      linalg.yield %1 : f32
    } -> tensor<7xf32>
    return %red : tensor<7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_forall %0 by num_threads = [0, 5] mapping = [#gpu.thread<x>] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// scf.forall by tile_sizes: one iteration per tile, its slot is iv floordiv 3.
// CHECK-LABEL: func.func @forall_tiles
// CHECK:       tensor.empty() : tensor<7x5xf32>
// CHECK:       scf.forall (%[[IV:.*]]) = (0) to (13) step (3) shared_outs(%[[ACC:.*]] = %{{.*}}) -> (tensor<7x5xf32>) {
// CHECK:         %[[SLOT:.*]] = affine.apply affine_map<(d0) -> ({{\(?}}d0 floordiv 3{{\)?}})>(%[[IV]])
// CHECK:         tensor.extract_slice %[[ACC]][0, %[[SLOT]]] [7, 1] [1, 1] : tensor<7x5xf32> to tensor<7xf32>
// CHECK:       linalg.reduce
module attributes {transform.with_named_sequence} {
  func.func @forall_tiles(%arg0: tensor<7x13xf32>, %out: tensor<7xf32>) -> tensor<7xf32> {
    %red = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<7x13xf32>) outs(%out : tensor<7xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %1 = arith.addf %acc, %in : f32
      linalg.yield %1 : f32
    } -> tensor<7xf32>
    return %red : tensor<7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_forall %0 by tile_sizes = [0, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Tiling a parallel loop is not a partial reduction: the reason at the payload op, then
// a silenceable failure at the transform op.
module attributes {transform.with_named_sequence} {
  func.func @parallel_tiled(%arg0: tensor<7x13xf32>, %out: tensor<7xf32>) -> tensor<7xf32> {
    // expected-error @below {{'linalg.generic' op tiling parallel dimensions is not supported with partial reduction tiling strategies}}
    %red = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<7x13xf32>) outs(%out : tensor<7xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %1 = arith.addf %acc, %in : f32
      linalg.yield %1 : f32
    } -> tensor<7xf32>
    return %red : tensor<7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to tile using partial reduction}}
    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_for %0 by tile_sizes = [2, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @forall_parallel_tiled(%arg0: tensor<7x13xf32>, %out: tensor<7xf32>) -> tensor<7xf32> {
    // expected-error @below {{'linalg.generic' op tiling parallel dimensions is not supported with partial reduction tiling strategies}}
    %red = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<7x13xf32>) outs(%out : tensor<7xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %1 = arith.addf %acc, %in : f32
      linalg.yield %1 : f32
    } -> tensor<7xf32>
    return %red : tensor<7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not tile reduction}}
    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_forall %0 by num_threads = [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Ops without the partial-reduction interface: reported at the payload op.
module attributes {transform.with_named_sequence} {
  func.func @not_linalg() {
    // expected-error @below {{Operation should implement PartialReductionOpInterface}}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_for %0 by tile_sizes = [0, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
