// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Default promotion of all three operands: an i8 buffer per tile sized by the tile's
// constant bounds (the affine.min's 8), viewed as the full tile; the partial view gets a
// linalg.copy of the tile, the op works on the partial views, the output is copied back
// and the buffers are freed after it.
// CHECK-LABEL: func.func @promote_all
// CHECK:       %[[S:.*]] = affine.min
// CHECK:       %[[SA:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [%[[S]], 16] [1, 1]
// CHECK:       %[[SB:.*]] = memref.subview
// CHECK:       %[[SC:.*]] = memref.subview
// CHECK:       %[[BA:.*]] = memref.alloc() : memref<512xi8>
// CHECK:       %[[VA:.*]] = memref.view %[[BA]][%{{.*}}][%{{.*}}, %{{.*}}] : memref<512xi8> to memref<?x?xf32>
// CHECK:       %[[PA:.*]] = memref.subview %[[VA]][0, 0] [%[[S]], %{{.*}}] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
// CHECK:       %[[BB:.*]] = memref.alloc() : memref<256xi8>
// CHECK:       %[[PB:.*]] = memref.subview
// CHECK:       %[[BC:.*]] = memref.alloc() : memref<128xi8>
// CHECK:       %[[PC:.*]] = memref.subview
// CHECK:       linalg.copy ins(%[[SA]] : memref<?x16xf32, strided<[?, 1], offset: ?>>) outs(%[[PA]] : memref<?x?xf32, strided<[?, 1]>>)
// CHECK:       linalg.copy ins(%[[SB]] : {{.*}}) outs(%[[PB]] : {{.*}})
// CHECK:       linalg.copy ins(%[[SC]] : {{.*}}) outs(%[[PC]] : {{.*}})
// CHECK:       linalg.matmul {promoted} ins(%[[PA]], %[[PB]] : {{.*}}) outs(%[[PC]] : {{.*}})
// CHECK:       linalg.copy ins(%[[PC]] : {{.*}}) outs(%[[SC]] : {{.*}})
// CHECK:       memref.dealloc %[[BA]] : memref<512xi8>
// CHECK:       memref.dealloc %[[BB]] : memref<256xi8>
// CHECK:       memref.dealloc %[[BC]] : memref<128xi8>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.promote %0 <{operands_to_promote = [0, 1, 2]}> : (!transform.any_op) -> !transform.any_op
    transform.annotate %1 "promoted" : !transform.any_op
    transform.yield
  }
  func.func @promote_all(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %i: index, %j: index, %n: index) {
    %s = affine.min affine_map<(d0)[s0] -> (8, s0 - d0)>(%i)[%n]
    %a = memref.subview %A[%i, 0] [%s, 16] [1, 1] : memref<?x?xf32> to memref<?x16xf32, strided<[?, 1], offset: ?>>
    %b = memref.subview %B[0, %j] [16, 4] [1, 1] : memref<?x?xf32> to memref<16x4xf32, strided<[?, 1], offset: ?>>
    %c = memref.subview %C[%i, %j] [%s, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
    linalg.matmul ins(%a, %b : memref<?x16xf32, strided<[?, 1], offset: ?>>, memref<16x4xf32, strided<[?, 1], offset: ?>>) outs(%c : memref<?x4xf32, strided<[?, 1], offset: ?>>)
    return
  }
}

// -----

// Full tiles in workgroup memory (memory_space, alignment): the full buffer is zero-filled
// and the op works on the full views; the unpromoted operand stays.
// CHECK-LABEL: func.func @full_tiles
// CHECK:       %[[SB:.*]] = memref.subview %{{.*}}[0, %{{.*}}] [16, 4] [1, 1]
// CHECK:       %[[BA:.*]] = memref.alloc() alignment = 32 : memref<512xi8, #gpu.address_space<workgroup>>
// CHECK:       %[[VA:.*]] = memref.view %[[BA]]{{.*}} to memref<?x?xf32, #gpu.address_space<workgroup>>
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       linalg.fill ins(%[[ZERO]] : f32) outs(%[[VA]] : memref<?x?xf32, #gpu.address_space<workgroup>>)
// CHECK:       %[[BC:.*]] = memref.alloc() alignment = 32 : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK:       %[[VC:.*]] = memref.view %[[BC]]
// CHECK:       linalg.matmul ins(%[[VA]], %[[SB]] : memref<?x?xf32, #gpu.address_space<workgroup>>, memref<16x4xf32, strided<[?, 1], offset: ?>>) outs(%[[VC]] : memref<?x?xf32, #gpu.address_space<workgroup>>)
// CHECK:       memref.dealloc %[[BA]]
// CHECK:       memref.dealloc %[[BC]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.promote %0 <{operands_to_promote = [0, 2], use_full_tiles_by_default, memory_space = #gpu.address_space<workgroup>, alignment = 32}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @full_tiles(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %i: index, %j: index, %n: index) {
    %s = affine.min affine_map<(d0)[s0] -> (8, s0 - d0)>(%i)[%n]
    %a = memref.subview %A[%i, 0] [%s, 16] [1, 1] : memref<?x?xf32> to memref<?x16xf32, strided<[?, 1], offset: ?>>
    %b = memref.subview %B[0, %j] [16, 4] [1, 1] : memref<?x?xf32> to memref<16x4xf32, strided<[?, 1], offset: ?>>
    %c = memref.subview %C[%i, %j] [%s, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
    linalg.matmul ins(%a, %b : memref<?x16xf32, strided<[?, 1], offset: ?>>, memref<16x4xf32, strided<[?, 1], offset: ?>>) outs(%c : memref<?x4xf32, strided<[?, 1], offset: ?>>)
    return
  }
}

