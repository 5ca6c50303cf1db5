// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// tensor.pad: the allocation (sizes from the pad's, constants folded) is filled with the
// padding value and the source is materialized into the subview at the low padding; the
// pad becomes a restrict/writable to_tensor of the allocation. The new ops handle holds
// one fill and one materialize_in_destination.
// CHECK-LABEL: func.func @tensor_pad_constant
// CHECK-SAME:  (%[[T:.*]]: tensor<?x10xindex>, %[[L2:.*]]: index, %[[H1:.*]]: index, %[[H2:.*]]: index)
// CHECK:       %[[D0:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<?x10xindex>
// CHECK:       %[[S0:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 5)>()[%[[D0]], %[[H1]]]
// CHECK:       %[[S1:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 10)>()[%[[L2]], %[[H2]]]
// CHECK:       %[[ALLOC:.*]] = memref.alloc(%[[S0]], %[[S1]]) : memref<?x?xindex>
// CHECK:       %[[C50:.*]] = arith.constant 50 : index
// CHECK:       linalg.fill {filled} ins(%[[C50]] : index) outs(%[[ALLOC]] : memref<?x?xindex>)
// CHECK:       %[[D1:.*]] = tensor.dim %[[T]], %{{.*}} : tensor<?x10xindex>
// CHECK:       %[[SV:.*]] = memref.subview %[[ALLOC]][5, %[[L2]]] [%[[D1]], 10] [1, 1]
// CHECK:       bufferization.materialize_in_destination %[[T]] in writable %[[SV]] {copied}
// CHECK:       %[[R:.*]] = bufferization.to_tensor %[[ALLOC]] restrict writable : memref<?x?xindex> to tensor<?x?xindex>
// CHECK:       memref.dealloc %[[ALLOC]]
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.pad"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{emit_dealloc}> : !transform.any_op
    %fill = transform.select "linalg.fill" in %new : (!transform.any_op) -> !transform.any_op
    transform.annotate %fill "filled" : !transform.any_op
    %mat = transform.select "bufferization.materialize_in_destination" in %new : (!transform.any_op) -> !transform.any_op
    transform.annotate %mat "copied" : !transform.any_op
    transform.yield
  }
  func.func @tensor_pad_constant(%t: tensor<?x10xindex>, %l2: index, %h1: index, %h2: index) -> tensor<?x?xindex> {
    %0 = tensor.pad %t low[5, %l2] high[%h1, %h2] {
    ^bb0(%arg0: index, %arg1: index):
      %c = arith.constant 50 : index
      tensor.yield %c : index
    } : tensor<?x10xindex> to tensor<?x?xindex>
    return %0 : tensor<?x?xindex>
  }
}

// -----

// memory_space = 3, alloc_op = "memref.alloca", memcpy_op = "linalg.copy" (of a read-only
// fully dynamic to_buffer of the source); then One-Shot Bufferize bufferizes the rest.
// CHECK-LABEL: func.func @tensor_pad_constant_with_custom_copy
// CHECK-NOT:   bufferization.materialize_in_destination
// CHECK-NOT:   memref.copy
// CHECK:       %[[A:.*]] = memref.alloca(%{{.*}}, %{{.*}}) : memref<?x?xindex, 3 : i64>
// CHECK:       linalg.fill ins(%{{.*}} : index) outs(%[[A]] : memref<?x?xindex, 3 : i64>)
// CHECK:       %[[SV:.*]] = memref.subview %[[A]]
// CHECK:       linalg.copy ins(%{{.*}} : memref<?x10xindex, strided<[?, ?], offset: ?>>) outs(%[[SV]] : memref<?x10xindex, strided<[?, 1], offset: ?>, 3 : i64>)
// CHECK-NOT:   memref.dealloc
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["tensor.pad"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = 3, alloc_op = "memref.alloca", memcpy_op = "linalg.copy", emit_dealloc}> : !transform.any_op
    %4 = transform.bufferization.one_shot_bufferize %arg1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @tensor_pad_constant_with_custom_copy(%t: tensor<?x10xindex>, %l2: index, %h1: index, %h2: index) -> tensor<?x?xindex> {
    %0 = tensor.pad %t low[5, %l2] high[%h1, %h2] {
    ^bb0(%arg0: index, %arg1: index):
      %c = arith.constant 50 : index
      tensor.yield %c : index
    } : tensor<?x10xindex> to tensor<?x?xindex>
    return %0 : tensor<?x?xindex>
  }
}

