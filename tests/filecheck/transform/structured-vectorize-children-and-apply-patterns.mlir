// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// A matmul becomes a vector.contract on in-bounds reads (the permuted, broadcasting
// reads are lowered and their broadcasts and transposes fold into the contraction);
// padding poison and index constants are uniqued at the start of the function.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  (%[[A:.*]]: tensor<24x12xf32>, %[[B:.*]]: tensor<12x25xf32>, %[[C:.*]]: tensor<24x25xf32>)
// CHECK-DAG:   %[[Z:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[P:.*]] = ub.poison : f32
// CHECK:       %[[VA:.*]] = vector.transfer_read %[[A]][%[[Z]], %[[Z]]], %[[P]] {in_bounds = [true, true]} : tensor<24x12xf32>, vector<24x12xf32>
// CHECK:       %[[VB:.*]] = vector.transfer_read %[[B]][%[[Z]], %[[Z]]], %[[P]] {in_bounds = [true, true]} : tensor<12x25xf32>, vector<12x25xf32>
// CHECK:       %[[VC:.*]] = vector.transfer_read %[[C]][%[[Z]], %[[Z]]], %[[P]] {in_bounds = [true, true]} : tensor<24x25xf32>, vector<24x25xf32>
// CHECK:       %[[R:.*]] = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %[[VA]], %[[VB]], %[[VC]] : vector<24x12xf32>, vector<12x25xf32> into vector<24x25xf32>
// CHECK:       %[[W:.*]] = vector.transfer_write %[[R]], %[[C]][%[[Z]], %[[Z]]] {in_bounds = [true, true]} : vector<24x25xf32>, tensor<24x25xf32>
// CHECK:       return %[[W]]
func.func @matmul(%arg0: tensor<24x12xf32>, %arg1: tensor<12x25xf32>, %arg2: tensor<24x25xf32>) -> tensor<24x25xf32> {
  %0 = linalg.matmul ins(%arg0, %arg1 : tensor<24x12xf32>, tensor<12x25xf32>) outs(%arg2 : tensor<24x25xf32>) -> tensor<24x25xf32>
  func.return %0 : tensor<24x25xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.get_parent_op %0 <isolated_from_above> : (!transform.any_op) -> !transform.any_op
    %2 = transform.structured.vectorize_children_and_apply_patterns %1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// On buffers: a contraction with no result, and memref.copy as a whole read and write.
// CHECK-LABEL: func.func @matmul_memref
// CHECK:       vector.contract
// CHECK:       vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<24x25xf32>, memref<24x25xf32>
// CHECK-NOT:   linalg.matmul
// CHECK-LABEL: func.func @copy_memref
// CHECK-SAME:  (%[[A:.*]]: memref<100x100xf32>, %[[B:.*]]: memref<100x100xf32>)
// CHECK:       %[[V:.*]] = vector.transfer_read %[[A]]{{.*}} {in_bounds = [true, true]} : memref<100x100xf32>, vector<100x100xf32>
// CHECK:       vector.transfer_write %[[V]], %[[B]]{{.*}} {in_bounds = [true, true]} : vector<100x100xf32>, memref<100x100xf32>
// CHECK-NOT:   memref.copy
func.func @matmul_memref(%arg0: memref<24x12xf32>, %arg1: memref<12x25xf32>, %arg2: memref<24x25xf32>) {
  linalg.matmul ins(%arg0, %arg1 : memref<24x12xf32>, memref<12x25xf32>) outs(%arg2 : memref<24x25xf32>)
  return
}
func.func @copy_memref(%arg0: memref<100x100xf32>, %arg1: memref<100x100xf32>) {
  memref.copy %arg0, %arg1 : memref<100x100xf32> to memref<100x100xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2 = transform.structured.vectorize_children_and_apply_patterns %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Transfers through a promoted buffer (filled, then copied into its only subview) read
// the copy's source; a write copied out of the buffer writes the copy's target.
// CHECK-LABEL: func.func @forward_read
// CHECK-SAME:  (%[[IN:.*]]: memref<?x?xf32>,
// CHECK-NOT:   memref.copy
// CHECK-NOT:   linalg.fill
// CHECK:       %[[V:.*]] = vector.transfer_read %[[IN]][%{{.*}}, %{{.*}}], %{{.*}} : memref<?x?xf32>, vector<32x32xf32>
// CHECK:       return %[[V]]
// CHECK-LABEL: func.func @forward_write
// CHECK-SAME:  (%[[OUT:.*]]: memref<?x?xf32>, %{{.*}}: index, %{{.*}}: index, %[[V:.*]]: vector<32x32xf32>)
// CHECK-NEXT:  %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:  vector.transfer_write %[[V]], %[[OUT]][%[[Z]], %[[Z]]] : vector<32x32xf32>, memref<?x?xf32>
// CHECK-NEXT:  return
func.func @forward_read(%in: memref<?x?xf32>, %m: index, %n: index) -> vector<32x32xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %alloc = memref.alloc() : memref<32x32xf32>
  %sv = memref.subview %alloc[0, 0] [%m, %n] [1, 1] : memref<32x32xf32> to memref<?x?xf32, strided<[32, 1]>>
  linalg.fill ins(%pad : f32) outs(%alloc : memref<32x32xf32>)
  memref.copy %in, %sv : memref<?x?xf32> to memref<?x?xf32, strided<[32, 1]>>
  %v = vector.transfer_read %alloc[%c0, %c0], %pad : memref<32x32xf32>, vector<32x32xf32>
  return %v : vector<32x32xf32>
}
func.func @forward_write(%out: memref<?x?xf32>, %m: index, %n: index, %v: vector<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %alloc = memref.alloc() : memref<32x32xf32>
  %sv = memref.subview %alloc[0, 0] [%m, %n] [1, 1] : memref<32x32xf32> to memref<?x?xf32, strided<[32, 1]>>
  vector.transfer_write %v, %alloc[%c0, %c0] : vector<32x32xf32>, memref<32x32xf32>
  memref.copy %sv, %out : memref<?x?xf32, strided<[32, 1]>> to memref<?x?xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2 = transform.structured.vectorize_children_and_apply_patterns %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Elementwise ops: a broadcast operand is read at its own rank and broadcast, a
// transposed one read and transposed; a transposed init is read, transposed, and the
// result transposed back for the write. A copy of a whole tensor folds away; a fill is
// a broadcast write; linalg.index steps become constants.
// CHECK-LABEL: func.func @bias_add
// CHECK:       %[[B:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<8xf32>, vector<8xf32>
// CHECK:       %[[BB:.*]] = vector.broadcast %[[B]] : vector<8xf32> to vector<4x8xf32>
// CHECK:       arith.addf %{{.*}}, %[[BB]] : vector<4x8xf32>
// CHECK-LABEL: func.func @transposed_init
// CHECK:       %[[I:.*]] = vector.transfer_read %{{.*}} : tensor<8x4xf32>, vector<8x4xf32>
// CHECK:       %[[IT:.*]] = vector.transpose %[[I]], [1, 0] : vector<8x4xf32> to vector<4x8xf32>
// CHECK:       %[[S:.*]] = arith.addf %{{.*}}, %[[IT]] : vector<4x8xf32>
// CHECK:       %[[ST:.*]] = vector.transpose %[[S]], [1, 0] : vector<4x8xf32> to vector<8x4xf32>
// CHECK:       vector.transfer_write %[[ST]]
// CHECK-LABEL: func.func @copy_folds
// CHECK-SAME:  (%[[A:.*]]: tensor<4x8xf32>, %{{.*}}: tensor<4x8xf32>)
// CHECK-NEXT:  return %[[A]]
// CHECK-LABEL: func.func @fill
// CHECK-SAME:  (%[[C:.*]]: tensor<4x8xf32>, %[[V:.*]]: f32)
// CHECK:       %[[B:.*]] = vector.broadcast %[[V]] : f32 to vector<4x8xf32>
// CHECK:       vector.transfer_write %[[B]], %[[C]]
// CHECK-LABEL: func.func @iota
// CHECK:       arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xindex>
// CHECK-NOT:   vector.step
func.func @bias_add(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%c : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @transposed_init(%a: tensor<4x8xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
    ins(%a : tensor<4x8xf32>) outs(%c : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
func.func @copy_folds(%a: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = linalg.copy ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @fill(%c: tensor<4x8xf32>, %v: f32) -> tensor<4x8xf32> {
  %r = linalg.fill ins(%v : f32) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @iota(%c: tensor<8xindex>) -> tensor<8xindex> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    outs(%c : tensor<8xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    linalg.yield %i : index
  } -> tensor<8xindex>
  return %r : tensor<8xindex>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %2 = transform.structured.vectorize_children_and_apply_patterns %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Extensions of the operands stay between the reads and the contraction, unless
// fold_type_extensions_into_contract folds them into a mixed-precision contraction.
// CHECK-LABEL: func.func @ext_kept
// CHECK:       arith.extf %{{.*}} : vector<4x8xf16> to vector<4x8xf32>
// CHECK:       arith.extf %{{.*}} : vector<8x2xf16> to vector<8x2xf32>
// CHECK:       vector.contract {{.*}} : vector<4x8xf32>, vector<8x2xf32> into vector<4x2xf32>
// CHECK-LABEL: func.func @ext_folded
// CHECK-NOT:   arith.extf
// CHECK:       vector.contract {{.*}} : vector<4x8xf16>, vector<8x2xf16> into vector<4x2xf32>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @ext_kept(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<4x8xf16>, tensor<8x2xf16>) outs(%c : tensor<4x2xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
func.func @ext_folded(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<4x8xf16>, tensor<8x2xf16>) outs(%c : tensor<4x2xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %kept = transform.structured.match ops{["func.func"]} attributes{sym_name = "ext_kept"} in %arg1 : (!transform.any_op) -> !transform.any_op
    %0 = transform.structured.vectorize_children_and_apply_patterns %kept : (!transform.any_op) -> !transform.any_op
    %folded = transform.structured.match ops{["func.func"]} attributes{sym_name = "ext_folded"} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.vectorize_children_and_apply_patterns %folded <fold_type_extensions_into_contract> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// disable_multi_reduction_to_contract_patterns keeps mulf + multi_reduction;
// disable_transfer_permutation_map_lowering_patterns keeps the broadcasting reads
// (their contraction then has identity operand maps).
// CHECK-LABEL: func.func @no_contract
// CHECK:       vector.transpose
// CHECK:       arith.mulf %{{.*}} : vector<4x16x8xf32>
// CHECK:       vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<4x16x8xf32> to vector<4x16xf32>
// CHECK-NOT:   vector.contract
// CHECK-LABEL: func.func @no_permutation_lowering
// CHECK:       vector.transfer_read {{.*}} {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0, d1)>} : tensor<4x8xf32>, vector<4x16x8xf32>
// CHECK:       vector.transfer_read {{.*}} {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1) -> (0, d1, d0)>} : tensor<8x16xf32>, vector<4x16x8xf32>
// CHECK:       vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
func.func @no_contract(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
func.func @no_permutation_lowering(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %f0 = transform.structured.match ops{["func.func"]} attributes{sym_name = "no_contract"} in %arg1 : (!transform.any_op) -> !transform.any_op
    %0 = transform.structured.vectorize_children_and_apply_patterns %f0 <disable_multi_reduction_to_contract_patterns> : (!transform.any_op) -> !transform.any_op
    %f1 = transform.structured.match ops{["func.func"]} attributes{sym_name = "no_permutation_lowering"} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.vectorize_children_and_apply_patterns %f1 <disable_transfer_permutation_map_lowering_patterns> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A padded tile (transform.structured.pad after tiling): without vectorize_padding the
// pads stay and are read; the result write moves into a slice of the loop's tensor
// (extract_slice swapped before the write).
// CHECK-LABEL: func.func @tile_pad_keep
// CHECK:       scf.for
// CHECK:         tensor.pad
// CHECK:         tensor.pad
// CHECK:         vector.contract {{.*}} : vector<8x12xf32>, vector<12x25xf32> into vector<8x25xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice
// CHECK:         %[[W:.*]] = vector.transfer_write %{{.*}}, %[[S]][%{{.*}}, %{{.*}}] {in_bounds = [false, true]} : vector<8x25xf32>, tensor<?x25xf32>
// CHECK:         tensor.insert_slice %[[W]]
func.func @tile_pad_keep(%a: tensor<?x12xf32>, %b: tensor<12x25xf32>, %c: tensor<?x25xf32>) -> tensor<?x25xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x12xf32>, tensor<12x25xf32>) outs(%c : tensor<?x25xf32>) -> tensor<?x25xf32>
  return %0 : tensor<?x25xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %m tile_sizes [8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pad, %copy = transform.structured.pad %t <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// With vectorize_padding the pads disappear: the tiles are read out of bounds with
// the pad value as padding.
// CHECK-LABEL: func.func @tile_pad_vectorized
// CHECK:       scf.for
// CHECK-NOT:     tensor.pad
// CHECK:         %[[SA:.*]] = tensor.extract_slice
// CHECK:         %[[SC:.*]] = tensor.extract_slice
// CHECK:         vector.transfer_read %[[SA]][%{{.*}}, %{{.*}}], %[[PAD:.*]] {in_bounds = [false, true]} : tensor<?x12xf32>, vector<8x12xf32>
// CHECK:         vector.transfer_read %[[SC]][%{{.*}}, %{{.*}}], %[[PAD]] {in_bounds = [false, true]} : tensor<?x25xf32>, vector<8x25xf32>
// CHECK:         vector.contract
// CHECK:         vector.transfer_write {{.*}} {in_bounds = [false, true]} : vector<8x25xf32>, tensor<?x25xf32>
// CHECK-NOT:     tensor.pad
func.func @tile_pad_vectorized(%a: tensor<?x12xf32>, %b: tensor<12x25xf32>, %c: tensor<?x25xf32>) -> tensor<?x25xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x12xf32>, tensor<12x25xf32>) outs(%c : tensor<?x25xf32>) -> tensor<?x25xf32>
  return %0 : tensor<?x25xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %m tile_sizes [8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pad, %copy = transform.structured.pad %t <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f <vectorize_padding> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Dynamic shapes are not vectorized (no vector sizes here), without error.
// CHECK-LABEL: func.func @dynamic_untouched
// CHECK:       linalg.generic
func.func @dynamic_untouched(%a: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%a : tensor<?xf32>) outs(%c : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_isolated(%arg0: tensor<24x12xf32>, %arg1: tensor<12x25xf32>, %arg2: tensor<24x25xf32>) -> tensor<24x25xf32> {
  // expected-note @below {{non-isolated target}}
  %0 = linalg.matmul ins(%arg0, %arg1 : tensor<24x12xf32>, tensor<12x25xf32>) outs(%arg2 : tensor<24x25xf32>) -> tensor<24x25xf32>
  func.return %0 : tensor<24x25xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{op requires isolated-from-above targets}}
    %2 = transform.structured.vectorize_children_and_apply_patterns %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Handles to ops nested in the target are invalidated; the result handle is usable.
// expected-note @below {{ancestor payload op}}
func.func @nested_handles(%arg0: tensor<24x12xf32>, %arg1: tensor<12x25xf32>, %arg2: tensor<24x25xf32>) -> tensor<24x25xf32> {
  // expected-note @below {{nested payload op}}
  %0 = linalg.matmul ins(%arg0, %arg1 : tensor<24x12xf32>, tensor<12x25xf32>) outs(%arg2 : tensor<24x25xf32>) -> tensor<24x25xf32>
  func.return %0 : tensor<24x25xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
    %1 = transform.get_parent_op %0 <isolated_from_above> : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0 and invalidates all handles to payload IR entities associated with this operand and entities nested in them}}
    %2 = transform.structured.vectorize_children_and_apply_patterns %1 : (!transform.any_op) -> !transform.any_op
    transform.annotate %2 "vectorized" : !transform.any_op
    // expected-error @below {{op uses a handle invalidated by a previously executed transform op}}
    transform.annotate %0 "gone" : !transform.any_op
    transform.yield
  }
}
