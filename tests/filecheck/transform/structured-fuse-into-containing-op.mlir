// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// transform.structured.fuse_into_containing_op
// (upstream: mlir/test/Dialect/Linalg/transform-op-fuse-into-containing.mlir).

// The fill's slice inside the forall becomes a fill of that tile. Its destination is also
// the forall's shared output, so the tile is sliced from the block argument (LLVM 24).
// Results: the fused ops and the containing op.
// CHECK-LABEL: func.func @tile_and_fuse_through_slice
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: tensor<64x64xf32>, %[[C:[0-9a-zA-Z_]+]]: tensor<64x64xf32>)
// CHECK:         %[[CST:[0-9a-zA-Z_]+]] = arith.constant 1.0
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (4, 2) shared_outs(%[[O:[0-9a-zA-Z_]+]] = %[[C]])
// CHECK:           %[[TA:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[A]]
// CHECK:           %[[TO:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[O]][%{{.*}}, %{{.*}}] [16, 32] [1, 1]
// CHECK:           %[[F:[0-9a-zA-Z_]+]] = linalg.fill {fused} ins(%[[CST]] : f32) outs(%[[TO]] : tensor<16x32xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[TA]], %[[F]] : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK:         } {containing}
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @tile_and_fuse_through_slice(%A: tensor<64x64xf32>, %C: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %cst = arith.constant 1.0 : f32
    %fill = linalg.fill ins(%cst : f32) outs(%C : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%A, %fill : tensor<64x64xf32>, tensor<64x64xf32>) outs(%C : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [16, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %l2 = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %fused "fused" : !transform.any_op
    transform.annotate %l2 "containing" : !transform.any_op
    transform.yield
  }
}

// -----

// Several producers, consumer first: the fill is tiled into the slice, then tensor.empty
// (not tileable) is cloned in front of its first use inside the loop.
// CHECK-LABEL: func.func @clone_untileable_and_chain
// CHECK:         scf.forall (%{{.*}}) in (4)
// CHECK:           %[[E:[0-9a-zA-Z_]+]] = tensor.empty() : tensor<64x64xf32>
// CHECK:           %[[S:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[E]]
// CHECK:           %[[F:[0-9a-zA-Z_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<16x64xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[F]] : tensor<16x64xf32>, tensor<16x64xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @clone_untileable_and_chain(%A: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %fill = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %out = tensor.empty() : tensor<64x64xf32>
    %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%A, %fill : tensor<64x64xf32>, tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.mulf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %es = transform.structured.match ops{["tensor.empty"]} in %root : (!transform.any_op) -> !transform.any_op
    %e0, %e1 = transform.split_handle %es : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %l = transform.structured.tile_using_forall %g num_threads [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Consumer first: the fill, then the empty tensor it writes (cloned, not tileable).
    %both = transform.merge_handles %fi, %e0 : !transform.any_op
    %fused, %l2 = transform.structured.fuse_into_containing_op %both into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The fill feeds the forall as its shared output: it is tiled to the slice of the block
// argument, and the forall's operand becomes the fill's own destination.
// CHECK-LABEL: func.func @through_shared_out
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: tensor<64xf32>, %[[C:[0-9a-zA-Z_]+]]: tensor<64xf32>)
// CHECK:         scf.forall (%{{.*}}) in (4) shared_outs(%[[O:[0-9a-zA-Z_]+]] = %[[C]])
// CHECK:           %[[S:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[O]]
// CHECK:           %[[F:[0-9a-zA-Z_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<16xf32>)
// CHECK:           linalg.generic {{.*}} outs(%[[F]] : tensor<16xf32>)
#id1 = affine_map<(d0) -> (d0)>
module attributes {transform.with_named_sequence} {
  func.func @through_shared_out(%A: tensor<64xf32>, %C: tensor<64xf32>) -> tensor<64xf32> {
    %cst = arith.constant 1.0 : f32
    %fill = linalg.fill ins(%cst : f32) outs(%C : tensor<64xf32>) -> tensor<64xf32>
    %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%A : tensor<64xf32>) outs(%fill : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    return %r : tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %l2 = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Two uses inside: the producer is tiled twice. A use after the forall: a new forall with
// one more shared output (initialized with the producer's destination) into which the
// fused tile is inserted first; the outside use reads the new result.
// CHECK-LABEL: func.func @two_uses_inside_one_after
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: tensor<64xf32>, %[[D:[0-9a-zA-Z_]+]]: tensor<64xf32>, %[[C:[0-9a-zA-Z_]+]]: tensor<64xf32>)
// CHECK:         %[[R:[0-9a-zA-Z_]+]], %[[R2:[0-9a-zA-Z_]+]] = scf.forall (%{{.*}}) in (4) shared_outs(%[[O:[0-9a-zA-Z_]+]] = %[[C]], %[[OD:[0-9a-zA-Z_]+]] = %[[D]])
// CHECK:           %[[N1:[0-9a-zA-Z_]+]] = linalg.generic
// CHECK:             arith.negf
// CHECK:           %[[N2:[0-9a-zA-Z_]+]] = linalg.generic
// CHECK:             arith.negf
// CHECK:           %[[M:[0-9a-zA-Z_]+]] = linalg.generic {{.*}} ins(%[[N1]], %[[N2]] :
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[N2]] into %[[OD]]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[M]] into %[[O]]
// CHECK:         } {fused_ops = 2 : i64, old_handle}
// CHECK:         return %[[R]], %[[R2]]
#id1 = affine_map<(d0) -> (d0)>
module attributes {transform.with_named_sequence} {
  func.func @two_uses_inside_one_after(%A: tensor<64xf32>, %D: tensor<64xf32>, %C: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %neg = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%A : tensor<64xf32>) outs(%D : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<64xf32>
    %sq = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%neg, %neg : tensor<64xf32>, tensor<64xf32>) outs(%C : tensor<64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<64xf32>
    return %sq, %neg : tensor<64xf32>, tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %neg, %sq = transform.split_handle %g : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t, %l = transform.structured.tile_using_forall %sq tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %l2 = transform.structured.fuse_into_containing_op %neg into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n = transform.num_associations %fused : (!transform.any_op) -> !transform.param<i64>
    transform.annotate %l2 "fused_ops" = %n : !transform.any_op, !transform.param<i64>
    // The old containing handle follows the rebuilt forall.
    transform.annotate %l "old_handle" : !transform.any_op
    transform.yield
  }
}