// -----

// use_alloca with a per-operand full-tile choice: no deallocation, only operand 0 filled
// and used whole.
// CHECK-LABEL: func.func @alloca
// CHECK:       %[[BA:.*]] = memref.alloca() : memref<512xi8>
// CHECK:       %[[VA:.*]] = memref.view %[[BA]]
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[VA]] : memref<?x?xf32>)
// CHECK:       %[[BC:.*]] = memref.alloca() : memref<128xi8>
// CHECK-NOT:   linalg.fill
// CHECK:       linalg.matmul ins(%[[VA]], %{{.*}} : memref<?x?xf32>, {{.*}}) outs(%[[PC:.*]] : memref<?x?xf32, strided<[?, 1]>>)
// CHECK:       linalg.copy ins(%[[PC]]
// CHECK-NOT:   memref.dealloc
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.promote %0 <{operands_to_promote = [0, 2], use_alloca, use_full_tile_buffers = [true, false, false]}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @alloca(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %i: index, %j: index, %n: index) {
    %s = affine.min affine_map<(d0)[s0] -> (8, s0 - d0)>(%i)[%n]
    %a = memref.subview %A[%i, 0] [%s, 16] [1, 1] : memref<?x?xf32> to memref<?x16xf32, strided<[?, 1], offset: ?>>
    %b = memref.subview %B[0, %j] [16, 4] [1, 1] : memref<?x?xf32> to memref<16x4xf32, strided<[?, 1], offset: ?>>
    %c = memref.subview %C[%i, %j] [%s, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
    linalg.matmul ins(%a, %b : memref<?x16xf32, strided<[?, 1], offset: ?>>, memref<16x4xf32, strided<[?, 1], offset: ?>>) outs(%c : memref<?x4xf32, strided<[?, 1], offset: ?>>)
    return
  }
}

// -----

// A size without a constant bound: the buffer has a dynamic byte size.
// CHECK-LABEL: func.func @dynamic
// CHECK:       %[[ELEMS:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:       %[[W:.*]] = arith.constant 4 : index
// CHECK:       %[[BYTES:.*]] = arith.muli %[[ELEMS]], %[[W]] : index
// CHECK:       memref.alloc(%[[BYTES]]) : memref<?xi8>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.copy"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.promote %0 <{operands_to_promote = [0]}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @dynamic(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %n: index) {
    %a = memref.subview %A[0, 0] [%n, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1]>>
    %b = memref.subview %B[0, 0] [%n, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1]>>
    linalg.copy ins(%a : memref<?x4xf32, strided<[?, 1]>>) outs(%b : memref<?x4xf32, strided<[?, 1]>>)
    return
  }
}

// -----

