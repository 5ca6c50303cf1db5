// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// An in-bounds read of a slice reads the source at the slice offsets plus its
// indices; an out-of-bounds read keeps the slice (its padding would differ).
// CHECK-LABEL: func.func @read_of_slice
// CHECK-SAME:  (%[[T:.*]]: tensor<64x64xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK:       %[[SUM:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%[[J]], %[[I]]]
// CHECK:       %[[R:.*]] = vector.transfer_read %[[T]][%[[I]], %[[SUM]]], %{{.*}} {in_bounds = [true, true]} : tensor<64x64xf32>, vector<4x8xf32>
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[T]]
// CHECK:       vector.transfer_read %[[S]]
// CHECK-LABEL: func.func @rank_reducing_slice
// CHECK-SAME:  (%[[T:.*]]: tensor<8x16x32xf32>, %[[I:.*]]: index)
// CHECK:       vector.transfer_read %[[T]][%[[I]], %{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<8x16x32xf32>, vector<16xf32>
module attributes {transform.with_named_sequence} {
  func.func @read_of_slice(%t: tensor<64x64xf32>, %i: index, %j: index) -> (vector<4x8xf32>, vector<4x8xf32>) {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %s = tensor.extract_slice %t[%i, %j] [4, 8] [1, 1] : tensor<64x64xf32> to tensor<4x8xf32>
    %r = vector.transfer_read %s[%c0, %i], %pad {in_bounds = [true, true]} : tensor<4x8xf32>, vector<4x8xf32>
    %s2 = tensor.extract_slice %t[%i, %j] [4, 8] [1, 1] : tensor<64x64xf32> to tensor<4x8xf32>
    %r2 = vector.transfer_read %s2[%c0, %i], %pad : tensor<4x8xf32>, vector<4x8xf32>
    return %r, %r2 : vector<4x8xf32>, vector<4x8xf32>
  }
  func.func @rank_reducing_slice(%t: tensor<8x16x32xf32>, %i: index) -> vector<16xf32> {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %s = tensor.extract_slice %t[%i, 0, 16] [1, 16, 16] [1, 1, 1] : tensor<8x16x32xf32> to tensor<16x16xf32>
    %r = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true]} : tensor<16x16xf32>, vector<16xf32>
    return %r : vector<16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A write of a whole static tensor, then inserted, writes into the destination; a
// masked read keeps its mask around the folded read.
// CHECK-LABEL: func.func @insert_of_write
// CHECK-SAME:  (%[[V:.*]]: vector<4x8xf32>, %[[E:.*]]: tensor<4x8xf32>, %[[D:.*]]: tensor<64x64xf32>, %[[I:.*]]: index)
// CHECK:       %[[W:.*]] = vector.transfer_write %[[V]], %[[D]][%[[I]], %{{.*}}] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<64x64xf32>
// CHECK:       return %[[W]]
// CHECK-LABEL: func.func @masked_read
// CHECK-SAME:  (%[[T:.*]]: tensor<64x64xf32>, %[[I:.*]]: index, %[[M:.*]]: vector<4x8xi1>)
// CHECK:       vector.mask %[[M]] { vector.transfer_read %[[T]][%[[I]], %{{.*}}]
module attributes {transform.with_named_sequence} {
  func.func @insert_of_write(%v: vector<4x8xf32>, %e: tensor<4x8xf32>, %d: tensor<64x64xf32>, %i: index) -> tensor<64x64xf32> {
    %c0 = arith.constant 0 : index
    %w = vector.transfer_write %v, %e[%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<4x8xf32>
    %r = tensor.insert_slice %w into %d[%i, 16] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  func.func @masked_read(%t: tensor<64x64xf32>, %i: index, %m: vector<4x8xi1>) -> vector<4x8xf32> {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %s = tensor.extract_slice %t[%i, 8] [4, 8] [1, 1] : tensor<64x64xf32> to tensor<4x8xf32>
    %r = vector.mask %m { vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<4x8xf32>, vector<4x8xf32> } : vector<4x8xi1> -> vector<4x8xf32>
    return %r : vector<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Strided slices and writes that may not cover their tensor are left alone.
// CHECK-LABEL: func.func @not_folded
// CHECK:       tensor.extract_slice
// CHECK:       vector.transfer_read
// CHECK:       vector.transfer_write
// CHECK:       tensor.insert_slice
module attributes {transform.with_named_sequence} {
  func.func @not_folded(%t: tensor<64x64xf32>, %v: vector<4xf32>, %e: tensor<?xf32>, %d: tensor<64xf32>, %n: index) -> (vector<4x8xf32>, tensor<64xf32>) {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %s = tensor.extract_slice %t[0, 0] [4, 8] [2, 1] : tensor<64x64xf32> to tensor<4x8xf32>
    %r = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<4x8xf32>, vector<4x8xf32>
    %w = vector.transfer_write %v, %e[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<?xf32>
    %i = tensor.insert_slice %w into %d[0] [%n] [1] : tensor<?xf32> into tensor<64xf32>
    return %r, %i : vector<4x8xf32>, tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
    transform.yield
  }
}
