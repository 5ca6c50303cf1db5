// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The LHS tile of a matmul tiled by 4 along M, padded to 4x7, is hoisted above the tile
// loop: a packing loop fills a 4x4x7 tensor (ceil(13 / 4) tiles), the tile loop reads
// the tile of its iteration.

// CHECK: #[[$CEIL:.*]] = affine_map<(d0) -> (d0 ceildiv 4)>
// CHECK-LABEL: func.func @hoist_lhs
// CHECK:       %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x4x7xf32>
// CHECK:       %[[PACKED:.*]] = scf.for %[[I:[0-9a-z_]+]] = {{.*}} iter_args(%[[T:[0-9a-z_]+]] = %[[E]]) -> (tensor<?x4x7xf32>)
// CHECK:         %[[K:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK:         %[[P:.*]] = tensor.pad
// CHECK:         tensor.insert_slice %[[P]] into %[[T]][%[[K]], 0, 0] [1, 4, 7] [1, 1, 1] : tensor<4x7xf32> into tensor<?x4x7xf32>
// CHECK:       scf.for %[[J:[0-9a-z_]+]] =
// CHECK:         %[[K2:.*]] = affine.apply #{{.*}}(%[[J]])
// CHECK:         %[[TILE:.*]] = tensor.extract_slice %[[PACKED]][%[[K2]], 0, 0] [1, 4, 7] [1, 1, 1] : tensor<?x4x7xf32> to tensor<4x7xf32>
// CHECK:         linalg.matmul ins(%[[TILE]], %{{.*}} : tensor<4x7xf32>, tensor<7x5xf32>)
func.func @hoist_lhs(%a: tensor<13x7xf32>, %b: tensor<7x5xf32>, %c: tensor<13x5xf32>) -> tensor<13x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<13x7xf32>, tensor<7x5xf32>) outs(%c : tensor<13x5xf32>) -> tensor<13x5xf32>
  return %0 : tensor<13x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pads, %copy = transform.structured.pad %t <padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %lhs = transform.get_producer_of_operand %p[0] : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_pad %lhs by 1 loops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// With a transpose the packed tiles are stored 7x4 and transposed back in the loop.

// CHECK-LABEL: func.func @hoist_lhs_transposed
// CHECK:       scf.for
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<4x7xf32>) outs(%{{.*}} : tensor<7x4xf32>) permutation = [1, 0]
// CHECK:         tensor.insert_slice {{.*}} : tensor<7x4xf32> into tensor<?x7x4xf32>
// CHECK:       scf.for
// CHECK:         tensor.extract_slice {{.*}} : tensor<?x7x4xf32> to tensor<7x4xf32>
// CHECK:         %[[BACK:.*]] = linalg.transpose ins(%{{.*}} : tensor<7x4xf32>) outs(%{{.*}} : tensor<4x7xf32>) permutation = [1, 0]
// CHECK:         linalg.matmul ins(%[[BACK]], %{{.*}} : tensor<4x7xf32>, tensor<7x5xf32>)
func.func @hoist_lhs_transposed(%a: tensor<13x7xf32>, %b: tensor<7x5xf32>, %c: tensor<13x5xf32>) -> tensor<13x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<13x7xf32>, tensor<7x5xf32>) outs(%c : tensor<13x5xf32>) -> tensor<13x5xf32>
  return %0 : tensor<13x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pads, %copy = transform.structured.pad %t <padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %lhs = transform.get_producer_of_operand %p[0] : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_pad %lhs by 1 loops, transpose by [1, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The init's pad reads the loop's iter_arg: not hoisted, as upstream.
func.func @init_not_hoisted(%a: tensor<13x7xf32>, %b: tensor<7x5xf32>, %c: tensor<13x5xf32>) -> tensor<13x5xf32> {
  // expected-note @below {{when applied to this op}}
  %0 = linalg.matmul ins(%a, %b : tensor<13x7xf32>, tensor<7x5xf32>) outs(%c : tensor<13x5xf32>) -> tensor<13x5xf32>
  return %0 : tensor<13x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pads, %copy = transform.structured.pad %t <padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %init = transform.get_producer_of_operand %p[2] : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform.structured.hoist_pad failed to apply}}
    %h = transform.structured.hoist_pad %init by 1 loops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %pad = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects transpose to be a permutation, found 1, 1}}
    %h = transform.structured.hoist_pad %pad by 1 loops, transpose by [1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Tiled along M and K, the init's pad reads a slice the K loop only carries: the
// slice is hoisted out of the K loop, padded before it, and the K loop carries the padded
// tile; the valid part is sliced back at offset 0 after the loop (upstream takes the
// original slice's offsets here, outside the 4x5 tile).

// CHECK-LABEL: func.func @hoist_init
// CHECK:       scf.for %[[I:[0-9a-z_]+]] =
// CHECK:         %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [%[[SZ:.*]], 5] [1, 1]
// CHECK:         %[[PAD:.*]] = tensor.pad %[[SLICE]]
// CHECK:         } : tensor<?x5xf32> to tensor<4x5xf32>
// CHECK:         %[[K:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %[[PAD]]) -> (tensor<13x5xf32>, tensor<4x5xf32>)
// CHECK:           %[[MM:.*]] = linalg.matmul {{.*}} outs(%[[ACC]] : tensor<4x5xf32>)
// CHECK:           scf.yield %{{.*}}, %[[MM]] : tensor<13x5xf32>, tensor<4x5xf32>
// CHECK:         %[[BACK:.*]] = tensor.extract_slice %[[K]]#1[0, 0] [%[[SZ]], 5] [1, 1] : tensor<4x5xf32> to tensor<?x5xf32>
// CHECK:         tensor.insert_slice %[[BACK]] into %{{.*}}[%[[I]], 0] [%[[SZ]], 5] [1, 1]
func.func @hoist_init(%a: tensor<13x7xf32>, %b: tensor<7x5xf32>, %c: tensor<13x5xf32>) -> tensor<13x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<13x7xf32>, tensor<7x5xf32>) outs(%c : tensor<13x5xf32>) -> tensor<13x5xf32>
  return %0 : tensor<13x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %lm, %lk = transform.structured.tile_using_for %mm tile_sizes [4, 0, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %p, %pads, %copy = transform.structured.pad %t <padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %init = transform.get_producer_of_operand %p[2] : (!transform.any_op) -> !transform.op<"tensor.pad">
    transform.apply_licm to %lk : !transform.any_op
    %h = transform.structured.hoist_pad %init by 1 loops : (!transform.op<"tensor.pad">) -> !transform.any_op
    transform.yield
  }
}

