// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// memref.fold_memref_alias_ops: loads, stores and in-bounds unmasked transfers through a
// subview access its source at offset + index * stride (a dropped dim at its offset); a
// subview of a subview is one subview of the source; a transfer with an out-of-bounds
// dim stays.
// CHECK-LABEL: func.func @load_store
// CHECK-SAME:  (%[[M:[^:]*]]: memref<64x64xf32>, %[[I:[^:]*]]: index, %[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %[[V:[^:]*]]: f32)
// CHECK:       %[[R0:.*]] = affine.apply affine_map<()[s0, s1] -> ({{.*}}s0 + s1{{.*}})>()[%[[I]], %[[A]]]
// CHECK:       %[[R1:.*]] = affine.apply affine_map<()[s0] -> ({{.*}}s0 + 4{{.*}})>()[%[[B]]]
// CHECK:       memref.load %[[M]][%[[R0]], %[[R1]]] : memref<64x64xf32>
// CHECK:       memref.store %[[V]], %[[M]][%{{.*}}, %{{.*}}] : memref<64x64xf32>
// CHECK-LABEL: func.func @rank_reduced
// CHECK-SAME:  (%[[M:[^:]*]]: memref<64x64xf32>, %[[I:[^:]*]]: index, %[[A:[^:]*]]: index)
// CHECK:       %[[J:.*]] = affine.apply affine_map<()[s0] -> ({{.*}}s0 + 4{{.*}})>()[%[[A]]]
// CHECK:       %[[X:.*]] = vector.transfer_read %[[M]][%[[I]], %[[J]]], %{{.*}} {in_bounds = [true]} : memref<64x64xf32>, vector<4xf32>
// CHECK:       vector.transfer_write %[[X]], %[[M]][%[[I]], %{{.*}}] {in_bounds = [true]} : vector<4xf32>, memref<64x64xf32>
// CHECK-LABEL: func.func @subview_of_subview
// CHECK:       %[[O:.*]] = affine.apply
// CHECK:       %[[T:.*]] = memref.subview %{{.*}}[%[[O]], 6] [2, 4] [1, 1] : memref<64x64xf32> to memref<2x4xf32, strided<[64, 1], offset: ?>>
// CHECK:       return %[[T]]
// CHECK-LABEL: func.func @not_folded
// CHECK:       %[[S:.*]] = memref.subview
// CHECK:       vector.transfer_read %[[S]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %0 {
      transform.apply_patterns.memref.fold_memref_alias_ops
    } : !transform.any_op
    transform.yield
  }
  func.func @load_store(%m: memref<64x64xf32>, %i: index, %a: index, %b: index, %v: f32) -> f32 {
    %s = memref.subview %m[%i, 4] [8, 8] [1, 1] : memref<64x64xf32> to memref<8x8xf32, strided<[64, 1], offset: ?>>
    %x = memref.load %s[%a, %b] : memref<8x8xf32, strided<[64, 1], offset: ?>>
    memref.store %v, %s[%b, %a] : memref<8x8xf32, strided<[64, 1], offset: ?>>
    return %x : f32
  }
  func.func @rank_reduced(%m: memref<64x64xf32>, %i: index, %a: index) -> vector<4xf32> {
    %s = memref.subview %m[%i, 4] [1, 8] [1, 1] : memref<64x64xf32> to memref<8xf32, strided<[1], offset: ?>>
    %p = arith.constant 0.0 : f32
    %x = vector.transfer_read %s[%a], %p {in_bounds = [true]} : memref<8xf32, strided<[1], offset: ?>>, vector<4xf32>
    vector.transfer_write %x, %s[%a] {in_bounds = [true]} : vector<4xf32>, memref<8xf32, strided<[1], offset: ?>>
    return %x : vector<4xf32>
  }
  func.func @subview_of_subview(%m: memref<64x64xf32>, %i: index, %j: index) -> memref<2x4xf32, strided<[64, 1], offset: ?>> {
    %s = memref.subview %m[%i, 4] [8, 8] [1, 1] : memref<64x64xf32> to memref<8x8xf32, strided<[64, 1], offset: ?>>
    %t = memref.subview %s[%j, 2] [2, 4] [1, 1] : memref<8x8xf32, strided<[64, 1], offset: ?>> to memref<2x4xf32, strided<[64, 1], offset: ?>>
    return %t : memref<2x4xf32, strided<[64, 1], offset: ?>>
  }
  func.func @not_folded(%m: memref<64x64xf32>, %i: index, %a: index) -> vector<4xf32> {
    %s = memref.subview %m[%i, 4] [8, 8] [1, 1] : memref<64x64xf32> to memref<8x8xf32, strided<[64, 1], offset: ?>>
    %p = arith.constant 0.0 : f32
    %x = vector.transfer_read %s[%a, %a], %p : memref<8x8xf32, strided<[64, 1], offset: ?>>, vector<4xf32>
    return %x : vector<4xf32>
  }
}

