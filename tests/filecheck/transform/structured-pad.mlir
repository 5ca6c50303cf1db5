// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Each operand is padded at the high end to the next multiple (nofold keeps the pad of
// an operand that needs none); the padded clone's result is sliced back to the original
// shape and copied into the original init.
// CHECK-LABEL: func.func @multiple_of
// CHECK-SAME:  (%[[A:.*]]: tensor<24x12xf32>, %[[B:.*]]: tensor<12x25xf32>, %[[C:.*]]: tensor<24x25xf32>)
// CHECK:       %[[PA:.*]] = tensor.pad %[[A]] nofold low[0, 0] high[8, 4] {
// CHECK:       } {pads} : tensor<24x12xf32> to tensor<32x16xf32>
// CHECK:       %[[PB:.*]] = tensor.pad %[[B]] low[0, 0] high[4, 7] {
// CHECK:       } {pads} : tensor<12x25xf32> to tensor<16x32xf32>
// CHECK:       %[[PC:.*]] = tensor.pad %[[C]] low[0, 0] high[8, 7] {
// CHECK:       } {pads} : tensor<24x25xf32> to tensor<32x32xf32>
// CHECK:       %[[MM:.*]] = linalg.matmul {padded} ins(%[[PA]], %[[PB]] : tensor<32x16xf32>, tensor<16x32xf32>) outs(%[[PC]] : tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[MM]][0, 0] [24, 25] [1, 1] : tensor<32x32xf32> to tensor<24x25xf32>
// CHECK:       %[[R:.*]] = bufferization.materialize_in_destination %[[S]] in %[[C]] {copied} : (tensor<24x25xf32>, tensor<24x25xf32>) -> tensor<24x25xf32>
// CHECK:       return %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @multiple_of(%a: tensor<24x12xf32>, %b: tensor<12x25xf32>, %c: tensor<24x25xf32>) -> tensor<24x25xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<24x12xf32>, tensor<12x25xf32>) outs(%c : tensor<24x25xf32>) -> tensor<24x25xf32>
    return %0 : tensor<24x25xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p, %pad, %copy = transform.structured.pad %m pad_to_multiple_of [16, 16, 8] <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], nofold_flags = [1, 0, 0]}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %p "padded" : !transform.any_op
    transform.annotate %pad "pads" : !transform.any_op
    transform.annotate %copy "copied" : !transform.any_op
    transform.yield
  }
}

// -----

// Already static: nothing to pad, the op is still cloned, sliced and copied back
// (here with linalg.copy); the multiple of the padded dim comes from a param.
// CHECK-LABEL: func.func @nothing_to_pad
// CHECK-NOT:   tensor.pad
// CHECK:       %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<24x12xf32>, tensor<12x25xf32>) outs(%[[C:.*]] : tensor<24x25xf32>)
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[MM]][0, 0] [24, 25] [1, 1] : tensor<24x25xf32> to tensor<24x25xf32>
// CHECK:       linalg.copy {copied} ins(%[[S]] : tensor<24x25xf32>) outs(%[[C]] : tensor<24x25xf32>)
module attributes {transform.with_named_sequence} {
  func.func @nothing_to_pad(%a: tensor<24x12xf32>, %b: tensor<12x25xf32>, %c: tensor<24x25xf32>) -> tensor<24x25xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<24x12xf32>, tensor<12x25xf32>) outs(%c : tensor<24x25xf32>) -> tensor<24x25xf32>
    return %0 : tensor<24x25xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %five = transform.param.constant 5 : i64 -> !transform.param<i64>
    %p, %pad, %copy = transform.structured.pad %m pad_to_multiple_of [%five] <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [1], copy_back_op = "linalg.copy"}> : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %copy "copied" : !transform.any_op
    transform.yield
  }
}

// -----

// After tiling, the partial tile (an affine.min size) is padded to its static bound
// 8; with copy_back_op = "none" the slice of the padded result replaces the op.
// CHECK-LABEL: func.func @tile_then_pad
// CHECK:       scf.for
// CHECK:         %[[SIZE:.*]] = affine.min
// CHECK:         %[[SA:.*]] = tensor.extract_slice %{{.*}} [%[[SIZE]], 12]
// CHECK:         tensor.pad %[[SA]] low[0, 0] high[%{{.*}}, 0]
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x12xf32>, tensor<12x25xf32>) outs(%{{.*}} : tensor<8x25xf32>) -> tensor<8x25xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [%[[SIZE]], 25] [1, 1] : tensor<8x25xf32> to tensor<?x25xf32>
// CHECK-NOT:     bufferization.materialize_in_destination
// CHECK:         tensor.insert_slice
module attributes {transform.with_named_sequence} {
  func.func @tile_then_pad(%a: tensor<?x12xf32>, %b: tensor<12x25xf32>, %c: tensor<?x25xf32>) -> tensor<?x25xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<?x12xf32>, tensor<12x25xf32>) outs(%c : tensor<?x25xf32>) -> tensor<?x25xf32>
    return %0 : tensor<?x25xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %m tile_sizes [8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pad, %copy = transform.structured.pad %t <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A dynamic dimension without a static bound cannot be padded.
module attributes {transform.with_named_sequence} {
  func.func @unbounded(%a: tensor<?x12xf32>, %b: tensor<12x25xf32>, %c: tensor<?x25xf32>) -> tensor<?x25xf32> {
    // expected-note @below {{target op}}
    %0 = linalg.matmul ins(%a, %b : tensor<?x12xf32>, tensor<12x25xf32>) outs(%c : tensor<?x25xf32>) -> tensor<?x25xf32>
    return %0 : tensor<?x25xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to pad op}}
    %p, %pad, %copy = transform.structured.pad %m <{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1]}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @wrong_value_type(%a: tensor<24x12xf32>, %b: tensor<12x25xf32>, %c: tensor<24x25xf32>) -> tensor<24x25xf32> {
    // expected-note @below {{when applied to this op}}
    %0 = linalg.matmul ins(%a, %b : tensor<24x12xf32>, tensor<12x25xf32>) outs(%c : tensor<24x25xf32>) -> tensor<24x25xf32>
    return %0 : tensor<24x25xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.structured.pad' op expects a padding value of type 'f32', got 0 : i32}}
    %p, %pad, %copy = transform.structured.pad %m <{padding_values = [0 : i32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0]}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_linalg(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-note @below {{target op}}
    %e = tensor.empty() : tensor<4xf32>
    return %e : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["tensor.empty"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected LinalgOp target}}
    %p, %pad, %copy = transform.structured.pad %e <{padding_dimensions = [0]}> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