// -----

// build_packing_loop_nest builds the packing loop only; the pad stays where it is.

// CHECK-LABEL: func.func @packing_nest
// CHECK:       %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x4x7xf32>
// CHECK:       scf.for {{.*}} iter_args(%{{.*}} = %[[E]]) -> (tensor<?x4x7xf32>)
// CHECK:         tensor.insert_slice {{.*}} : tensor<4x7xf32> into tensor<?x4x7xf32>
// CHECK:       scf.for
// CHECK:         tensor.pad
// CHECK:         } : tensor<?x7xf32> to tensor<4x7xf32>
func.func @packing_nest(%a: tensor<13x7xf32>, %b: tensor<7x5xf32>, %c: tensor<13x5xf32>) -> tensor<13x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<13x7xf32>, tensor<7x5xf32>) outs(%c : tensor<13x5xf32>) -> tensor<13x5xf32>
  return %0 : tensor<13x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pads, %copy = transform.structured.pad %t <padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %lhs = transform.get_producer_of_operand %p[0] : (!transform.any_op) -> !transform.any_op
    %nest = transform.structured.hoist_pad.build_packing_loop_nest %lhs above %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @packing_nest_two_pads(%a: tensor<13x7xf32>, %b: tensor<7x5xf32>, %c: tensor<13x5xf32>) -> tensor<13x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<13x7xf32>, tensor<7x5xf32>) outs(%c : tensor<13x5xf32>) -> tensor<13x5xf32>
  return %0 : tensor<13x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p, %pads, %copy = transform.structured.pad %t <padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1, 2], copy_back_op = "none"> : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{requires exactly one target and one loop handle (got 2 and 1)}}
    %nest = transform.structured.hoist_pad.build_packing_loop_nest %pads above %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @packing_nest_not_a_pad(%a: tensor<13x7xf32>, %b: tensor<7x5xf32>, %c: tensor<13x5xf32>) -> tensor<13x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<13x7xf32>, tensor<7x5xf32>) outs(%c : tensor<13x5xf32>) -> tensor<13x5xf32>
  return %0 : tensor<13x5xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{requires exactly 2 non-null handles}}
    %nest = transform.structured.hoist_pad.build_packing_loop_nest %t above %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
