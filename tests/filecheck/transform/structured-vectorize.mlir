// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// Elementwise with a broadcast operand: each operand is read whole (padding ub.poison),
// the input with a broadcasting permutation map; the init is read too (upstream reads
// every operand); the sum is written back at index 0. The iteration-space sizes are
// materialized first (they size masks; unused here).
// CHECK-LABEL: func.func @elementwise_broadcast
// CHECK-SAME:  (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>, %[[C:.*]]: tensor<4x8xf32>)
// CHECK-DAG:   arith.constant 4 : index
// CHECK-DAG:   arith.constant 8 : index
// CHECK:       %[[Z:.*]] = arith.constant 0 : index
// CHECK:       %[[P0:.*]] = ub.poison : f32
// CHECK:       %[[VA:.*]] = vector.transfer_read %[[A]][%[[Z]], %[[Z]]], %[[P0]] : tensor<4x8xf32>, vector<4x8xf32>
// CHECK:       %[[VB:.*]] = vector.transfer_read %[[B]][%[[Z]]], %{{.*}} {permutation_map = affine_map<(d0) -> (0, d0)>} : tensor<8xf32>, vector<4x8xf32>
// CHECK:       vector.transfer_read %[[C]][%[[Z]], %[[Z]]], %{{.*}} : tensor<4x8xf32>, vector<4x8xf32>
// CHECK:       %[[S:.*]] = arith.addf %[[VA]], %[[VB]] : vector<4x8xf32>
// CHECK:       %[[W:.*]] = vector.transfer_write %[[S]], %[[C]][%{{.*}}, %{{.*}}] : vector<4x8xf32>, tensor<4x8xf32>
// CHECK:       return %[[W]]
module attributes {transform.with_named_sequence} {
  func.func @elementwise_broadcast(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%c : tensor<4x8xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// -----

// A named contraction through its generic form: the operands are broadcast into the
// 4x16x8 iteration space, multiplied, and reduced over k into the init.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[C:.*]]: tensor<4x16xf32>)
// CHECK:       %[[VA:.*]] = vector.transfer_read %[[A]]{{.*}} {permutation_map = affine_map<(d0, d1) -> (d0, 0, d1)>} : tensor<4x8xf32>, vector<4x16x8xf32>
// CHECK:       %[[VB:.*]] = vector.transfer_read %[[B]]{{.*}} {permutation_map = affine_map<(d0, d1) -> (0, d1, d0)>} : tensor<8x16xf32>, vector<4x16x8xf32>
// CHECK:       %[[VC:.*]] = vector.transfer_read %[[C]]{{.*}} : tensor<4x16xf32>, vector<4x16xf32>
// CHECK:       %[[M:.*]] = arith.mulf %[[VA]], %[[VB]] : vector<4x16x8xf32>
// CHECK:       %[[R:.*]] = vector.multi_reduction <add>, %[[M]], %[[VC]] [2] : vector<4x16x8xf32> to vector<4x16xf32>
// CHECK:       vector.transfer_write %[[R]], %[[C]]
module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %r : tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %m : !transform.any_op
    transform.yield
  }
}

// -----