// -----

// memcpy_op = "memref.copy": a read-only, fully dynamic to_buffer of the source is copied.
// CHECK-LABEL: func.func @tensor_pad_memref_copy
// CHECK-SAME:  (%[[T:.*]]: tensor<4x10xindex>, %[[V:.*]]: index)
// CHECK:       %[[ALLOC:.*]] = memref.alloc() : memref<6x12xindex>
// CHECK:       linalg.fill ins(%[[V]] : index) outs(%[[ALLOC]] : memref<6x12xindex>)
// CHECK:       %[[SV:.*]] = memref.subview %[[ALLOC]][1, 1] [4, 10] [1, 1]
// CHECK:       %[[M:.*]] = bufferization.to_buffer %[[T]] read_only : tensor<4x10xindex> to memref<4x10xindex, strided<[?, ?], offset: ?>>
// CHECK:       memref.copy %[[M]], %[[SV]]
// CHECK:       bufferization.to_tensor %[[ALLOC]] restrict writable
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.pad"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memcpy_op = "memref.copy"}> : !transform.any_op
    transform.yield
  }
  func.func @tensor_pad_memref_copy(%t: tensor<4x10xindex>, %v: index) -> tensor<6x12xindex> {
    %0 = tensor.pad %t low[1, 1] high[1, 1] {
    ^bb0(%i: index, %j: index):
      tensor.yield %v : index
    } : tensor<4x10xindex> to tensor<6x12xindex>
    return %0 : tensor<6x12xindex>
  }
}

// -----

// tensor.insert: its destination is copied into the allocation (memory space 4) and the
// insert becomes a store; One-Shot Bufferize then turns the materialization into a copy.
// CHECK-LABEL: func.func @tensor_insert
// CHECK-SAME:  (%[[T:.*]]: tensor<?x10xindex>, %[[IDX:.*]]: index, %[[V:.*]]: index)
// CHECK:       %[[M:.*]] = bufferization.to_buffer %[[T]]
// CHECK:       %[[ALLOC:.*]] = memref.alloc(%{{.*}}) : memref<?x10xindex, 4 : i64>
// CHECK:       memref.copy %[[M]], %[[ALLOC]]
// CHECK:       memref.store %[[V]], %[[ALLOC]][%[[IDX]], %[[IDX]]]
// CHECK:       %[[R:.*]] = bufferization.to_tensor %[[ALLOC]]
// CHECK:       memref.dealloc %[[ALLOC]]
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["tensor.insert"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = 4, emit_dealloc}> : !transform.any_op
    %4 = transform.bufferization.one_shot_bufferize %arg1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @tensor_insert(%t: tensor<?x10xindex>, %idx: index, %v: index) -> tensor<?x10xindex> {
    %r = tensor.insert %v into %t[%idx, %idx] : tensor<?x10xindex>
    return %r : tensor<?x10xindex>
  }
}

// -----

// Inserting into a tensor.empty: nothing to copy.
// CHECK-LABEL: func.func @tensor_insert_into_empty
// CHECK:       %[[ALLOC:.*]] = memref.alloc() : memref<10xindex, 4 : i64>
// CHECK-NOT:   memref.copy
// CHECK:       memref.store %{{.*}}, %[[ALLOC]]
// CHECK:       %[[R:.*]] = bufferization.to_tensor %[[ALLOC]]
// CHECK:       memref.dealloc %[[ALLOC]]
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["tensor.insert"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = 4, emit_dealloc}> : !transform.any_op
    %4 = transform.bufferization.one_shot_bufferize %arg1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @tensor_insert_into_empty(%idx: index, %v: index) -> tensor<10xindex> {
    %e = tensor.empty() : tensor<10xindex>
    %r = tensor.insert %v into %e[%idx] : tensor<10xindex>
    return %r : tensor<10xindex>
  }
}

// -----

