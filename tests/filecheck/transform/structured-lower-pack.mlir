// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A padded, permuted pack: pad to whole tiles, split each dimension into (count, tile),
// transpose into the packed order.
// CHECK-LABEL: func.func @pack
// CHECK:         %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0] high[3, 1]
// CHECK:         } : tensor<13x15xf32> to tensor<16x16xf32>
// CHECK:         %[[EXP:.*]] = tensor.expand_shape %[[PAD]] {{\[}}[0, 1], [2, 3]] output_shape [4, 4, 2, 8] : tensor<16x16xf32> into tensor<4x4x2x8xf32>
// CHECK:         linalg.transpose ins(%[[EXP]] : tensor<4x4x2x8xf32>) outs(%{{.*}} : tensor<2x4x4x8xf32>) permutation = [2, 0, 1, 3]
// CHECK-NOT:     linalg.pack %
module attributes {transform.with_named_sequence} {
  func.func @pack(%a: tensor<13x15xf32>, %d: tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32> {
    %cst = arith.constant 0.0 : f32
    %p = linalg.pack %a padding_value(%cst : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %d : tensor<13x15xf32> -> tensor<2x4x4x8xf32>
    return %p : tensor<2x4x4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.op<"linalg.pack">
    %pad, %exp, %tr = transform.structured.lower_pack %p : (!transform.op<"linalg.pack">) -> (!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">, !transform.op<"linalg.transpose">)
    transform.yield
  }
}

// -----

// The mirror for unpack, with the copy into the destination that keeps DPS.
// CHECK-LABEL: func.func @unpack
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x4x2x8xf32>
// CHECK:         %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<2x4x4x8xf32>) outs(%[[E]] : tensor<4x4x2x8xf32>) permutation = [1, 2, 0, 3]
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1], [2, 3]] : tensor<4x4x2x8xf32> into tensor<16x16xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[C]][0, 0] [13, 15] [1, 1] : tensor<16x16xf32> to tensor<13x15xf32>
// CHECK:         linalg.copy ins(%[[S]] : tensor<13x15xf32>) outs(%{{.*}} : tensor<13x15xf32>)
module attributes {transform.with_named_sequence} {
  func.func @unpack(%a: tensor<2x4x4x8xf32>, %d: tensor<13x15xf32>) -> tensor<13x15xf32> {
    %u = linalg.unpack %a outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %d : tensor<2x4x4x8xf32> -> tensor<13x15xf32>
    return %u : tensor<13x15xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %u = transform.structured.match ops{["linalg.unpack"]} in %root : (!transform.any_op) -> !transform.op<"linalg.unpack">
    %e, %t, %c, %s, %cp = transform.structured.lower_unpack %u : (!transform.op<"linalg.unpack">) -> (!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">, !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">, !transform.op<"linalg.copy">)
    transform.yield
  }
}

// -----

// Pad-like pack and unpad-like unpack: a pad + insert_slice, and a single extract_slice.
// CHECK-LABEL: func.func @pad_like
// CHECK:         %[[PAD:.*]] = tensor.pad
// CHECK:         tensor.insert_slice %[[PAD]] into %{{.*}}[0, 0, 0, 0] [1, 1, 16, 16] [1, 1, 1, 1] : tensor<16x16xf32> into tensor<1x1x16x16xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 13, 15] [1, 1, 1, 1] : tensor<1x1x16x16xf32> to tensor<13x15xf32>
// CHECK-NOT:     linalg.copy
module attributes {transform.with_named_sequence} {
  func.func @pad_like(%a: tensor<13x15xf32>, %d: tensor<1x1x16x16xf32>, %o: tensor<13x15xf32>) -> tensor<13x15xf32> {
    %cst = arith.constant 0.0 : f32
    %p = linalg.pack %a padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : tensor<13x15xf32> -> tensor<1x1x16x16xf32>
    %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %o : tensor<1x1x16x16xf32> -> tensor<13x15xf32>
    return %u : tensor<13x15xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.op<"linalg.pack">
    %pad, %exp, %tr = transform.structured.lower_pack %p : (!transform.op<"linalg.pack">) -> (!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">, !transform.op<"linalg.transpose">)
    %u = transform.structured.match ops{["linalg.unpack"]} in %root : (!transform.any_op) -> !transform.op<"linalg.unpack">
    %e, %t, %c, %s, %cp = transform.structured.lower_unpack %u : (!transform.op<"linalg.unpack">) -> (!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">, !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">, !transform.op<"linalg.copy">)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.pack"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{operand #0 must be Transform IR handle to linalg.pack operations, but got '!transform.any_op'}}
    %pad, %exp, %tr = transform.structured.lower_pack %p : (!transform.any_op) -> (!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">, !transform.op<"linalg.transpose">)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %u = transform.structured.match ops{["linalg.unpack"]} in %root : (!transform.any_op) -> !transform.op<"linalg.unpack">
    // expected-error @below {{result #4 must be Transform IR handle to linalg.copy operations, but got '!transform.any_op'}}
    %e, %t, %c, %s, %cp = transform.structured.lower_unpack %u : (!transform.op<"linalg.unpack">) -> (!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">, !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">, !transform.any_op)
    transform.yield
  }
}
