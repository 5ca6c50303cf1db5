// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The later loop fused into the earlier one: the fused loop takes the earlier loop's place
// and bounds; the body, iter_args and results are the target's (the later loop) first.
// CHECK-LABEL: func.func @for_later_into_earlier
// CHECK-SAME:    (%[[P:.*]]: tensor<40xf32>, %[[Q:.*]]: tensor<40xf32>)
// CHECK:         %[[R:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[Y:.*]] = %[[Q]], %[[X:.*]] = %[[P]])
// CHECK:           %[[M:.*]] = arith.mulf
// CHECK:           %[[WQ:.*]] = vector.transfer_write %[[M]], %[[Y]][%[[I]]]
// CHECK:           %[[A:.*]] = arith.addf
// CHECK:           %[[WP:.*]] = vector.transfer_write %[[A]], %[[X]][%[[I]]]
// CHECK:           scf.yield %[[WQ]], %[[WP]] : tensor<40xf32>, tensor<40xf32>
// CHECK:         } {fused}
// CHECK-NOT:     scf.for
// CHECK:         return %[[R]]#1, %[[R]]#0
module attributes {transform.with_named_sequence} {
  func.func @for_later_into_earlier(%p: tensor<40xf32>, %q: tensor<40xf32>) -> (tensor<40xf32>, tensor<40xf32>) {
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %c40 = arith.constant 40 : index
    %z = arith.constant 0.0 : f32
    %r1 = scf.for %i = %c0 to %c40 step %c5 iter_args(%x = %p) -> (tensor<40xf32>) {
      %v = vector.transfer_read %q[%i], %z {in_bounds = [true]} : tensor<40xf32>, vector<5xf32>
      %w = vector.transfer_read %x[%i], %z {in_bounds = [true]} : tensor<40xf32>, vector<5xf32>
      %s = arith.addf %v, %w : vector<5xf32>
      %o = vector.transfer_write %s, %x[%i] {in_bounds = [true]} : vector<5xf32>, tensor<40xf32>
      scf.yield %o : tensor<40xf32>
    }
    %r2 = scf.for %i = %c0 to %c40 step %c5 iter_args(%x = %q) -> (tensor<40xf32>) {
      %v = vector.transfer_read %p[%i], %z {in_bounds = [true]} : tensor<40xf32>, vector<5xf32>
      %w = vector.transfer_read %x[%i], %z {in_bounds = [true]} : tensor<40xf32>, vector<5xf32>
      %s = arith.mulf %v, %w : vector<5xf32>
      %o = vector.transfer_write %s, %x[%i] {in_bounds = [true]} : vector<5xf32>, tensor<40xf32>
      scf.yield %o : tensor<40xf32>
    }
    return %r1, %r2 : tensor<40xf32>, tensor<40xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l1, %l2 = transform.split_handle %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.loop.fuse_sibling %l2 into %l1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.annotate %f "fused" : !transform.any_op
    transform.yield
  }
}

// -----