// A structured op: its init is materialized into workgroup memory and the op runs there;
// its inputs are read through fully dynamic to_buffer ops after their definitions.
// CHECK-LABEL: func.func @matmul_workgroup
// CHECK-SAME:  (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x5xf32>, %[[C:.*]]: tensor<4x5xf32>)
// CHECK:       %[[MB:.*]] = bufferization.to_buffer %[[B]] : tensor<8x5xf32> to memref<8x5xf32, strided<[?, ?], offset: ?>>
// CHECK:       %[[MA:.*]] = bufferization.to_buffer %[[A]] : tensor<4x8xf32> to memref<4x8xf32, strided<[?, ?], offset: ?>>
// CHECK:       %[[W:.*]] = memref.alloc() : memref<4x5xf32, #gpu.address_space<workgroup>>
// CHECK:       bufferization.materialize_in_destination %[[C]] in writable %[[W]]
// CHECK:       linalg.matmul ins(%[[MA]], %[[MB]] : {{.*}}) outs(%[[W]] : memref<4x5xf32, #gpu.address_space<workgroup>>)
// CHECK:       %[[R:.*]] = bufferization.to_tensor %[[W]] restrict writable : memref<4x5xf32, #gpu.address_space<workgroup>> to tensor<4x5xf32>
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = #gpu.address_space<workgroup>}> : !transform.any_op
    transform.yield
  }
  func.func @matmul_workgroup(%A: tensor<4x8xf32>, %B: tensor<8x5xf32>, %C: tensor<4x5xf32>) -> tensor<4x5xf32> {
    %m = linalg.matmul ins(%A, %B : tensor<4x8xf32>, tensor<8x5xf32>) outs(%C : tensor<4x5xf32>) -> tensor<4x5xf32>
    return %m : tensor<4x5xf32>
  }
}

// -----

// A tile computed in private memory inside an scf.forall, the whole function then
// bufferized: the tile is copied out through the forall's shared output. One-Shot
// Bufferize frees the allocation nobody frees after its last use (upstream leaves that to
// its ownership-based deallocation).
// CHECK-LABEL: func.func @forall_private
// CHECK:       scf.forall
// CHECK:         %[[P:.*]] = memref.alloc() : memref<4x4xf32, #gpu.address_space<private>>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[P]] : memref<4x4xf32, #gpu.address_space<private>>)
// CHECK:         %[[SV:.*]] = memref.subview
// CHECK:         memref.copy %[[P]], %[[SV]] : memref<4x4xf32, #gpu.address_space<private>> to memref<4x4xf32, strided<[16, 1], offset: ?>>
// CHECK-NEXT:    memref.dealloc %[[P]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.consumed}) {
    %0 = transform.structured.match ops{["linalg.fill"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = #gpu.address_space<private>}> : !transform.any_op
    %4 = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %arg1 <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @forall_private(%t: tensor<16x16xf32>, %x: f32) -> tensor<16x16xf32> {
    %r = scf.forall (%i, %j) in (4, 4) shared_outs(%o = %t) -> (tensor<16x16xf32>) {
      %oi = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
      %oj = affine.apply affine_map<(d0) -> (d0 * 4)>(%j)
      %e = tensor.empty() : tensor<4x4xf32>
      %f = linalg.fill ins(%x : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %f into %o[%oi, %oj] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<16x16xf32>
      }
    }
    return %r : tensor<16x16xf32>
  }
}

// -----

func.func @tensor_extract(%t: tensor<?x10xindex>, %idx: index) -> index {
  // expected-note @below {{target payload op}}
  %r = tensor.extract %t[%idx, %idx] : tensor<?x10xindex>
  return %r : index
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.extract"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to bufferize operation}}
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = 4, emit_dealloc}> : !transform.any_op
    transform.yield
  }
}

// -----

func.func @empty(%idx: index) -> tensor<10xindex> {
  // expected-note @below {{target payload op}}
  %e = tensor.empty() : tensor<10xindex>
  return %e : tensor<10xindex>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.empty"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to bufferize operation}}
    %2, %new = transform.structured.bufferize_to_allocation %0 : !transform.any_op
    transform.yield
  }
}

// -----

