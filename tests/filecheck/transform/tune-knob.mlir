// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: tune_extension
// (iree-opt does not register the tune extension; lit reads the line above as a
// feature expression, false here.) Cases follow upstream's
// mlir/test/Dialect/Transform/test-tune-extension{,-invalid}.mlir, except that an
// unresolved choice is a silenceable failure in schedir (definite upstream).

// A selected knob is a param: here the tile size of the outer loop; the
// alternatives pick a sequential outer and a parallel inner tiling.
// CHECK-LABEL: func.func @selected
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:         scf.forall (%{{.*}}) in (8)
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x128xf32>, tensor<128x16xf32>) outs(%{{.*}} : tensor<32x16xf32>)
module attributes {transform.with_named_sequence} {
  func.func @selected(%arg0: tensor<128x128xf32>, %arg1: tensor<128x128xf32>, %arg2: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %0 = linalg.matmul ins(%arg0, %arg1: tensor<128x128xf32>, tensor<128x128xf32>) outs(%arg2: tensor<128x128xf32>) -> tensor<128x128xf32>
    return %0 : tensor<128x128xf32>
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    %ts = transform.tune.knob<"tile"> = 32 from options = [16, 32, 64] -> !transform.param<i64>
    %inner = transform.tune.knob<"inner_par_or_seq"> = 1 from options = [0, 1] -> !transform.param<i64>
    %tiled = transform.tune.alternatives<"outer_par_or_seq"> selected_region = 0 -> !transform.any_op {
      %t, %loop = transform.structured.tile_using_for %matmul tile_sizes [%ts] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      transform.yield %t : !transform.any_op
    }, {
      %t, %loop = transform.structured.tile_using_forall %matmul tile_sizes [%ts] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      transform.yield %t : !transform.any_op
    }
    transform.tune.alternatives<"inner_par_or_seq"> selected_region = %inner : !transform.param<i64> -> !transform.any_op {
      %t, %loop = transform.structured.tile_using_for %tiled tile_sizes [0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.yield %t : !transform.any_op
    }, {
      %t, %loop = transform.structured.tile_using_forall %tiled tile_sizes [0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.yield %t : !transform.any_op
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func private @unresolved_knob()
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    // expected-error @below {{non-deterministic choice "coin" is only resolved through providing a `selected` attr}}
    %heads_or_tails = transform.tune.knob<"coin"> options = [true, false] -> !transform.any_param
    transform.yield
  }
}

// -----

// The unresolved knob's failure is silenceable: failures(suppress) goes on.
// CHECK-LABEL: func.func @suppressed
// CHECK: return {after}
module attributes {transform.with_named_sequence} {
  func.func @suppressed() {
    return
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.sequence %arg0 : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %k = transform.tune.knob<"tile_m"> options = [32, 64] -> !transform.any_param
      transform.yield
    }
    %ret = transform.structured.match ops{["func.return"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.annotate %ret "after" : !transform.any_op
    transform.yield
  }
}

// -----

// The selected region's yields become the results (params here).
// CHECK-LABEL: func.func @four_way
// CHECK: return {chosen = "moe"}
module attributes {transform.with_named_sequence} {
  func.func @four_way() {
    return
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %choice = transform.tune.alternatives<"4way"> selected_region = 3 -> !transform.any_param {
      %out = transform.param.constant "eeny" -> !transform.any_param
      transform.yield %out : !transform.any_param
    }, {
      %out = transform.param.constant "meeny" -> !transform.any_param
      transform.yield %out : !transform.any_param
    }, {
      %out = transform.param.constant "miny" -> !transform.any_param
      transform.yield %out : !transform.any_param
    }, {
      %out = transform.param.constant "moe" -> !transform.any_param
      transform.yield %out : !transform.any_param
    }
    %ret = transform.structured.match ops{["func.return"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.annotate %ret "chosen" = %choice : !transform.any_op, !transform.any_param
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func private @unresolved_alternatives()
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    // expected-error @below {{non-deterministic choice "bifurcation" is only resolved through providing a `selected_region` attr/param}}
    transform.tune.alternatives<"bifurcation"> {
      transform.yield
    }, {
      transform.yield
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func private @two_params()
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %c0 = transform.param.constant 0 -> !transform.any_param
    %c1 = transform.param.constant 1 -> !transform.any_param
    %c0_and_c1 = transform.merge_handles %c0, %c1 : !transform.any_param
    // expected-error @below {{param should hold exactly one integer attribute}}
    transform.tune.alternatives<"bifurcation"> selected_region = %c0_and_c1 : !transform.any_param {
      transform.yield
    }, {
      transform.yield
    }
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func private @out_of_range()
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %c2 = transform.param.constant 2 -> !transform.any_param
    // expected-error @below {{'selected_region' attribute/param specifies region at index 2 while op has only 2 regions}}
    transform.tune.alternatives<"bifurcation"> selected_region = %c2 : !transform.any_param {
      transform.yield
    }, {
      transform.yield
    }
    transform.yield
  }
}

// -----

// Even a definite failure of an unselected region's op never happens: only the
// selected region runs.
// CHECK-LABEL: func.func @only_selected_runs
// CHECK: return {second}
module attributes {transform.with_named_sequence} {
  func.func @only_selected_runs() {
    return
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.tune.alternatives<"pick"> selected_region = 1 {
      %k = transform.tune.knob<"never_resolved"> options = [1, 2] -> !transform.any_param
      transform.yield
    }, {
      transform.annotate %ret "second" : !transform.any_op
      transform.yield
    }
    transform.yield
  }
}