// mapping = [#gpu.memory_space<workgroup>]: static buffers in workgroup memory at the start
// of the function, copies between gpu.barrier ops, no deallocation.
// CHECK-LABEL: func.func @workgroup
// CHECK-NEXT:  %[[WC:.*]] = memref.alloc() : memref<8x4xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:  %[[WA:.*]] = memref.alloc() : memref<8x16xf32, #gpu.address_space<workgroup>>
// CHECK:       %[[SA:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [%{{.*}}, 16]
// CHECK:       %[[PA:.*]] = memref.subview %[[WA]][0, 0]
// CHECK:       %[[PC:.*]] = memref.subview %[[WC]][0, 0]
// CHECK:       gpu.barrier
// CHECK-NEXT:  memref.copy %[[SA]], %[[PA]]
// CHECK-NEXT:  gpu.barrier
// CHECK:       linalg.matmul ins(%[[PA]], %{{.*}} : memref<?x?xf32, strided<[16, 1]>, #gpu.address_space<workgroup>>, {{.*}}) outs(%[[PC]] : memref<?x?xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>)
// CHECK-NEXT:  gpu.barrier
// CHECK-NEXT:  memref.copy %[[PC]], %{{.*}}
// CHECK-NEXT:  gpu.barrier
// CHECK-NOT:   memref.dealloc
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.promote %0 <{operands_to_promote = [0, 2], mapping = [#gpu.memory_space<workgroup>]}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @workgroup(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %i: index, %j: index, %n: index) {
    %s = affine.min affine_map<(d0)[s0] -> (8, s0 - d0)>(%i)[%n]
    %a = memref.subview %A[%i, 0] [%s, 16] [1, 1] : memref<?x?xf32> to memref<?x16xf32, strided<[?, 1], offset: ?>>
    %b = memref.subview %B[0, %j] [16, 4] [1, 1] : memref<?x?xf32> to memref<16x4xf32, strided<[?, 1], offset: ?>>
    %c = memref.subview %C[%i, %j] [%s, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
    linalg.matmul ins(%a, %b : memref<?x16xf32, strided<[?, 1], offset: ?>>, memref<16x4xf32, strided<[?, 1], offset: ?>>) outs(%c : memref<?x4xf32, strided<[?, 1], offset: ?>>)
    return
  }
}

// -----

// mapping = [#gpu.memory_space<private>]: allocas in private memory, plain copies.
// CHECK-LABEL: func.func @private
// CHECK-NEXT:  %[[PC:.*]] = memref.alloca() : memref<8x4xf32, #gpu.address_space<private>>
// CHECK-NOT:   gpu.barrier
// CHECK:       memref.copy %{{.*}}, %{{.*}} : memref<?x4xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[4, 1]>, #gpu.address_space<private>>
// CHECK:       linalg.matmul
// CHECK:       memref.copy
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.promote %0 <{operands_to_promote = [2], mapping = [#gpu.memory_space<private>]}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @private(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %i: index, %j: index, %n: index) {
    %s = affine.min affine_map<(d0)[s0] -> (8, s0 - d0)>(%i)[%n]
    %a = memref.subview %A[%i, 0] [%s, 16] [1, 1] : memref<?x?xf32> to memref<?x16xf32, strided<[?, 1], offset: ?>>
    %b = memref.subview %B[0, %j] [16, 4] [1, 1] : memref<?x?xf32> to memref<16x4xf32, strided<[?, 1], offset: ?>>
    %c = memref.subview %C[%i, %j] [%s, 4] [1, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
    linalg.matmul ins(%a, %b : memref<?x16xf32, strided<[?, 1], offset: ?>>, memref<16x4xf32, strided<[?, 1], offset: ?>>) outs(%c : memref<?x4xf32, strided<[?, 1], offset: ?>>)
    return
  }
}

// -----

// A linalg.generic whose payload never reads its output: the output tile is not copied
// in (only out).
// CHECK-LABEL: func.func @generic_no_copy_in
// CHECK:       %[[P:.*]] = memref.subview %{{.*}}[0] [%{{.*}}] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
// CHECK-NOT:   linalg.copy
// CHECK:       linalg.generic {{.*}} outs(%[[P]]
// CHECK:       linalg.copy ins(%[[P]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.promote %0 <{operands_to_promote = [1]}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @generic_no_copy_in(%A: memref<16xf32>, %B: memref<16xf32>, %i: index) {
    %a = memref.subview %A[%i] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
    %b = memref.subview %B[%i] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32, strided<[1], offset: ?>>) outs(%b : memref<4xf32, strided<[1], offset: ?>>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.mulf %x, %x : f32
      linalg.yield %s : f32
    }
    return
  }
}

// -----

// Promotion applies to ops on buffers only.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to apply}}
    %1 = transform.structured.promote %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @f(%A: tensor<4x8xf32>, %B: tensor<8x5xf32>, %C: tensor<4x5xf32>) -> tensor<4x5xf32> {
    // expected-note @below {{attempted to apply to this op}}
    %m = linalg.matmul ins(%A, %B : tensor<4x8xf32>, tensor<8x5xf32>) outs(%C : tensor<4x5xf32>) -> tensor<4x5xf32>
    return %m : tensor<4x5xf32>
  }
}

// -----

// No operand is a subview.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to apply}}
    %1 = transform.structured.promote %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @f(%A: memref<4x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
    // expected-note @below {{attempted to apply to this op}}
    linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x5xf32>) outs(%C : memref<4x5xf32>)
    return
  }
}

// -----

// Only workgroup and private memory can be mapped.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to apply}}
    %1 = transform.structured.promote %0 <{mapping = [#gpu.memory_space<global>]}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @f(%A: memref<16x8xf32>, %B: memref<8x5xf32>, %C: memref<4x5xf32>) {
    %a = memref.subview %A[0, 0] [4, 8] [1, 1] : memref<16x8xf32> to memref<4x8xf32, strided<[8, 1]>>
    // expected-note @below {{attempted to apply to this op}}
    linalg.matmul ins(%a, %B : memref<4x8xf32, strided<[8, 1]>>, memref<8x5xf32>) outs(%C : memref<4x5xf32>)
    return
  }
}

// -----

// Not a structured op.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform applied to the wrong op kind}}
    %1 = transform.structured.promote %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  // expected-note @below {{when applied to this op}}
  func.func @f() {
    return
  }
}
