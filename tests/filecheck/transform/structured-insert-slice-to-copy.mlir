// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// insert_slice and parallel_insert_slice insert a linalg.copy of their source into the
// slice of the destination (for the parallel one, before the in_parallel terminator);
// the handle holds the copies.
// CHECK-LABEL: func.func @insert_slice_to_copy
// CHECK-SAME:  (%[[S:.*]]: tensor<4x8xf32>, %[[D:.*]]: tensor<16x64xf32>, %[[I:.*]]: index)
// CHECK:       %[[E:.*]] = tensor.extract_slice %[[D]][0, %[[I]]] [4, 8] [1, 1] : tensor<16x64xf32> to tensor<4x8xf32>
// CHECK:       %[[C:.*]] = linalg.copy {copy} ins(%[[S]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:       tensor.insert_slice %[[C]] into %[[D]][0, %[[I]]] [4, 8] [1, 1]
// CHECK:       scf.forall (%{{.*}}) in (4) shared_outs(%[[O:.*]] = %[[D]])
// CHECK:         %[[OFF:.*]] = affine.apply
// CHECK:         %[[E2:.*]] = tensor.extract_slice %[[O]][%[[OFF]], 0] [4, 8] [1, 1]
// CHECK:         %[[C2:.*]] = linalg.copy {copy} ins(%[[S]] : tensor<4x8xf32>) outs(%[[E2]] : tensor<4x8xf32>)
// CHECK:         scf.forall.in_parallel {
// CHECK-NEXT:      tensor.parallel_insert_slice %[[C2]] into %[[O]][%[[OFF]], 0] [4, 8] [1, 1]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.insert_slice", "tensor.parallel_insert_slice"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.insert_slice_to_copy %0 : (!transform.any_op) -> !transform.any_op
    transform.annotate %1 "copy" : !transform.any_op
    transform.yield
  }
  func.func @insert_slice_to_copy(%s: tensor<4x8xf32>, %d: tensor<16x64xf32>, %i: index) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
    %r = tensor.insert_slice %s into %d[0, %i] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x64xf32>
    %f = scf.forall (%t) in (4) shared_outs(%o = %d) -> (tensor<16x64xf32>) {
      %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%t)
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %s into %o[%off, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x64xf32>
      }
    }
    return %r, %f : tensor<16x64xf32>, tensor<16x64xf32>
  }
}

// -----

// A source that already is a linalg.copy is returned as is (no second copy); after
// One-Shot Bufferize the copy is the only data movement.
// CHECK-LABEL: func.func @already_a_copy
// CHECK:       linalg.copy {existing} ins
// CHECK-NOT:   linalg.copy
// CHECK-LABEL: func.func @bufferized
// CHECK-SAME:  (%[[S:.*]]: memref<4x8xf32>, %[[D:.*]]: memref<16x64xf32>, %[[I:.*]]: index)
// CHECK-NOT:   memref.alloc
// CHECK:       %[[V:.*]] = memref.subview %[[D]][0, %[[I]]] [4, 8] [1, 1]
// CHECK:       linalg.copy ins(%[[S]] : memref<4x8xf32>) outs(%[[V]] : memref<4x8xf32, strided<[64, 1], offset: ?>>)
// CHECK-NOT:   memref.copy
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["tensor.insert_slice"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.insert_slice_to_copy %0 : (!transform.any_op) -> !transform.any_op
    %again = transform.structured.match ops{["tensor.insert_slice"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2 = transform.structured.insert_slice_to_copy %again : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match ops{["func.func"]} attributes{sym_name = "already_a_copy"} in %arg1 : (!transform.any_op) -> !transform.any_op
    %c = transform.structured.match ops{["linalg.copy"]} in %f : (!transform.any_op) -> !transform.any_op
    transform.annotate %c "existing" : !transform.any_op
    %m = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %arg1 <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @already_a_copy(%s: tensor<4x8xf32>, %d: tensor<16x64xf32>, %i: index) -> tensor<16x64xf32> {
    %r = tensor.insert_slice %s into %d[0, %i] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x64xf32>
    return %r : tensor<16x64xf32>
  }
  func.func @bufferized(%s: tensor<4x8xf32>, %d: tensor<16x64xf32>, %i: index) -> tensor<16x64xf32> {
    %e = tensor.extract_slice %d[0, %i] [4, 8] [1, 1] : tensor<16x64xf32> to tensor<4x8xf32>
    %c = linalg.copy ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %r = tensor.insert_slice %c into %d[0, %i] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x64xf32>
    return %r : tensor<16x64xf32>
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.extract_slice"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only InsertSliceOp and ParallelInsertSliceOp ops are supported}}
    %1 = transform.structured.insert_slice_to_copy %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @wrong_op(%d: tensor<16x64xf32>) -> tensor<4x8xf32> {
    // expected-note @below {{target op}}
    %e = tensor.extract_slice %d[0, 0] [4, 8] [1, 1] : tensor<16x64xf32> to tensor<4x8xf32>
    return %e : tensor<4x8xf32>
  }
}