// -----

// memref.alloc_to_alloca size_limit(64): only the 32-byte buffer freed later in its own
// block becomes an alloca (its dealloc goes); a larger one, one never freed and one
// freed under a condition stay.
// CHECK-LABEL: func.func @alloc_to_alloca
// CHECK:       %[[A:.*]] = memref.alloca() : memref<8xf32>
// CHECK:       memref.load %[[A]]
// CHECK-NOT:   memref.dealloc %[[A]]
// CHECK:       %[[B:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       memref.dealloc %[[B]]
// CHECK:       memref.alloc() : memref<4xf32>
// CHECK:       %[[E:.*]] = memref.alloc() : memref<4xf32>
// CHECK:       scf.if
// CHECK-NEXT:    memref.dealloc %[[E]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %0 {
      transform.apply_patterns.memref.alloc_to_alloca size_limit(64)
    } : !transform.any_op
    transform.yield
  }
  func.func @alloc_to_alloca(%v: f32, %i: index, %c: i1) -> f32 {
    %a = memref.alloc() : memref<8xf32>
    memref.store %v, %a[%i] : memref<8xf32>
    %x = memref.load %a[%i] : memref<8xf32>
    memref.dealloc %a : memref<8xf32>
    %b = memref.alloc() : memref<64xf32>
    memref.store %v, %b[%i] : memref<64xf32>
    memref.dealloc %b : memref<64xf32>
    %d = memref.alloc() : memref<4xf32>
    memref.store %v, %d[%i] : memref<4xf32>
    %e = memref.alloc() : memref<4xf32>
    memref.store %v, %e[%i] : memref<4xf32>
    scf.if %c {
      memref.dealloc %e : memref<4xf32>
    }
    return %x : f32
  }
}

// -----

// tensor.fold_tensor_empty: slices and reshapes of a tensor.empty are tensor.empty ops of
// their result type (rank-reduced slices keep their type, dynamic sizes their values).
// CHECK-LABEL: func.func @slices
// CHECK-SAME:  (%{{.*}}: index, %[[N:[^:]*]]: index)
// CHECK-NEXT:  %[[S:.*]] = tensor.empty() : tensor<4x64xf32>
// CHECK-NEXT:  %[[R:.*]] = tensor.empty() : tensor<64xf32>
// CHECK-NEXT:  %[[D:.*]] = tensor.empty(%[[N]]) : tensor<?x8xf32>
// CHECK-NEXT:  %[[X:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK-NEXT:  %[[C:.*]] = tensor.empty() : tensor<128xf32>
// CHECK-NEXT:  return %[[S]], %[[R]], %[[D]], %[[X]], %[[C]]
// CHECK-LABEL: func.func @single_use
// CHECK:       tensor.empty() : tensor<4x64xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %0 {
      transform.apply_patterns.tensor.fold_tensor_empty
    } : !transform.any_op
    transform.yield
  }
  func.func @slices(%i: index, %n: index) -> (tensor<4x64xf32>, tensor<64xf32>, tensor<?x8xf32>, tensor<2x4x8xf32>, tensor<128xf32>) {
    %e = tensor.empty() : tensor<16x64xf32>
    %s = tensor.extract_slice %e[%i, 0] [4, 64] [1, 1] : tensor<16x64xf32> to tensor<4x64xf32>
    %r = tensor.extract_slice %e[%i, 0] [1, 64] [1, 1] : tensor<16x64xf32> to tensor<64xf32>
    %d = tensor.extract_slice %e[%i, 0] [%n, 8] [1, 1] : tensor<16x64xf32> to tensor<?x8xf32>
    %e2 = tensor.empty() : tensor<8x8xf32>
    %x = tensor.expand_shape %e2 [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
    %e3 = tensor.empty() : tensor<2x64xf32>
    %c = tensor.collapse_shape %e3 [[0, 1]] : tensor<2x64xf32> into tensor<128xf32>
    return %s, %r, %d, %x, %c : tensor<4x64xf32>, tensor<64xf32>, tensor<?x8xf32>, tensor<2x4x8xf32>, tensor<128xf32>
  }
  func.func @single_use(%i: index) -> (tensor<4x64xf32>, tensor<16x64xf32>) {
    %e = tensor.empty() : tensor<16x64xf32>
    %s = tensor.extract_slice %e[%i, 0] [4, 64] [1, 1] : tensor<16x64xf32> to tensor<4x64xf32>
    return %s, %e : tensor<4x64xf32>, tensor<16x64xf32>
  }
}

