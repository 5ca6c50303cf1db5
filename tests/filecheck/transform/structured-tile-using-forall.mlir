// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// transform.structured.tile_using_forall (upstream: mlir/test/Dialect/Linalg/tile-to-forall.mlir).
// Affine maps print in xDSL's form: upstream's `(-d0 + 37, 8)` is `(((d0 * -1) + 37), 8)`.

// tile_sizes: the forall is normalized (`in (ceildiv(37, 8), ceildiv(53, 16))`), each
// offset is `iv * tile` at the top of the body, the last tiles are partial (affine.min),
// `mapping` is copied; results are the tiled op and the forall.
// CHECK-LABEL: func.func @tile_sizes_normalized
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: tensor<37x29xf32>, %[[B:[0-9a-zA-Z_]+]]: tensor<29x53xf32>, %[[C:[0-9a-zA-Z_]+]]: tensor<37x53xf32>)
// CHECK:         scf.forall (%[[I:[0-9a-zA-Z_]+]], %[[J:[0-9a-zA-Z_]+]]) in (5, 4) shared_outs(%[[O:[0-9a-zA-Z_]+]] = %[[C]]) -> (tensor<37x53xf32>) {
// CHECK:           %[[OI:[0-9a-zA-Z_]+]] = affine.apply affine_map<(d0) -> (d0 * 8)>(%[[I]])
// CHECK:           %[[OJ:[0-9a-zA-Z_]+]] = affine.apply affine_map<(d0) -> (d0 * 16)>(%[[J]])
// CHECK:           %[[SI:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0) -> (-d0 + 37, 8)>(%[[OI]])
// CHECK:           %[[SJ:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0) -> (-d0 + 53, 16)>(%[[OJ]])
// CHECK:           %[[TA:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[A]][%[[OI]], 0] [%[[SI]], 29] [1, 1]
// CHECK:           %[[TB:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[B]][0, %[[OJ]]] [29, %[[SJ]]] [1, 1]
// CHECK:           %[[TC:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[O]][%[[OI]], %[[OJ]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK:           %[[T:[0-9a-zA-Z_]+]] = linalg.matmul {tiled} ins(%[[TA]], %[[TB]] : tensor<?x29xf32>, tensor<29x?xf32>) outs(%[[TC]] : tensor<?x?xf32>)
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[T]] into %[[O]][%[[OI]], %[[OJ]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<37x53xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    } {mapping = [#gpu.block<y>, #gpu.block<x>], loop}
module attributes {transform.with_named_sequence} {
  func.func @tile_sizes_normalized(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %mm tile_sizes [8, 16] (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %t "tiled" : !transform.any_op
    transform.annotate %f "loop" : !transform.any_op
    transform.yield
  }
}

// -----

// num_threads: 10 rows on 6 threads, tile ceildiv(10, 6) = 2; thread 5 starts at 10, so
// the size is clamped with affine.max (upstream's guard for the last threads). A 0 entry
// gives no forall dimension, so the mapping has one entry.
// CHECK-LABEL: func.func @num_threads_with_guard
// CHECK:         scf.forall (%[[T:[0-9a-zA-Z_]+]]) in (6) shared_outs
// CHECK:           affine.apply affine_map<(d0) -> (d0 * 2)>(%[[T]])
// CHECK:           %[[MIN:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0) -> (d0 * -2 + 10, 2)>(%[[T]])
// CHECK:           %[[MAX:[0-9a-zA-Z_]+]] = affine.max affine_map<(d0) -> (0, d0)>(%[[MIN]])
// CHECK:           tensor.extract_slice %{{.*}} [%[[MAX]], 64] [1, 1] : tensor<10x64xf32> to tensor<?x64xf32>
// CHECK:         } {mapping = [#gpu.thread<x>]}
module attributes {transform.with_named_sequence} {
  func.func @num_threads_with_guard(%A: tensor<10x64xf32>, %C: tensor<10x64xf32>) -> tensor<10x64xf32> {
    %r = linalg.copy ins(%A : tensor<10x64xf32>) outs(%C : tensor<10x64xf32>) -> tensor<10x64xf32>
    return %r : tensor<10x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %cp num_threads [6, 0] (mapping = [#gpu.thread<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// 100 rows on 7 threads: tiles of 15, the last one 10; every thread starts inside, so no
// affine.max. Then 8 columns on 4 threads divide exactly: no min either (nested forall).
// CHECK-LABEL: func.func @num_threads_every_tile_full
// CHECK:         scf.forall (%[[T:[0-9a-zA-Z_]+]]) in (7)
// CHECK:           affine.min affine_map<(d0) -> (d0 * -15 + 100, 15)>(%[[T]])
// CHECK-NOT:       affine.max
// CHECK:           scf.forall (%{{.*}}) in (4)
// CHECK-NOT:         affine.min
// CHECK:             linalg.copy {{.*}} -> tensor<?x2xf32>
module attributes {transform.with_named_sequence} {
  func.func @num_threads_every_tile_full(%A: tensor<100x8xf32>, %C: tensor<100x8xf32>) -> tensor<100x8xf32> {
    %r = linalg.copy ins(%A : tensor<100x8xf32>) outs(%C : tensor<100x8xf32>) -> tensor<100x8xf32>
    return %r : tensor<100x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %cp num_threads [7] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %f2 = transform.structured.tile_using_forall %t num_threads [0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A dynamic size on 3 threads: the tile is an affine.apply before the forall; the
// semi-affine `iv * tile` (which xDSL's affine maps cannot hold) is an arith.muli.
// CHECK-LABEL: func.func @dynamic_num_threads
// CHECK:         %[[N:[0-9a-zA-Z_]+]] = tensor.dim
// CHECK:         %[[TILE:[0-9a-zA-Z_]+]] = affine.apply affine_map<()[s0] -> (s0 ceildiv 3)>()[%[[N]]]
// CHECK:         scf.forall (%[[T:[0-9a-zA-Z_]+]]) in (3)
// CHECK:           %[[OFF:[0-9a-zA-Z_]+]] = arith.muli %[[T]], %[[TILE]] : index
// CHECK:           %[[MIN:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0)[s0] -> (s0 - d0, s0 ceildiv 3)>(%[[OFF]])[%[[N]]]
// CHECK:           affine.max affine_map<(d0) -> (0, d0)>(%[[MIN]])
module attributes {transform.with_named_sequence} {
  func.func @dynamic_num_threads(%A: tensor<?xf32>, %C: tensor<?xf32>) -> tensor<?xf32> {
    %r = linalg.copy ins(%A : tensor<?xf32>) outs(%C : tensor<?xf32>) -> tensor<?xf32>
    return %r : tensor<?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %cp num_threads [3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A param tile size on a dynamic dimension: the trip count is computed before the forall.
// CHECK-LABEL: func.func @dynamic_tile_sizes_param
// CHECK:         %[[N:[0-9a-zA-Z_]+]] = tensor.dim
// CHECK:         %[[UB:[0-9a-zA-Z_]+]] = affine.apply affine_map<()[s0] -> (s0 ceildiv 5)>()[%[[N]]]
// CHECK:         scf.forall (%[[I:[0-9a-zA-Z_]+]], %[[J:[0-9a-zA-Z_]+]]) in (%[[UB]], 64)
// CHECK:           %[[OI:[0-9a-zA-Z_]+]] = affine.apply affine_map<(d0) -> (d0 * 5)>(%[[I]])
// CHECK:           affine.min affine_map<(d0)[s0] -> (s0 - d0, 5)>(%[[OI]])[%[[N]]]
// CHECK:           tensor.extract_slice %{{.*}}[%[[OI]], %[[J]]]
module attributes {transform.with_named_sequence} {
  func.func @dynamic_tile_sizes_param(%A: tensor<?x64xf32>, %C: tensor<?x64xf32>) -> tensor<?x64xf32> {
    %r = linalg.copy ins(%A : tensor<?x64xf32>) outs(%C : tensor<?x64xf32>) -> tensor<?x64xf32>
    return %r : tensor<?x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 5 : i64 -> !transform.param<i64>
    %t, %f = transform.structured.tile_using_forall %cp tile_sizes [%p, 1] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// linalg.softmax tiles like its iteration space: input and output sliced alike.
// CHECK-LABEL: func.func @softmax_rows
// CHECK:         scf.forall (%{{.*}}) in (5)
// CHECK:           linalg.softmax dimension(1) ins(%{{.*}} : tensor<?x33xf32>) outs(%{{.*}} : tensor<?x33xf32>) -> tensor<?x33xf32>
module attributes {transform.with_named_sequence} {
  func.func @softmax_rows(%x: tensor<19x33xf32>) -> tensor<19x33xf32> {
    %init = tensor.empty() : tensor<19x33xf32>
    %y = linalg.softmax dimension(1) ins(%x : tensor<19x33xf32>) outs(%init : tensor<19x33xf32>) -> tensor<19x33xf32>
    return %y : tensor<19x33xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %s tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
    // expected-error @below {{only TilingInterface ops are supported}}
    %t, %l = transform.structured.tile_using_forall %f tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A param size must hold exactly one value (a definite error, as upstream).
module attributes {transform.with_named_sequence} {
  func.func @two_params(%A: tensor<10x64xf32>, %C: tensor<10x64xf32>) -> tensor<10x64xf32> {
    %r = linalg.copy ins(%A : tensor<10x64xf32>) outs(%C : tensor<10x64xf32>) -> tensor<10x64xf32>
    return %r : tensor<10x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 8 : i64 -> !transform.param<i64>
    %two = transform.merge_handles %p, %p : !transform.param<i64>
    // expected-error @below {{requires exactly one parameter associated}}
    %t, %f = transform.structured.tile_using_forall %cp tile_sizes [%two] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A handle size must be one op with one index result.
module attributes {transform.with_named_sequence} {
  func.func @handle_without_index_result(%A: tensor<10x64xf32>, %C: tensor<10x64xf32>) -> tensor<10x64xf32> {
    %r = linalg.copy ins(%A : tensor<10x64xf32>) outs(%C : tensor<10x64xf32>) -> tensor<10x64xf32>
    // expected-note @below {{has 0 results}}
    return %r : tensor<10x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{payload op must have exactly 1 index result}}
    %t, %f = transform.structured.tile_using_forall %cp num_threads [%ret] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Buffer semantics (upstream's TilingInterface on a linalg op with memref operands): the
// forall has no shared_outs and its body runs the op on `memref.subview`s with upstream's
// inferred strided layouts; nothing is inserted back. The tiled op has no results.
// CHECK-LABEL: func.func @buffers_tile_sizes
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: memref<37x29xf32>, %[[B:[0-9a-zA-Z_]+]]: memref<29x53xf32>, %[[C:[0-9a-zA-Z_]+]]: memref<37x53xf32>)
// CHECK-NEXT:    scf.forall (%[[I:[0-9a-zA-Z_]+]], %[[J:[0-9a-zA-Z_]+]]) in (5, 4) {
// CHECK:           %[[OI:[0-9a-zA-Z_]+]] = affine.apply affine_map<(d0) -> (d0 * 8)>(%[[I]])
// CHECK:           %[[OJ:[0-9a-zA-Z_]+]] = affine.apply affine_map<(d0) -> (d0 * 16)>(%[[J]])
// CHECK:           %[[SI:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0) -> (-d0 + 37, 8)>(%[[OI]])
// CHECK:           %[[SJ:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0) -> (-d0 + 53, 16)>(%[[OJ]])
// CHECK:           %[[TA:[0-9a-zA-Z_]+]] = memref.subview %[[A]][%[[OI]], 0] [%[[SI]], 29] [1, 1] : memref<37x29xf32> to memref<?x29xf32, strided<[29, 1], offset: ?>>
// CHECK:           %[[TB:[0-9a-zA-Z_]+]] = memref.subview %[[B]][0, %[[OJ]]] [29, %[[SJ]]] [1, 1] : memref<29x53xf32> to memref<29x?xf32, strided<[53, 1], offset: ?>>
// CHECK:           %[[TC:[0-9a-zA-Z_]+]] = memref.subview %[[C]][%[[OI]], %[[OJ]]] [%[[SI]], %[[SJ]]] [1, 1] : memref<37x53xf32> to memref<?x?xf32, strided<[53, 1], offset: ?>>
// CHECK-NEXT:      linalg.matmul {tiled} ins(%[[TA]], %[[TB]] : memref<?x29xf32, strided<[29, 1], offset: ?>>, memref<29x?xf32, strided<[53, 1], offset: ?>>) outs(%[[TC]] : memref<?x?xf32, strided<[53, 1], offset: ?>>)
// CHECK-NEXT:    } {mapping = [#gpu.block<y>, #gpu.block<x>], loop}
// CHECK-NEXT:    return
module attributes {transform.with_named_sequence} {
  func.func @buffers_tile_sizes(%A: memref<37x29xf32>, %B: memref<29x53xf32>, %C: memref<37x53xf32>) {
    linalg.matmul ins(%A, %B : memref<37x29xf32>, memref<29x53xf32>) outs(%C : memref<37x53xf32>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %mm tile_sizes [8, 16] (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %t "tiled" : !transform.any_op
    transform.annotate %f "loop" : !transform.any_op
    transform.yield
  }
}

// -----

// Buffer semantics with num_threads: a copy into workgroup memory spread over 32x8
// threads, 4x4 elements each (the distribution of a promoted GPU tile); the subviews keep
// the memory space.
// CHECK-LABEL: func.func @buffers_num_threads
// CHECK:         scf.forall (%[[I:[0-9a-zA-Z_]+]], %[[J:[0-9a-zA-Z_]+]]) in (32, 8) {
// CHECK:           %[[S:[0-9a-zA-Z_]+]] = memref.subview %{{.*}} [4, 4] [1, 1] : memref<128x32xf32> to memref<4x4xf32, strided<[32, 1], offset: ?>>
// CHECK:           %[[D:[0-9a-zA-Z_]+]] = memref.subview %{{.*}} [4, 4] [1, 1] : memref<128x32xf32, #gpu.address_space<workgroup>> to memref<4x4xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT:      linalg.copy ins(%[[S]] : memref<4x4xf32, strided<[32, 1], offset: ?>>) outs(%[[D]] : memref<4x4xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
// CHECK-NEXT:    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
module attributes {transform.with_named_sequence} {
  func.func @buffers_num_threads(%A: memref<128x32xf32>, %B: memref<128x32xf32, #gpu.address_space<workgroup>>) {
    linalg.copy ins(%A : memref<128x32xf32>) outs(%B : memref<128x32xf32, #gpu.address_space<workgroup>>)
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %f = transform.structured.tile_using_forall %cp num_threads [32, 8] (mapping = [#gpu.thread<y>, #gpu.thread<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// memref.copy has no TilingInterface (only linalg ops on buffers tile).
module attributes {transform.with_named_sequence} {
  func.func @memref_copy_not_tileable(%A: memref<128x32xf32>, %B: memref<128x32xf32>) {
    // expected-note @below {{target op}}
    memref.copy %A, %B : memref<128x32xf32> to memref<128x32xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %cp = transform.structured.match ops{["memref.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only TilingInterface ops are supported}}
    %t, %f = transform.structured.tile_using_forall %cp num_threads [32, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
