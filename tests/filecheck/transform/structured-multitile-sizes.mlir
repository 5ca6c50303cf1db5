// RUN: schedir-opt %s --split-input-file --verify-diagnostics
// UPSTREAM-LACKS: debug_extension
// (iree-opt does not register the debug extension.) multitile_sizes with param results:
// the low and high tile sizes (multiples of the divisor near the target size) and the split
// point that tile the dimension exactly; a silenceable failure where no such sizes exist
// (the dimension not a multiple of the divisor) or the dimension is dynamic, which a
// surrounding transform.alternatives turns into a fallback.

#xy = affine_map<(i, j) -> (i, j)>
#y = affine_map<(i, j) -> (j)>
module attributes {transform.with_named_sequence} {
  func.func @sizes(%in: tensor<1000x6xf32>, %out: tensor<6xf32>) -> tensor<6xf32> {
    %r = linalg.generic {indexing_maps = [#xy, #y], iterator_types = ["reduction", "parallel"]}
        ins(%in : tensor<1000x6xf32>) outs(%out : tensor<6xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<6xf32>
    return %r : tensor<6xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // 1000 = 3 x 56 + 13 x 64 (125 multiples of 8 in 16 tiles of at most 64)
    %lo, %hi, %at = transform.structured.multitile_sizes %g dimension = 0 target_size = 64
        divisor = 8 : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{56 : i64}}
    transform.debug.emit_param_as_remark %lo : !transform.param<i64>
    // expected-remark @below {{64 : i64}}
    transform.debug.emit_param_as_remark %hi : !transform.param<i64>
    // expected-remark @below {{168 : i64}}
    transform.debug.emit_param_as_remark %at : !transform.param<i64>
    // the whole dimension is one tile: no high tiles, the split point at the end
    %lo2, %hi2, %at2 = transform.structured.multitile_sizes %g dimension = 1 target_size = 8
        : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{6 : i64}}
    transform.debug.emit_param_as_remark %lo2 : !transform.param<i64>
    // expected-remark @below {{6 : i64}}
    transform.debug.emit_param_as_remark %at2 : !transform.param<i64>
    transform.yield
  }
}

// -----

#xy = affine_map<(i, j) -> (i, j)>
#y = affine_map<(i, j) -> (j)>
module attributes {transform.with_named_sequence} {
  func.func @not_divisible(%in: tensor<8191x4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
    // expected-note @below {{when applied to this op}}
    %r = linalg.generic {indexing_maps = [#xy, #y], iterator_types = ["reduction", "parallel"]}
        ins(%in : tensor<8191x4xf32>) outs(%out : tensor<4xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{failed to compute multi-size tiling sizes}}
    %lo, %hi, %at = transform.structured.multitile_sizes %g dimension = 0 target_size = 128
        divisor = 128 : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

#xy = affine_map<(i, j) -> (i, j)>
#y = affine_map<(i, j) -> (j)>
module attributes {transform.with_named_sequence} {
  func.func @suppressed(%in: tensor<8191x4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
    // expected-remark @below {{went on}}
    %r = linalg.generic {indexing_maps = [#xy, #y], iterator_types = ["reduction", "parallel"]}
        ins(%in : tensor<8191x4xf32>) outs(%out : tensor<4xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // The failure is silenceable: suppressed, the sequence goes on.
    transform.sequence %g : !transform.any_op failures(suppress) {
    ^bb0(%t: !transform.any_op):
      %lo, %hi, %at = transform.structured.multitile_sizes %t dimension = 0 target_size = 8
          divisor = 2 : (!transform.any_op) -> !transform.param<i64>
      transform.yield
    }
    transform.debug.emit_remark_at %g, "went on" : !transform.any_op
    transform.yield
  }
}

// -----

#xy = affine_map<(i, j) -> (i, j)>
#y = affine_map<(i, j) -> (j)>
module attributes {transform.with_named_sequence} {
  func.func @dynamic(%in: tensor<?x4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
    // expected-note @below {{when applied to this op}}
    %r = linalg.generic {indexing_maps = [#xy, #y], iterator_types = ["reduction", "parallel"]}
        ins(%in : tensor<?x4xf32>) outs(%out : tensor<4xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot compute parametric tile sizes for dynamically shaped payload op}}
    %lo, %hi, %at = transform.structured.multitile_sizes %g dimension = 0 target_size = 8
        : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}