// -----

// An scf.for container: its iter_arg stands for the fill's destination.
// CHECK-LABEL: func.func @into_scf_for
// CHECK-SAME:    (%[[A:[0-9a-zA-Z_]+]]: tensor<64x64xf32>, %[[C:[0-9a-zA-Z_]+]]: tensor<64x64xf32>)
// CHECK:         scf.for %[[I:[0-9a-zA-Z_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:[0-9a-zA-Z_]+]] = %[[C]])
// CHECK:           %[[S:[0-9a-zA-Z_]+]] = tensor.extract_slice %[[O]][%[[I]], 0] [16, 64] [1, 1]
// CHECK:           %[[F:[0-9a-zA-Z_]+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<16x64xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %[[F]] :
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @into_scf_for(%A: tensor<64x64xf32>, %C: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %cst = arith.constant 1.0 : f32
    %fill = linalg.fill ins(%cst : f32) outs(%C : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%A, %fill : tensor<64x64xf32>, tensor<64x64xf32>) outs(%C : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %g tile_sizes [16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %l2 = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// No producer is used inside the containing op.
module attributes {transform.with_named_sequence} {
  func.func @no_use_inside(%A: tensor<64xf32>, %C: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %cst = arith.constant 1.0 : f32
    %fill = linalg.fill ins(%cst : f32) outs(%C : tensor<64xf32>) -> tensor<64xf32>
    // expected-note @below {{containing op}}
    %r = scf.forall (%i) in (4) shared_outs(%o = %A) -> (tensor<64xf32>) {
      %t = tensor.extract_slice %A[0] [16] [1] : tensor<64xf32> to tensor<16xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %t into %o[0] [16] [1] : tensor<16xf32> into tensor<64xf32>
      }
    }
    return %r, %fill : tensor<64xf32>, tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not find next producer to fuse into container}}
    %a, %b = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Used only as the forall's shared output, without a slice of the block argument: every
// strategy fails; upstream reports a remark at the producer with one note per strategy.
module attributes {transform.with_named_sequence} {
  func.func @unfusable(%A: tensor<64xf32>, %C: tensor<64xf32>) -> tensor<64xf32> {
    %cst = arith.constant 1.0 : f32
    // expected-remark @below {{could not fuse}}
    // expected-note @below {{could not find fusion opportunity for:}}
    // expected-note @below {{producer op use by containing op cannot be fused by cloning}}
    %fill = linalg.fill ins(%cst : f32) outs(%C : tensor<64xf32>) -> tensor<64xf32>
    // expected-note @below {{could not find fusion opportunity for bbArg: <block argument> of type 'tensor<64xf32>' at index: 1}}
    %r = scf.forall (%i) in (4) shared_outs(%o = %fill) -> (tensor<64xf32>) {
      %t = tensor.extract_slice %A[0] [16] [1] : tensor<64xf32> to tensor<16xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %t into %o[0] [16] [1] : tensor<16xf32> into tensor<64xf32>
      }
    }
    return %r : tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The containing handle must hold exactly one op (a definite error).
module attributes {transform.with_named_sequence} {
  func.func @two_containing_ops(%A: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %r = scf.forall (%i) in (4) shared_outs(%o = %A) -> (tensor<64xf32>) {
    }
    %s = scf.forall (%i) in (4) shared_outs(%o = %A) -> (tensor<64xf32>) {
    }
    return %r, %s : tensor<64xf32>, tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{requires exactly one containing_op handle (got 2)}}
    %a, %b = transform.structured.fuse_into_containing_op %e into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