// -----

// fold_single_use_only: a tensor.empty with another use stays sliced.
// CHECK-LABEL: func.func @single_use_only
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<16x64xf32>
// CHECK:       tensor.extract_slice %[[E]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %0 {
      transform.apply_patterns.tensor.fold_tensor_empty fold_single_use_only = true
    } : !transform.any_op
    transform.yield
  }
  func.func @single_use_only(%i: index) -> (tensor<4x64xf32>, tensor<16x64xf32>) {
    %e = tensor.empty() : tensor<16x64xf32>
    %s = tensor.extract_slice %e[%i, 0] [4, 64] [1, 1] : tensor<16x64xf32> to tensor<4x64xf32>
    return %s, %e : tensor<4x64xf32>, tensor<16x64xf32>
  }
}

// -----

// memref.expand_strided_metadata: a subview is a reinterpret_cast of its source's base
// buffer (offset and strides from the source's static layout or its metadata); the
// metadata of an allocation is its sizes, offset 0 and row-major strides.
// CHECK-LABEL: func.func @subview
// CHECK-SAME:  (%[[M:[^:]*]]: memref<64x64xf32>, %[[I:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK:       %[[BASE:[a-z_0-9]*]], %{{.*}} = memref.extract_strided_metadata %[[M]] : memref<64x64xf32> -> memref<f32>, index, index, index, index, index
// CHECK:       %[[OFF:.*]] = affine.apply affine_map<()[s0] -> (s0 * 64 + 4)>()[%[[I]]]
// CHECK:       %[[R:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[N]], 8], strides: [64, 1] : memref<f32> to memref<?x8xf32, strided<[64, 1], offset: ?>>
// CHECK:       return %[[R]]
// CHECK-LABEL: func.func @subview_dyn
// CHECK:       %[[BASE:[a-z_0-9]*]], %[[OFFSET:[^,]*]], %{{.*}}, %{{.*}}, %{{.*}}, %[[S1:[^ ]*]] = memref.extract_strided_metadata
// CHECK:       %[[STRIDE:.*]] = affine.apply affine_map<()[s0] -> ({{.*}}s0 * 2{{.*}})>()[%[[S1]]]
// CHECK:       memref.reinterpret_cast %[[BASE]] to offset: [%{{.*}}], sizes: [8], strides: [%[[STRIDE]]]
// CHECK-LABEL: func.func @alloc_meta
// CHECK-SAME:  (%[[N:[^:]*]]: index)
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
// CHECK:       return %[[C0]], %[[N]], %[[C8]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %0 {
      transform.apply_patterns.memref.expand_strided_metadata
    } : !transform.any_op
    transform.yield
  }
  func.func @subview(%m: memref<64x64xf32>, %i: index, %n: index) -> memref<?x8xf32, strided<[64, 1], offset: ?>> {
    %s = memref.subview %m[%i, 4] [%n, 8] [1, 1] : memref<64x64xf32> to memref<?x8xf32, strided<[64, 1], offset: ?>>
    return %s : memref<?x8xf32, strided<[64, 1], offset: ?>>
  }
  func.func @subview_dyn(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %i: index, %n: index) -> memref<8xf32, strided<[?], offset: ?>> {
    %s = memref.subview %m[%i, 4] [1, 8] [1, 2] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<8xf32, strided<[?], offset: ?>>
    return %s : memref<8xf32, strided<[?], offset: ?>>
  }
  func.func @alloc_meta(%n: index) -> (index, index, index) {
    %a = memref.alloc(%n) : memref<?x8xf32>
    %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %a : memref<?x8xf32> -> memref<f32>, index, index, index, index, index
    return %off, %sizes#0, %strides#0 : index, index, index
  }
}