// bufferize_destination_only: only the destination is replaced by its copy, the op stays
// on tensors; the target handle is only read, so it is still usable.
// CHECK-LABEL: func.func @tensor_insert_destination
// CHECK-SAME:  (%[[T:.*]]: tensor<?x10xindex>
// CHECK:       %[[ALLOC:.*]] = memref.alloc(%{{.*}}) : memref<?x10xindex, 4 : i64>
// CHECK:       bufferization.materialize_in_destination %[[T]] in writable %[[ALLOC]]
// CHECK:       %[[T2:.*]] = bufferization.to_tensor %[[ALLOC]] restrict writable
// CHECK:       %[[INS:.*]] = tensor.insert %{{.*}} into %[[T2]]{{.*}} {still_valid}
// CHECK:       memref.dealloc %[[ALLOC]]
// CHECK:       return %[[INS]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.insert"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = 4, bufferize_destination_only, emit_dealloc}> : !transform.any_op
    transform.annotate %0 "still_valid" : !transform.any_op
    transform.yield
  }
  func.func @tensor_insert_destination(%t: tensor<?x10xindex>, %idx: index, %v: index) -> tensor<?x10xindex> {
    %r = tensor.insert %v into %t[%idx, %idx] : tensor<?x10xindex>
    return %r : tensor<?x10xindex>
  }
}

// -----

// bufferize_destination_only on a loop: its init becomes the copy.
// CHECK-LABEL: func.func @scf_for_destination
// CHECK-SAME:  (%[[T:.*]]: tensor<?x10xindex>
// CHECK:       %[[ALLOC:.*]] = memref.alloc(%{{.*}}) : memref<?x10xindex, 4 : i64>
// CHECK:       bufferization.materialize_in_destination %[[T]] in writable %[[ALLOC]]
// CHECK:       %[[T2:.*]] = bufferization.to_tensor %[[ALLOC]] restrict writable
// CHECK:       %[[FOR:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[T2]])
// CHECK:       memref.dealloc %[[ALLOC]]
// CHECK:       return %[[FOR]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["scf.for"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = 4, bufferize_destination_only, emit_dealloc}> : !transform.any_op
    transform.yield
  }
  func.func @scf_for_destination(%t: tensor<?x10xindex>, %lb: index, %ub: index, %step: index, %v: index) -> tensor<?x10xindex> {
    %r = scf.for %iv = %lb to %ub step %step iter_args(%a = %t) -> (tensor<?x10xindex>) {
      %b = tensor.insert %v into %a[%iv, %iv] : tensor<?x10xindex>
      scf.yield %b : tensor<?x10xindex>
    }
    return %r : tensor<?x10xindex>
  }
}

// -----

// Without emit_dealloc no deallocation is emitted.
// CHECK-LABEL: func.func @tensor_insert_destination_no_dealloc
// CHECK-NOT:   dealloc
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["tensor.insert"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2, %new = transform.structured.bufferize_to_allocation %0 <{memory_space = 4, bufferize_destination_only}> : !transform.any_op
    transform.yield
  }
  func.func @tensor_insert_destination_no_dealloc(%t: tensor<?x10xindex>, %idx: index, %v: index) -> tensor<?x10xindex> {
    %r = tensor.insert %v into %t[%idx, %idx] : tensor<?x10xindex>
    return %r : tensor<?x10xindex>
  }
}

// -----

// alloc_tensor becomes the allocation itself (upstream's transform-ops.mlir case).
// CHECK-LABEL: func.func @empty_to_tensor_alloc
// CHECK-NEXT:  %[[ALLOCA:.*]] = memref.alloca() : memref<2x2xf32>
// CHECK-NEXT:  %[[TENSOR:.*]] = bufferization.to_tensor %[[ALLOCA]] restrict writable : memref<2x2xf32> to tensor<2x2xf32>
// CHECK-NEXT:  return %[[TENSOR]] : tensor<2x2xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %alloc_tensor = transform.structured.match ops{["bufferization.alloc_tensor"]} in %arg1
      : (!transform.any_op) -> !transform.op<"bufferization.alloc_tensor">
    %2, %new = transform.structured.bufferize_to_allocation %alloc_tensor
      <{alloc_op = "memref.alloca"}> : !transform.op<"bufferization.alloc_tensor">
    transform.yield
  }
  func.func @empty_to_tensor_alloc() -> tensor<2x2xf32> {
    %0 = bufferization.alloc_tensor() : tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
  }
}
