// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Two disjoint subsets of the iter_arg, each extracted and inserted at the same place:
// both become iter_args; the extractions move before the loop, the insertions after it
// (in reverse order). The loop handle follows the new loop.
// CHECK-LABEL: func.func @slices
// CHECK:         %[[S0:.*]] = tensor.extract_slice %[[T:.*]][0] [4] [1] : tensor<16xf32> to tensor<4xf32>
// CHECK-NEXT:    %[[S1:.*]] = tensor.extract_slice %[[T]][8] [4] [1] : tensor<16xf32> to tensor<4xf32>
// CHECK-NEXT:    %[[R0:.*]], %[[R1:.*]], %[[R2:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[T]], %[[B:.*]] = %[[S0]], %[[C:.*]] = %[[S1]]) -> (tensor<16xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:      %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      %[[G:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<4xf32>) outs(%[[F]] : tensor<4xf32>)
// CHECK:           scf.yield %[[A]], %[[G]], %[[C]] : tensor<16xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:    } {kept}
// CHECK-NEXT:    %[[I0:.*]] = tensor.insert_slice %[[R2]] into %[[R0]][8] [4] [1] : tensor<4xf32> into tensor<16xf32>
// CHECK-NEXT:    %[[I1:.*]] = tensor.insert_slice %[[R1]] into %[[I0]][0] [4] [1] : tensor<4xf32> into tensor<16xf32>
// CHECK-NEXT:    return %[[I1]]
module attributes {transform.with_named_sequence} {
  func.func @slices(%t: tensor<16xf32>, %n: index, %v: f32) -> tensor<16xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<16xf32>) {
      %s = tensor.extract_slice %a[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
      %o = tensor.extract_slice %a[8] [4] [1] : tensor<16xf32> to tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
      %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%o : tensor<4xf32>) outs(%f : tensor<4xf32>) {
      ^bb0(%x: f32, %y: f32):
        %z = arith.addf %x, %y : f32
        linalg.yield %z : f32
      } -> tensor<4xf32>
      %u = tensor.insert_slice %g into %a[0] [4] [1] : tensor<4xf32> into tensor<16xf32>
      %w = tensor.insert_slice %o into %u[8] [4] [1] : tensor<4xf32> into tensor<16xf32>
      scf.yield %w : tensor<16xf32>
    }
    return %r : tensor<16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %l : !transform.any_op
    transform.annotate %l "kept" : !transform.any_op
    transform.yield
  }
}

// -----

// A vector accumulator: transfer_read/transfer_write of the same place of a tensor.
// CHECK-LABEL: func.func @transfers
// CHECK:         %[[X:.*]] = vector.transfer_read %[[T:.*]][%[[C4:.*]]], %{{.*}} {in_bounds = [true]} : tensor<16xf32>, vector<4xf32>
// CHECK-NEXT:    %[[R0:.*]], %[[R1:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[T]], %[[V:.*]] = %[[X]]) -> (tensor<16xf32>, vector<4xf32>) {
// CHECK-NEXT:      %[[Y:.*]] = arith.addf %[[V]], %{{.*}} : vector<4xf32>
// CHECK-NEXT:      scf.yield %[[A]], %[[Y]] : tensor<16xf32>, vector<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.transfer_write %[[R1]], %[[R0]][%[[C4]]] {in_bounds = [true]} : vector<4xf32>, tensor<16xf32>
module attributes {transform.with_named_sequence} {
  func.func @transfers(%t: tensor<16xf32>, %n: index, %v: vector<4xf32>) -> tensor<16xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<16xf32>) {
      %x = vector.transfer_read %a[%c4], %pad {in_bounds = [true]} : tensor<16xf32>, vector<4xf32>
      %y = arith.addf %x, %v : vector<4xf32>
      %w = vector.transfer_write %y, %a[%c4] {in_bounds = [true]} : vector<4xf32>, tensor<16xf32>
      scf.yield %w : tensor<16xf32>
    }
    return %r : tensor<16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %l : !transform.any_op
    transform.yield
  }
}

// -----

// Not hoisted: the subset depends on the induction variable, or overlaps another one.
// CHECK-LABEL: func.func @not_hoisted
// CHECK:         scf.for
// CHECK-NEXT:      tensor.extract_slice
// CHECK:         scf.for
// CHECK-NEXT:      tensor.extract_slice
// CHECK-NEXT:      tensor.extract_slice
module attributes {transform.with_named_sequence} {
  func.func @not_hoisted(%t: tensor<16xf32>, %n: index, %v: f32) -> (tensor<16xf32>, tensor<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<16xf32>) {
      %s = tensor.extract_slice %a[%i] [4] [1] : tensor<16xf32> to tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
      %u = tensor.insert_slice %f into %a[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    %q = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<16xf32>) {
      %s = tensor.extract_slice %a[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
      %o = tensor.extract_slice %a[2] [4] [1] : tensor<16xf32> to tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
      %u = tensor.insert_slice %f into %a[0] [4] [1] : tensor<4xf32> into tensor<16xf32>
      %w = tensor.insert_slice %o into %u[2] [4] [1] : tensor<4xf32> into tensor<16xf32>
      scf.yield %w : tensor<16xf32>
    }
    return %r, %q : tensor<16xf32>, tensor<16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %l : !transform.any_op
    transform.yield
  }
}
