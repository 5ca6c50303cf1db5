// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: debug_extension (one split checks the returned handle with transform.debug.emit_remark_at).

// from_elements: an empty tensor and one insert per element, row-major.
// CHECK-LABEL: func.func @from_elements
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[I0:.*]] = tensor.insert %{{.*}} into %[[E]][%[[C0]], %[[C0]]]
// CHECK:         %[[I1:.*]] = tensor.insert %{{.*}} into %[[I0]][%[[C0]], %[[C1]]]
// CHECK:         %[[I2:.*]] = tensor.insert %{{.*}} into %[[I1]][%[[C1]], %[[C0]]]
// CHECK:         tensor.insert %{{.*}} into %[[I2]][%[[C1]], %[[C1]]] {dps}
module attributes {transform.with_named_sequence} {
  func.func @from_elements(%a: f32, %b: f32) -> tensor<2x2xf32> {
    %0 = tensor.from_elements %a, %b, %b, %a : tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.structured.match ops{["tensor.from_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.structured.rewrite_in_destination_passing_style %t : (!transform.any_op) -> !transform.any_op
    transform.annotate %r "dps" : !transform.any_op
    transform.yield
  }
}

// -----

// A rank-0 from_elements: one insert without indices.
// CHECK-LABEL: func.func @from_elements_0d
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<index>
// CHECK:         tensor.insert %{{.*}} into %[[E]][] : tensor<index>
module attributes {transform.with_named_sequence} {
  func.func @from_elements_0d(%a: index) -> tensor<index> {
    %0 = tensor.from_elements %a : tensor<index>
    return %0 : tensor<index>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.structured.match ops{["tensor.from_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.structured.rewrite_in_destination_passing_style %t : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// generate: a generic over an empty tensor, the indices from linalg.index.
// CHECK-LABEL: func.func @generate
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x3xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<?x3xf32>) attrs = {dps}
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK:           linalg.index 1 : index
// CHECK:           arith.index_cast %[[I]] : index to i32
// CHECK:           linalg.yield
module attributes {transform.with_named_sequence} {
  func.func @generate(%n: index) -> tensor<?x3xf32> {
    %0 = tensor.generate %n {
    ^bb0(%i: index, %j: index):
      %x = arith.index_cast %i : index to i32
      %y = arith.sitofp %x : i32 to f32
      tensor.yield %y : f32
    } : tensor<?x3xf32>
    return %0 : tensor<?x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.structured.match ops{["tensor.generate"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.structured.rewrite_in_destination_passing_style %t : (!transform.any_op) -> !transform.any_op
    transform.annotate %r "dps" : !transform.any_op
    transform.yield
  }
}

// -----

// pad with an invariant value: the reified size, a fill, and the source inserted at the
// low padding.
// CHECK-LABEL: func.func @pad
// CHECK:         %[[D:.*]] = tensor.dim %[[T:.*]], %{{.*}} : tensor<5x?xf32>
// CHECK:         %[[N:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 2)>()[%[[D]], %{{.*}}]
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<8x?xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8x?xf32>) -> tensor<8x?xf32>
// CHECK:         tensor.insert_slice %{{.*}} into %[[F]][1, 2] [5, %{{.*}}] [1, 1] {dps} : tensor<5x?xf32> into tensor<8x?xf32>
module attributes {transform.with_named_sequence} {
  func.func @pad(%t: tensor<5x?xf32>, %v: f32, %h: index) -> tensor<8x?xf32> {
    %0 = tensor.pad %t low[1, 2] high[2, %h] {
    ^bb0(%i: index, %j: index):
      tensor.yield %v : f32
    } : tensor<5x?xf32> to tensor<8x?xf32>
    return %0 : tensor<8x?xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.structured.rewrite_in_destination_passing_style %t : (!transform.any_op) -> !transform.any_op
    transform.annotate %r "dps" : !transform.any_op
    transform.yield
  }
}

// -----

// pad with a constant: a new constant fills; with an index-dependent value: a generic.
// CHECK-LABEL: func.func @pad_constant
// CHECK:         %[[C:.*]] = arith.constant 5.000000e-01 : f32
// CHECK:         linalg.fill ins(%[[C]] : f32)
// CHECK-LABEL: func.func @pad_indexed
// CHECK:         linalg.generic
// CHECK:           linalg.index 0 : index
// CHECK:         tensor.insert_slice %{{.*}}[1, 0] [5, 4] [1, 1]
module attributes {transform.with_named_sequence} {
  func.func @pad_constant(%t: tensor<5x4xf32>) -> tensor<8x4xf32> {
    %0 = tensor.pad %t low[1, 0] high[2, 0] {
    ^bb0(%i: index, %j: index):
      %c = arith.constant 0.5 : f32
      tensor.yield %c : f32
    } : tensor<5x4xf32> to tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  func.func @pad_indexed(%t: tensor<5x4xf32>) -> tensor<8x4xf32> {
    %0 = tensor.pad %t low[1, 0] high[2, 0] {
    ^bb0(%i: index, %j: index):
      %x = arith.index_cast %i : index to i32
      %y = arith.sitofp %x : i32 to f32
      tensor.yield %y : f32
    } : tensor<5x4xf32> to tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.structured.rewrite_in_destination_passing_style %t : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Other ops are left as they are (and returned).
// CHECK-LABEL: func.func @other
// CHECK:         tensor.empty() : tensor<4xf32>
module attributes {transform.with_named_sequence} {
  func.func @other(%t: tensor<4xf32>) -> tensor<4xf32> {
    // expected-remark @below {{unchanged}}
    %0 = tensor.empty() : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.structured.match ops{["tensor.empty"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.structured.rewrite_in_destination_passing_style %t : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %r, "unchanged" : !transform.any_op
    transform.yield
  }
}
