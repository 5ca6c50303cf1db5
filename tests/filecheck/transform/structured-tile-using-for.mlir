// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// transform.structured.tile_using_for (upstream: mlir/test/Dialect/Linalg/transform-op-tile.mlir).
// Affine maps print in xDSL's form: upstream's `(-d0 + 37, 8)` is `(((d0 * -1) + 37), 8)`.

module attributes {transform.with_named_sequence} {
  func.func @partial_tiles(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [8, 0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %t "tiled" : !transform.any_op
    transform.annotate %l#0 "outer" : !transform.any_op
    transform.annotate %l#1 "inner" : !transform.any_op
    transform.yield
  }
}

// -----

// Tiles that divide their loop (and tiles of 1) need no affine.min: static slices.
// CHECK-LABEL: func.func @dividing_tiles
// CHECK-NOT:     affine.min
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               tensor.extract_slice %{{.*}} [8, 1] [1, 1] : tensor<32x16xf32> to tensor<8x1xf32>
// CHECK:               tensor.extract_slice %{{.*}} [1, 16] [1, 1] : tensor<16x48xf32> to tensor<1x16xf32>
// CHECK:               linalg.matmul {{.*}} -> tensor<8x16xf32>
// CHECK-NOT:     affine.min
module attributes {transform.with_named_sequence} {
  func.func @dividing_tiles(%A: tensor<32x16xf32>, %B: tensor<16x48xf32>, %C: tensor<32x48xf32>) -> tensor<32x48xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<32x16xf32>, tensor<16x48xf32>) outs(%C : tensor<32x48xf32>) -> tensor<32x48xf32>
    return %r : tensor<32x48xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:3 = transform.structured.tile_using_for %mm tile_sizes [8, 16, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A size from a param; interchange [1, 0] makes the n loop the outer one.
// CHECK-LABEL: func.func @param_sizes_and_interchange
// CHECK:         scf.for %[[J:[0-9a-zA-Z_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           scf.for %[[I:[0-9a-zA-Z_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:             affine.min affine_map<(d0) -> (-d0 + 53, 16)>(%[[J]])
// CHECK:             affine.min affine_map<(d0) -> (-d0 + 37, 8)>(%[[I]])
// CHECK:             linalg.matmul {{.*}} -> tensor<?x?xf32>
module attributes {transform.with_named_sequence} {
  func.func @param_sizes_and_interchange(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 16 : i64 -> !transform.param<i64>
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [8, %p] interchange = [1, 0] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A size from a handle: the payload value itself is the step.
// CHECK-LABEL: func.func @size_from_a_payload_value
// CHECK:         %[[C5:[0-9a-zA-Z_]+]] = arith.constant {size} 5 : index
// CHECK:         scf.for %[[I:[0-9a-zA-Z_]+]] = %{{.*}} to %{{.*}} step %[[C5]]
// CHECK:           affine.min affine_map<(d0) -> (-d0 + 37, 5)>(%[[I]])
module attributes {transform.with_named_sequence} {
  func.func @size_from_a_payload_value(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %c5 = arith.constant {size} 5 : index
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.match ops{["arith.constant"]} attributes{size} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [%s] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Dynamic sizes come from tensor.dim ops created before the op; the bound is a symbol.
// CHECK-LABEL: func.func @dynamic_shapes
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: tensor<?x?xf32>, %[[C:[0-9a-zA-Z_]+]]: tensor<?x?xf32>)
// CHECK:         %[[D0:[0-9a-zA-Z_]+]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[D1:[0-9a-zA-Z_]+]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:         scf.for %[[J:[0-9a-zA-Z_]+]] = %{{.*}} to %[[D1]] step %{{.*}} iter_args(%[[O:[0-9a-zA-Z_]+]] = %[[C]])
// CHECK:           %[[S:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0)[s0] -> (s0 - d0, 7)>(%[[J]])[%[[D1]]]
// CHECK:           tensor.extract_slice %[[A]][0, %[[J]]] [%[[D0]], %[[S]]] [1, 1]
// CHECK:           tensor.extract_slice %[[O]][0, %[[J]]] [%[[D0]], %[[S]]] [1, 1]
module attributes {transform.with_named_sequence} {
  func.func @dynamic_shapes(%A: tensor<?x?xf32>, %C: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %r = linalg.copy ins(%A : tensor<?x?xf32>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %cp tile_sizes [0, 7] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A strided window `d1 * 2 + d4`: offset oh*2 + kh, size (oh_tile - 1) * 2 + kh_tile.
// CHECK-LABEL: func.func @conv_windows
// CHECK:         scf.for %[[OH:[0-9a-zA-Z_]+]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[KH:[0-9a-zA-Z_]+]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[SKH:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0) -> (-d0 + 3, 2)>(%[[KH]])
// CHECK:             %[[OFF:[0-9a-zA-Z_]+]] = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%[[OH]], %[[KH]])
// CHECK:             %[[SIZE:[0-9a-zA-Z_]+]] = affine.apply affine_map<(d0) -> (d0 + 2)>(%[[SKH]])
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[OFF]], 0, 0] [1, %[[SIZE]], 11, 3] [1, 1, 1, 1] : tensor<1x13x11x3xf32> to tensor<1x?x11x3xf32>
// CHECK:             tensor.extract_slice %{{.*}}[%[[KH]], 0, 0, 0] [%[[SKH]], 2, 3, 5]
// CHECK:             linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x2x10x5xf32>
module attributes {transform.with_named_sequence} {
  func.func @conv_windows(%I: tensor<1x13x11x3xf32>, %F: tensor<3x2x3x5xf32>, %O: tensor<1x6x10x5xf32>) -> tensor<1x6x10x5xf32> {
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%I, %F : tensor<1x13x11x3xf32>, tensor<3x2x3x5xf32>) outs(%O : tensor<1x6x10x5xf32>) -> tensor<1x6x10x5xf32>
    return %r : tensor<1x6x10x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %c tile_sizes [0, 2, 0, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// linalg.index is shifted by the tile offset; all-zero sizes clone the op, no loop.
// CHECK-LABEL: func.func @index_and_all_zero
// CHECK:         scf.for %[[J:[0-9a-zA-Z_]+]] =
// CHECK-NOT:       scf.for
// CHECK:           linalg.generic {{.*}} attrs = {cloned}
// CHECK:             %[[IDX:[0-9a-zA-Z_]+]] = linalg.index 1 : index
// CHECK:             %[[G:[0-9a-zA-Z_]+]] = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%[[IDX]], %[[J]])
// CHECK:             arith.index_cast %[[G]] : index to i32
module attributes {transform.with_named_sequence} {
  func.func @index_and_all_zero(%A: tensor<19x23xf32>) -> tensor<19x23xf32> {
    %init = tensor.empty() : tensor<19x23xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%A : tensor<19x23xf32>) outs(%init : tensor<19x23xf32>) {
    ^bb0(%a: f32, %o: f32):
      %j = linalg.index 1 : index
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %s = arith.addf %a, %jf : f32
      linalg.yield %s : f32
    } -> tensor<19x23xf32>
    return %r : tensor<19x23xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %g tile_sizes [0, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2 = transform.structured.tile_using_for %t tile_sizes [0, 0] : (!transform.any_op) -> (!transform.any_op)
    transform.annotate %t2 "cloned" : !transform.any_op
    transform.yield
  }
}

// -----

// More sizes than loops: silenceable error with a note at the target.
module attributes {transform.with_named_sequence} {
  func.func @too_many_tiles(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    // expected-note @below {{target op}}
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too many tiles provided, expected at most 3 found 4}}
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [1, 0, 0, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Only TilingInterface ops tile.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{target op}}
  func.func @not_tileable() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only ops implementing TilingInterface are supported}}
    %t, %l = transform.structured.tile_using_for %f tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A param size gives one value per target op (upstream prints 0 for the count).
module attributes {transform.with_named_sequence} {
  func.func @param_per_target(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-note @below {{for this parameter}}
    %two = transform.merge_handles %p, %p : !transform.param<i64>
    // expected-error @below {{expected as many parameter values (0) as target ops (1)}}
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [%two] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A handle size must be produced by ops with one index result.
module attributes {transform.with_named_sequence} {
  func.func @size_not_an_index(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    // expected-note @below {{size producer op}}
    %f = arith.constant {size} 5.0 : f32
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{for this handle}}
    %s = transform.structured.match ops{["arith.constant"]} attributes{size} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected sizes to be produced by ops with a single index-type result}}
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [%s] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Buffer semantics: dynamic memrefs give `memref.dim` bounds, the loops carry no
// iter_args and the body runs the op on `memref.subview`s (results: the tiled op and one
// handle per loop, as for tensors).
// CHECK-LABEL: func.func @buffers_dynamic
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: memref<?x?xf32>, %[[B:[0-9a-zA-Z_]+]]: memref<?x?xf32>, %[[C:[0-9a-zA-Z_]+]]: memref<?x?xf32>)
// CHECK:         %[[M:[0-9a-zA-Z_]+]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf32>
// CHECK:         %[[N:[0-9a-zA-Z_]+]] = memref.dim %[[B]], %{{.*}} : memref<?x?xf32>
// CHECK:         %[[K:[0-9a-zA-Z_]+]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf32>
// CHECK:         scf.for %[[I:[0-9a-zA-Z_]+]] = %{{.*}} to %[[M]] step %{{.*}} {
// CHECK-NEXT:      scf.for %[[KK:[0-9a-zA-Z_]+]] = %{{.*}} to %[[K]] step %{{.*}} {
// CHECK-NEXT:        %[[SI:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0)[s0] -> (s0 - d0, 8)>(%[[I]])[%[[M]]]
// CHECK-NEXT:        %[[SK:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0)[s0] -> (s0 - d0, 4)>(%[[KK]])[%[[K]]]
// CHECK-NEXT:        %[[TA:[0-9a-zA-Z_]+]] = memref.subview %[[A]][%[[I]], %[[KK]]] [%[[SI]], %[[SK]]] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:        %[[TB:[0-9a-zA-Z_]+]] = memref.subview %[[B]][%[[KK]], 0] [%[[SK]], %[[N]]] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:        %[[TC:[0-9a-zA-Z_]+]] = memref.subview %[[C]][%[[I]], 0] [%[[SI]], %[[N]]] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:        linalg.matmul {tiled} ins(%[[TA]], %[[TB]] : {{.*}}) outs(%[[TC]] : memref<?x?xf32, strided<[?, 1], offset: ?>>)
// CHECK-NEXT:      } {inner}
// CHECK-NEXT:    } {outer}
// CHECK-NEXT:    return
module attributes {transform.with_named_sequence} {
  func.func @buffers_dynamic(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
    linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [8, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %t "tiled" : !transform.any_op
    transform.annotate %l#0 "outer" : !transform.any_op
    transform.annotate %l#1 "inner" : !transform.any_op
    transform.yield
  }
}

// -----

// The tile-size check holds for buffers too.
module attributes {transform.with_named_sequence} {
  func.func @buffers_too_many_tiles(%A: memref<37x29xf32>, %B: memref<29x53xf32>, %C: memref<37x53xf32>) {
    // expected-note @below {{target op}}
    linalg.matmul ins(%A, %B : memref<37x29xf32>, memref<29x53xf32>) outs(%C : memref<37x53xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{too many tiles provided, expected at most 3 found 4}}
    %t, %l:4 = transform.structured.tile_using_for %mm tile_sizes [8, 16, 4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The interchange is a permutation of the tiled loops (checked by the verifier).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{found duplicate interchange value: 0}}
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [4, 4] interchange = [0, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The interchange is a permutation of the tiled loops (checked by the verifier).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects interchange values to be in range [0, 2), found: 5}}
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [4, 4] interchange = [0, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The interchange is a permutation of the tiled loops (checked by the verifier).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{interchange length exceeds iteration space dimensions (2)}}
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [4, 4] interchange = [1, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
