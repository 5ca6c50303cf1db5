// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// transform.structured.fuse (upstream: mlir/test/Dialect/Linalg/transform-op-fuse.mlir).

// Tile the consumer (interchange [1, 0]: the n loop outside), then fuse breadth first
// through its slices: the matmul, then the fill feeding the matmul's init. The untiled
// producers stay (the slices they fed are left, unused), as upstream leaves them.
// CHECK-LABEL: func.func @tile_and_fuse_chain
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: tensor<37x29xf32>, %[[B:[0-9a-zA-Z_]+]]: tensor<29x53xf32>, %[[BIAS:[0-9a-zA-Z_]+]]: tensor<53xf32>)
// CHECK:         %[[INIT:[0-9a-zA-Z_]+]] = tensor.empty()
// CHECK:         %[[ACC:[0-9a-zA-Z_]+]] = linalg.fill
// CHECK:         %[[MM:[0-9a-zA-Z_]+]] = linalg.matmul
// CHECK:         scf.for %[[J:[0-9a-zA-Z_]+]] = %{{.*}} iter_args(%{{.*}} = %[[INIT]])
// CHECK:           scf.for %[[I:[0-9a-zA-Z_]+]] = %{{.*}} iter_args(%[[O:[0-9a-zA-Z_]+]] = %{{.*}})
// CHECK:             %[[SJ:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0) -> (-d0 + 53, 16)>(%[[J]])
// CHECK:             %[[SI:[0-9a-zA-Z_]+]] = affine.min affine_map<(d0) -> (-d0 + 37, 8)>(%[[I]])
// CHECK:             %[[FO:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[INIT]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]]
// CHECK:             %[[F:[0-9a-zA-Z_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[FO]] : tensor<?x?xf32>)
// CHECK:             tensor.extract_slice %[[ACC]]
// CHECK:             %[[T:[0-9a-zA-Z_]+]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x29xf32>, tensor<29x?xf32>) outs(%[[F]] : tensor<?x?xf32>)
// CHECK:             tensor.extract_slice %[[MM]]
// CHECK:             linalg.generic {{.*}} ins(%[[T]], %{{.*}} : tensor<?x?xf32>, tensor<?xf32>) outs(%{{.*}} : tensor<?x?xf32>) attrs = {consumer}
// CHECK:         } {outer}
module attributes {transform.with_named_sequence} {
  func.func @tile_and_fuse_chain(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %bias: tensor<53xf32>) -> tensor<37x53xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<37x53xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%acc : tensor<37x53xf32>) -> tensor<37x53xf32>
    %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<37x53xf32>, tensor<53xf32>) outs(%init : tensor<37x53xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<37x53xf32>
    return %out : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ew = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.fuse %ew tile_sizes [8, 16] interchange [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %t "consumer" : !transform.any_op
    transform.annotate %l#0 "outer" : !transform.any_op
    transform.yield
  }
}

// -----

// The matmul's init slice is a slice of the loops' iter_args: followed back to the fill,
// which is computed in the iter_arg's tile; the loops start from the fill's destination
// and the fill, now unused, is erased.
// CHECK-LABEL: func.func @through_iter_args
// CHECK:         %[[INIT:[0-9a-zA-Z_]+]] = tensor.empty()
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]])
// CHECK:           scf.for %{{.*}} iter_args(%[[O:[0-9a-zA-Z_]+]] = %{{.*}})
// CHECK:             %[[S:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[O]]
// CHECK:             %[[F:[0-9a-zA-Z_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<?x?xf32>)
// CHECK:             linalg.matmul {{.*}} outs(%[[F]] : tensor<?x?xf32>)
module attributes {transform.with_named_sequence} {
  func.func @through_iter_args(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>) -> tensor<37x53xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<37x53xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%acc : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %mm : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.fuse %mm tile_sizes [8, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// use_forall: one scf.forall, not normalized (unlike tile_using_forall).
// CHECK-LABEL: func.func @use_forall
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (37, 53) step (8, 16) shared_outs
// CHECK:           linalg.fill
// CHECK:           linalg.matmul
// CHECK:           linalg.generic
// CHECK:           scf.forall.in_parallel
module attributes {transform.with_named_sequence} {
  func.func @use_forall(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %bias: tensor<53xf32>) -> tensor<37x53xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<37x53xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%acc : tensor<37x53xf32>) -> tensor<37x53xf32>
    %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<37x53xf32>, tensor<53xf32>) outs(%init : tensor<37x53xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<37x53xf32>
    return %out : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ew = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.fuse %ew tile_sizes [8, 16] use_forall : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A size from a param; apply_cleanup folds the identity slice of %B away.
// CHECK-LABEL: func.func @param_size_and_cleanup
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: tensor<37x29xf32>, %[[B:[0-9a-zA-Z_]+]]: tensor<29x53xf32>)
// CHECK:         scf.for
// CHECK-NOT:       tensor.extract_slice %[[B]]
// CHECK:           linalg.matmul ins(%{{.*}}, %[[B]] : tensor<?x29xf32>, tensor<29x53xf32>)
module attributes {transform.with_named_sequence} {
  func.func @param_size_and_cleanup(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>) -> tensor<37x53xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<37x53xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%acc : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %mm : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 8 : i64 -> !transform.param<i64>
    %t, %l = transform.structured.fuse %mm tile_sizes [%p, 0] apply_cleanup : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Only TilingInterface ops (a definite error).
module attributes {transform.with_named_sequence} {
  func.func @not_tileable() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only TilingInterface ops are supported}}
    %t, %l = transform.structured.fuse %f tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A size param must hold one value.
module attributes {transform.with_named_sequence} {
  func.func @two_params(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>) -> tensor<37x53xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<37x53xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%acc : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %mm : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 8 : i64 -> !transform.param<i64>
    %two = transform.merge_handles %p, %p : !transform.param<i64>
    // expected-error @below {{requires exactly one parameter associated}}
    %t, %l = transform.structured.fuse %mm tile_sizes [%two] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