// Reductions: the init of a row reduction is read in its own (loop-ordered) shape; a
// full reduction into a 0-d init reads, extracts and broadcasts scalars.
// CHECK-LABEL: func.func @row_max
// CHECK:       %[[V:.*]] = vector.transfer_read %{{.*}} : tensor<4x8xf32>, vector<4x8xf32>
// CHECK:       %[[I:.*]] = vector.transfer_read %{{.*}} : tensor<4xf32>, vector<4xf32>
// CHECK:       %[[R:.*]] = vector.multi_reduction <maxnumf>, %[[V]], %[[I]] [1] : vector<4x8xf32> to vector<4xf32>
// CHECK:       vector.transfer_write %[[R]]
// CHECK-LABEL: func.func @full_sum
// CHECK:       %[[V:.*]] = vector.transfer_read %{{.*}} : tensor<8xi32>, vector<8xi32>
// CHECK:       %[[I:.*]] = vector.transfer_read %{{.*}}[], %{{.*}} : tensor<i32>, vector<i32>
// CHECK:       %[[E:.*]] = vector.extract %[[I]][] : i32 from vector<i32>
// CHECK:       %[[R:.*]] = vector.multi_reduction <add>, %[[V]], %[[E]] [0] : vector<8xi32> to i32
// CHECK:       %[[B:.*]] = vector.broadcast %[[R]] : i32 to vector<i32>
// CHECK:       vector.transfer_write %[[B]], %{{.*}}[] : vector<i32>, tensor<i32>
module attributes {transform.with_named_sequence} {
  func.func @row_max(%a: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %m = arith.maxnumf %x, %o : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @full_sum(%a: tensor<8xi32>, %c: tensor<i32>) -> tensor<i32> {
    %r = linalg.reduce ins(%a : tensor<8xi32>) outs(%c : tensor<i32>) dimensions = [0]
      (%x: i32, %o: i32) {
        %s = arith.addi %x, %o : i32
        linalg.yield %s : i32
      }
    return %r : tensor<i32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// -----

// linalg.index: a vector.step along the loop, broadcast and transposed into place for a
// leading loop; constants in the body are cloned and broadcast (folded) at their users.
// CHECK-LABEL: func.func @index
// CHECK:       %[[S0:.*]] = vector.step : vector<4xindex>
// CHECK:       %[[B0:.*]] = vector.broadcast %[[S0]] : vector<4xindex> to vector<8x4xindex>
// CHECK:       %[[T0:.*]] = vector.transpose %[[B0]], [1, 0] : vector<8x4xindex> to vector<4x8xindex>
// CHECK:       %[[S1:.*]] = vector.step : vector<8xindex>
// CHECK:       %[[CST:.*]] = arith.constant dense<8> : vector<4x8xindex>
// CHECK:       %[[M:.*]] = arith.muli %[[T0]], %[[CST]] : vector<4x8xindex>
// CHECK:       %[[B1:.*]] = vector.broadcast %[[S1]] : vector<8xindex> to vector<4x8xindex>
// CHECK:       arith.addi %[[M]], %[[B1]] : vector<4x8xindex>
module attributes {transform.with_named_sequence} {
  func.func @index(%c: tensor<4x8xindex>) -> tensor<4x8xindex> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : tensor<4x8xindex>) {
    ^bb0(%o: index):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %c8 = arith.constant 8 : index
      %m = arith.muli %i, %c8 : index
      %s = arith.addi %m, %j : index
      linalg.yield %s : index
    } -> tensor<4x8xindex>
    return %r : tensor<4x8xindex>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// -----

// fill, copy and transpose through their generic forms; on buffers the write has no
// result and the op is erased.
// CHECK-LABEL: func.func @fill
// CHECK-SAME:  (%[[C:.*]]: tensor<4x8xf32>, %[[V:.*]]: f32)
// CHECK:       %[[B:.*]] = vector.broadcast %[[V]] : f32 to vector<4x8xf32>
// CHECK:       vector.transfer_write %[[B]], %[[C]]
// CHECK-LABEL: func.func @transpose_memref
// CHECK-SAME:  (%[[A:.*]]: memref<4x8xf32>, %[[C:.*]]: memref<8x4xf32>)
// CHECK:       %[[V:.*]] = vector.transfer_read %[[A]]{{.*}} {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x8xf32>, vector<8x4xf32>
// CHECK:       vector.transfer_write %[[V]], %[[C]]{{.*}} : vector<8x4xf32>, memref<8x4xf32>
// CHECK-NOT:   linalg.transpose
module attributes {transform.with_named_sequence} {
  func.func @fill(%c: tensor<4x8xf32>, %v: f32) -> tensor<4x8xf32> {
    %r = linalg.fill ins(%v : f32) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %r : tensor<4x8xf32>
  }
  func.func @transpose_memref(%a: memref<4x8xf32>, %c: memref<8x4xf32>) {
    linalg.transpose ins(%a : memref<4x8xf32>) outs(%c : memref<8x4xf32>) permutation = [1, 0]
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.fill", "linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// -----

// Masked vectorization of a dynamic op: the dynamic sizes come from tensor.dim, one mask
// per operand map (the broadcast operand's mask covers its own dim only), masked
// transfers are in bounds.
// CHECK-LABEL: func.func @dynamic_masked
// CHECK-SAME:  (%[[A:.*]]: tensor<?x?xf32>, %[[B:.*]]: tensor<?xf32>, %[[C:.*]]: tensor<?x?xf32>)
// CHECK:       %[[D0:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[D1:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[M:.*]] = vector.create_mask %[[D0]], %[[D1]] : vector<4x8xi1>
// CHECK:       %[[VA:.*]] = vector.mask %[[M]] { vector.transfer_read %[[A]]{{.*}} {in_bounds = [true, true]} : tensor<?x?xf32>, vector<4x8xf32> } : vector<4x8xi1> -> vector<4x8xf32>
// CHECK:       %[[MB:.*]] = vector.create_mask %[[D1]] : vector<8xi1>
// CHECK:       %[[VB:.*]] = vector.mask %[[MB]] { vector.transfer_read %[[B]]{{.*}} {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (0, d0)>} : tensor<?xf32>, vector<4x8xf32> } : vector<8xi1> -> vector<4x8xf32>
// CHECK:       vector.mask %[[M]] { vector.transfer_read %[[C]]
// CHECK:       %[[S:.*]] = arith.addf %[[VA]], %[[VB]] : vector<4x8xf32>
// CHECK:       vector.mask %[[M]] { vector.transfer_write %[[S]], %[[C]]{{.*}} {in_bounds = [true, true]} : vector<4x8xf32>, tensor<?x?xf32> } : vector<4x8xi1> -> tensor<?x?xf32>
module attributes {transform.with_named_sequence} {
  func.func @dynamic_masked(%a: tensor<?x?xf32>, %b: tensor<?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%c : tensor<?x?xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g vector_sizes [4, 8] : !transform.any_op
    transform.yield
  }
}

// -----

// A static partial tile vectorized with larger sizes (one of them from a param): the
// reduction is masked over the whole iteration space; the init's mask is shared by its
// read and its write.
// CHECK-LABEL: func.func @partial_matmul
// CHECK-DAG:   %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:   %[[C7:.*]] = arith.constant 7 : index
// CHECK:       %[[MA:.*]] = vector.create_mask %[[C5]], %[[C7]] : vector<8x8xi1>
// CHECK:       vector.mask %[[MA]] { vector.transfer_read {{.*}} : tensor<5x7xf32>, vector<8x4x8xf32> } : vector<8x8xi1> -> vector<8x4x8xf32>
// CHECK:       %[[MB:.*]] = vector.create_mask %[[C7]], %[[C3]] : vector<8x4xi1>
// CHECK:       %[[MC:.*]] = vector.create_mask %[[C5]], %[[C3]] : vector<8x4xi1>
// CHECK:       %[[MUL:.*]] = arith.mulf
// CHECK:       %[[MALL:.*]] = vector.create_mask %[[C5]], %[[C3]], %[[C7]] : vector<8x4x8xi1>
// CHECK:       %[[R:.*]] = vector.mask %[[MALL]] { vector.multi_reduction <add>, %[[MUL]], %{{.*}} [2] : vector<8x4x8xf32> to vector<8x4xf32> } : vector<8x4x8xi1> -> vector<8x4xf32>
// CHECK:       vector.mask %[[MC]] { vector.transfer_write %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @partial_matmul(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>, %c: tensor<5x3xf32>) -> tensor<5x3xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%c : tensor<5x3xf32>) -> tensor<5x3xf32>
    return %r : tensor<5x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.structured.vectorize %m vector_sizes [8, %four, 8] : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}

// -----

// create_named_contraction: one vector.contract on reads in the operands' own shapes,
// padded with zero; with larger vector sizes the reads, the contraction and the write
// are masked.
// CHECK-LABEL: func.func @named_contraction
// CHECK-SAME:  (%[[A:.*]]: tensor<5x7xf32>, %[[B:.*]]: tensor<7x3xf32>, %[[C:.*]]: tensor<5x3xf32>)
// CHECK:       %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[VA:.*]] = vector.mask %{{.*}} { vector.transfer_read %[[A]][%{{.*}}, %{{.*}}], %[[Z]] {in_bounds = [true, true]} : tensor<5x7xf32>, vector<8x8xf32> } : vector<8x8xi1> -> vector<8x8xf32>
// CHECK:       %[[VB:.*]] = vector.mask %{{.*}} { vector.transfer_read %[[B]]{{.*}} : tensor<7x3xf32>, vector<8x4xf32> } : vector<8x4xi1> -> vector<8x4xf32>
// CHECK:       %[[VC:.*]] = vector.mask %{{.*}} { vector.transfer_read %[[C]]{{.*}} : tensor<5x3xf32>, vector<8x4xf32> } : vector<8x4xi1> -> vector<8x4xf32>
// CHECK:       %[[M:.*]] = vector.create_mask %{{.*}}, %{{.*}}, %{{.*}} : vector<8x4x8xi1>
// CHECK:       %[[R:.*]] = vector.mask %[[M]] { vector.contract {{.*}} %[[VA]], %[[VB]], %[[VC]] : vector<8x8xf32>, vector<8x4xf32> into vector<8x4xf32> } : vector<8x4x8xi1> -> vector<8x4xf32>
// CHECK:       vector.mask %{{.*}} { vector.transfer_write %[[R]], %[[C]]
module attributes {transform.with_named_sequence} {
  func.func @named_contraction(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>, %c: tensor<5x3xf32>) -> tensor<5x3xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%c : tensor<5x3xf32>) -> tensor<5x3xf32>
    return %r : tensor<5x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %m vector_sizes [8, 4, 8] create_named_contraction : !transform.any_op
    transform.yield
  }
}

// -----

// tensor.pad with vector sizes: a masked read of the source padded with the pad value,
// written whole into an empty tensor of the result shape.
// CHECK-LABEL: func.func @pad
// CHECK-SAME:  (%[[A:.*]]: tensor<5x6xf32>)
// CHECK:       %[[CST:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:       %[[M:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<8x8xi1>
// CHECK:       %[[V:.*]] = vector.mask %[[M]] { vector.transfer_read %[[A]][%{{.*}}, %{{.*}}], %[[CST]] {in_bounds = [true, true]} : tensor<5x6xf32>, vector<8x8xf32> } : vector<8x8xi1> -> vector<8x8xf32>
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK:       %[[W:.*]] = vector.transfer_write %[[V]], %[[E]][%{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<8x8xf32>, tensor<8x8xf32>
// CHECK:       return %[[W]]
module attributes {transform.with_named_sequence} {
  func.func @pad(%a: tensor<5x6xf32>) -> tensor<8x8xf32> {
    %cst = arith.constant 1.0 : f32
    %r = tensor.pad %a low[0, 0] high[3, 2] {
    ^bb0(%i: index, %j: index):
      tensor.yield %cst : f32
    } : tensor<5x6xf32> to tensor<8x8xf32>
    return %r : tensor<8x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %p vector_sizes [8, 8] : !transform.any_op
    transform.yield
  }
}

// -----

// A static tensor.insert_slice: a read of the source and an in-bounds write at the
// slice offsets.
// CHECK-LABEL: func.func @insert_slice
// CHECK-SAME:  (%[[A:.*]]: tensor<4x3xf32>, %[[D:.*]]: tensor<8x8xf32>, %[[I:.*]]: index)
// CHECK:       %[[V:.*]] = vector.transfer_read %[[A]]{{.*}} {in_bounds = [true, true]} : tensor<4x3xf32>, vector<4x3xf32>
// CHECK:       %[[C2:.*]] = arith.constant 2 : index
// CHECK:       vector.transfer_write %[[V]], %[[D]][%[[I]], %[[C2]]] {in_bounds = [true, true]} : vector<4x3xf32>, tensor<8x8xf32>
module attributes {transform.with_named_sequence} {
  func.func @insert_slice(%a: tensor<4x3xf32>, %d: tensor<8x8xf32>, %i: index) -> tensor<8x8xf32> {
    %r = tensor.insert_slice %a into %d[%i, 2] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<8x8xf32>
    return %r : tensor<8x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["tensor.insert_slice"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %s : !transform.any_op
    transform.yield
  }
}

// -----

// tensor.extract of a 1-D tensor at an index following the innermost loop is a
// contiguous read; at a loop-invariant index a broadcast read.
// CHECK-LABEL: func.func @extract_contiguous
// CHECK-SAME:  (%[[T:.*]]: tensor<16xf32>, %[[O:.*]]: index,
// CHECK:       vector.transfer_read %[[T]][%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<16xf32>, vector<8xf32>
// CHECK:       vector.transfer_read %[[T]][%[[O]]], %{{.*}} {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : tensor<16xf32>, vector<8xf32>
module attributes {transform.with_named_sequence} {
  func.func @extract_contiguous(%t: tensor<16xf32>, %off: index, %c: tensor<8xf32>) -> tensor<8xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%c : tensor<8xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = arith.addi %i, %off : index
      %x = tensor.extract %t[%j] : tensor<16xf32>
      %y = tensor.extract %t[%off] : tensor<16xf32>
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// -----

// An empty handle: nothing to do.
module attributes {transform.with_named_sequence} {
  func.func @nothing(%a: tensor<8xf32>) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g vector_sizes [4] : !transform.any_op
    transform.yield
  }
}

// -----

func.func @unsupported() -> tensor<8xf32> {
  // expected-error @below {{Unsupported Op, cannot vectorize}}
  %e = tensor.empty() : tensor<8xf32>
  return %e : tensor<8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["tensor.empty"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// -----

// Dynamic shapes need vector sizes.
func.func @dynamic_without_sizes(%a: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{Attempted to vectorize, but failed}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%a : tensor<?xf32>) outs(%c : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// -----

// Vector sizes smaller than the static iteration space.
func.func @sizes_too_small(%a: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{Attempted to vectorize, but failed}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%a : tensor<8xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g vector_sizes [4] : !transform.any_op
    transform.yield
  }
}

// -----

// One vector size per loop.
func.func @sizes_count(%a: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{Attempted to vectorize, but failed}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%a : tensor<8xf32>) outs(%c : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g vector_sizes [8, 4] : !transform.any_op
    transform.yield
  }
}

// -----

// A 2-D tensor.extract needs vectorize_nd_extract (the 1-D case does not).
func.func @nd_extract_not_requested(%t: tensor<4x16xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @below {{Attempted to vectorize, but failed}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    outs(%c : tensor<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %x = tensor.extract %t[%c0, %i] : tensor<4x16xf32>
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g : !transform.any_op
    transform.yield
  }
}

// -----

// With vectorize_nd_extract, the same extract is a contiguous read of row 0.
// CHECK-LABEL: func.func @nd_extract
// CHECK-SAME:  (%[[T:.*]]: tensor<4x16xf32>,
// CHECK:       vector.transfer_read %[[T]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<4x16xf32>, vector<8xf32>
module attributes {transform.with_named_sequence} {
  func.func @nd_extract(%t: tensor<4x16xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%c : tensor<8xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %x = tensor.extract %t[%c0, %i] : tensor<4x16xf32>
      linalg.yield %x : f32
    } -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %g vectorize_nd_extract : !transform.any_op
    transform.yield
  }
}

// -----

// The target handle is consumed.
module attributes {transform.with_named_sequence} {
  func.func @consumed(%a: tensor<8xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
    // expected-note @below {{ancestor payload op}}
    // expected-note @below {{nested payload op}}
    %r = linalg.copy ins(%a : tensor<8xf32>) outs(%c : tensor<8xf32>) -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %g = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-note @below {{invalidated by this transform op that consumes its operand #0 and invalidates all handles to payload IR entities associated with this operand and entities nested in them}}
    transform.structured.vectorize %g : !transform.any_op
    // expected-error @below {{op uses a handle invalidated by a previously executed transform op}}
    transform.annotate %g "x" : !transform.any_op
    transform.yield
  }
}