// Two foralls tiled from matmuls, with the same bounds and mapping: one forall whose
// terminator holds both parallel_insert_slices, the target's first.
// CHECK-LABEL: func.func @forall_siblings
// CHECK:         scf.forall (%[[I:.*]]) in (3) shared_outs(%[[S1:.*]] = %{{.*}}, %[[S2:.*]] = %{{.*}}) -> (tensor<9x5xf32>, tensor<9x5xf32>)
// CHECK:           %[[O1:.*]] = linalg.matmul
// CHECK:           %[[O2:.*]] = linalg.matmul
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[O1]] into %[[S1]]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[O2]] into %[[S2]]
// CHECK-NEXT:      }
// CHECK-NEXT:    } {mapping = [#gpu.block<x>]}
// CHECK-NOT:     scf.forall
module attributes {transform.with_named_sequence} {
  func.func @forall_siblings(%a: tensor<9x7xf32>, %b: tensor<7x5xf32>, %c: tensor<9x5xf32>) -> (tensor<9x5xf32>, tensor<9x5xf32>) {
    %m1 = linalg.matmul ins(%a, %b : tensor<9x7xf32>, tensor<7x5xf32>) outs(%c : tensor<9x5xf32>) -> tensor<9x5xf32>
    %m2 = linalg.matmul ins(%a, %b : tensor<9x7xf32>, tensor<7x5xf32>) outs(%c : tensor<9x5xf32>) -> tensor<9x5xf32>
    return %m1, %m2 : tensor<9x5xf32>, tensor<9x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm1, %mm2 = transform.split_handle %mm : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t1, %f1 = transform.structured.tile_using_forall %mm1 tile_sizes [3] (mapping = [#gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t2, %f2 = transform.structured.tile_using_forall %mm2 tile_sizes [3] (mapping = [#gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.loop.fuse_sibling %f1 into %f2 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// scf.parallel loops are not fused (upstream fuses scf.for and scf.forall only).
module attributes {transform.with_named_sequence} {
  func.func @parallel_reductions(%m: memref<11xf32>, %n: memref<11xf32>) -> (f32, f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c11 = arith.constant 11 : index
    %lo = arith.constant -1.0e30 : f32
    %zero = arith.constant 0.0 : f32
    // expected-error @below {{operations cannot be fused}}
    %r1 = scf.parallel (%i) = (%c0) to (%c11) step (%c1) init (%lo) -> f32 {
      %x = memref.load %m[%i] : memref<11xf32>
      scf.reduce(%x : f32) {
      ^bb0(%l: f32, %r: f32):
        %t = arith.maximumf %l, %r : f32
        scf.reduce.return %t : f32
      }
    }
    %r2 = scf.parallel (%i) = (%c0) to (%c11) step (%c1) init (%zero) -> f32 {
      %y = memref.load %n[%i] : memref<11xf32>
      scf.reduce(%y : f32) {
      ^bb0(%l: f32, %r: f32):
        %t = arith.addf %l, %r : f32
        scf.reduce.return %t : f32
      }
    }
    return %r1, %r2 : f32, f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.parallel"]} in %root : (!transform.any_op) -> !transform.any_op
    %l1, %l2 = transform.split_handle %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.loop.fuse_sibling %l1 into %l2 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The earlier loop cannot move down past a user of its result.
module attributes {transform.with_named_sequence} {
  func.func @target_result_used_before_source(%m: memref<6xf32>, %v: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    // expected-error @below {{user of results of target should be properly dominated by source}}
    %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %v) -> (f32) {
      %x = memref.load %m[%i] : memref<6xf32>
      %s = arith.addf %acc, %x : f32
      scf.yield %s : f32
    }
    %u = arith.mulf %r, %r : f32
    scf.for %i = %c0 to %c6 step %c1 {
      memref.store %u, %m[%i] : memref<6xf32>
    }
    return %u : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l1, %l2 = transform.split_handle %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.loop.fuse_sibling %l1 into %l2 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The later loop cannot move up above the definition of a value its body reads (reported
// at the op that reads it).
module attributes {transform.with_named_sequence} {
  func.func @target_body_reads_value_after_source(%m: memref<6xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    scf.for %i = %c0 to %c6 step %c1 {
      memref.store %v, %m[%i] : memref<6xf32>
    }
    %w = arith.mulf %v, %v : f32
    scf.for %i = %c0 to %c6 step %c1 {
      // expected-error @below {{values used inside regions of target should be properly dominated by source}}
      memref.store %w, %m[%i] : memref<6xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l1, %l2 = transform.split_handle %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.loop.fuse_sibling %l2 into %l1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The later loop cannot move up above the definition of one of its operands.
module attributes {transform.with_named_sequence} {
  func.func @target_operand_after_source(%m: memref<6xf32>, %v: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    scf.for %i = %c0 to %c6 step %c1 {
      memref.store %v, %m[%i] : memref<6xf32>
    }
    %w = arith.mulf %v, %v : f32
    // expected-error @below {{operands of target should be properly dominated by source}}
    %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %w) -> (f32) {
      scf.yield %acc : f32
    }
    return %r : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l1, %l2 = transform.split_handle %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.loop.fuse_sibling %l2 into %l1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Bounds are compared as SSA values: a second constant 4 is another step.
module attributes {transform.with_named_sequence} {
  func.func @different_steps(%m: memref<8xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    // expected-error @below {{operations cannot be fused}}
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    scf.for %i = %c0 to %c8 step %c2 {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %l1, %l2 = transform.split_handle %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.loop.fuse_sibling %l1 into %l2 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Different loop kinds, and loops in different blocks (reported at the source).
module attributes {transform.with_named_sequence} {
  func.func @kinds(%m: memref<8xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-error @below {{operations cannot be fused}}
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      memref.store %v, %m[%i] : memref<8xf32>
      scf.reduce
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.match ops{["scf.parallel"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.loop.fuse_sibling %l into %p : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @nested(%m: memref<8xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-error @below {{target and source are not in the same block}}
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        memref.store %v, %m[%j] : memref<8xf32>
      } {inner}
    } {outer}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %o = transform.structured.match ops{["scf.for"]} attributes {outer} in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.structured.match ops{["scf.for"]} attributes {inner} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.loop.fuse_sibling %i into %o : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Not a loop (reported at the target), and more than one payload op.
module attributes {transform.with_named_sequence} {
  func.func @not_a_loop(%m: memref<8xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    // expected-error @below {{operations cannot be fused}}
    func.return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.loop.fuse_sibling %r into %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @two_targets(%m: memref<8xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %v, %m[%i] : memref<8xf32>
    }
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      memref.store %v, %m[%i] : memref<8xf32>
      scf.reduce
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.structured.match ops{["scf.parallel"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{requires exactly one target handle (got 2) and exactly one source handle (got 1)}}
    %f = transform.loop.fuse_sibling %l into %p : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
