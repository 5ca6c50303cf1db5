// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Ported from upstream's mlir/test/Dialect/Linalg/match-ops-interpreter.mlir: the actions
// annotate the payload (upstream emits remarks, which iree-opt's build cannot), and captured
// params are split and attached as attributes.

// An empty match.structured matches every structured op and nothing else.
// CHECK-LABEL: func.func @match_any_structured
// CHECK-NEXT: %preA = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT: %cA = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %A = linalg.fill {structured} ins
// CHECK-NEXT: %B = arith.constant dense<1.000000e+00> : tensor<3x4xf32>
// CHECK-NEXT: %C = arith.constant dense<1.000000e+03> : tensor<2x4xf32>
// CHECK-NEXT: %D = linalg.matmul {structured} ins
// CHECK-NEXT: %E = arith.constant dense<2.000000e+00> : tensor<2x4xf32>
// CHECK-NEXT: linalg.generic
// CHECK-SAME: attrs = {structured}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield %arg0 : f32
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tag_structured(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "structured" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @match_structured_empty(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %0 = transform.match.structured %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %arg0
        @match_structured_empty -> @tag_structured
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @match_any_structured() {
    %preA = tensor.empty() : tensor<2x3xf32>
    %cA = arith.constant 1.0 : f32
    %A = linalg.fill ins(%cA : f32) outs(%preA : tensor<2x3xf32>) -> tensor<2x3xf32>
    %B = arith.constant dense<1.0> : tensor<3x4xf32>
    %C = arith.constant dense<1000.0> : tensor<2x4xf32>
    %D = linalg.matmul ins(%A, %B: tensor<2x3xf32>, tensor<3x4xf32>)
                       outs(%C: tensor<2x4xf32>) -> tensor<2x4xf32>
    %E = arith.constant dense<2.0> : tensor<2x4xf32>
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]
    } ins(%D : tensor<2x4xf32>) outs(%E : tensor<2x4xf32>) {
    ^bb0(%arg0: f32, %arg1: f32):
      linalg.yield %arg0 : f32
    } -> tensor<2x4xf32>
    return
  }
}

// -----

// failures(suppress): a non-structured op is not a failure, the results are empty, and the
// matcher goes on (tagging every op "other", only structured ones "structured").
// CHECK-LABEL: func.func @suppressed
// CHECK-SAME: {other}
// CHECK: arith.constant {other} dense<1.000000e+00>
// CHECK: linalg.generic
// CHECK-SAME: attrs = {other, structured}
// CHECK: linalg.yield {other}
// CHECK: return {other}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tag(%arg0: !transform.any_op {transform.readonly},
                                %arg1: !transform.any_op {transform.readonly}) {
    transform.annotate %arg1 "other" : !transform.any_op
    transform.annotate %arg0 "structured" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @match_structured_suppress(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %0 = transform.match.structured failures(suppress) %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0, %arg0 : !transform.any_op, !transform.any_op
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %arg0
        @match_structured_suppress -> @tag
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @suppressed() {
    %D = arith.constant dense<1.0> : tensor<2x4xf32>
    %E = arith.constant dense<2.0> : tensor<2x4xf32>
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]
    } ins(%D : tensor<2x4xf32>) outs(%E : tensor<2x4xf32>) {
    ^bb0(%arg0: f32, %arg1: f32):
      linalg.yield %arg0 : f32
    } -> tensor<2x4xf32>
    return
  }
}

// -----

// body passthrough: the body only yields the inputs (copy, fill of an f32 into f32).
// CHECK-LABEL: func.func @passthrough
// CHECK: linalg.generic
// CHECK-SAME: attrs = {passthrough}
// CHECK: linalg.generic
// CHECK-NOT: passthrough
// CHECK-SAME: {
// CHECK: linalg.copy {passthrough}
// CHECK: linalg.fill {passthrough}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tag_passthrough(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "passthrough" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @match_structured_body_passthrough(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %0 = transform.match.structured failures(propagate) %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.body %arg1 passthrough : !transform.any_op
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %arg0
        @match_structured_body_passthrough -> @tag_passthrough
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @passthrough(%in: tensor<2xf32>, %out: tensor<2xf32>, %f: f32) {
    linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]
    } ins(%in : tensor<2xf32>) outs(%out : tensor<2xf32>) {
    ^bb0(%arg0: f32, %arg1: f32):
      linalg.yield %arg0 : f32
    } -> tensor<2xf32>
    linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]
    } ins(%in : tensor<2xf32>) outs(%out : tensor<2xf32>) {
    ^bb0(%arg0: f32, %arg1: f32):
      %0 = arith.mulf %arg0, %arg1 : f32
      linalg.yield %0 : f32
    } -> tensor<2xf32>
    linalg.copy ins(%in : tensor<2xf32>) outs(%out : tensor<2xf32>) -> tensor<2xf32>
    linalg.fill ins(%f : f32) outs(%out : tensor<2xf32>) -> tensor<2xf32>
    return
  }
}

// -----

// body elementwise: all loops parallel, permutation init maps and a scalar body.
// CHECK-LABEL: func.func @elementwise
// CHECK: linalg.fill {elementwise}
// CHECK: linalg.map { arith.addf } ins(%in1, %in2 : tensor<2xf32>, tensor<2xf32>) outs(%fill : tensor<2xf32>) {elementwise}
// CHECK: linalg.generic
// CHECK-NOT: elementwise
// CHECK: tensor.dim
// CHECK: linalg.generic
// CHECK-SAME: attrs = {elementwise}
// CHECK: linalg.generic
// CHECK-SAME: attrs = {elementwise}
// CHECK: linalg.index 0
// CHECK: linalg.generic
// CHECK-SAME: attrs = {elementwise}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tag_elementwise(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "elementwise" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @match_structured_body_elementwise(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %0 = transform.match.structured failures(propagate) %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.body %arg1 elementwise : !transform.any_op
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %arg0
        @match_structured_body_elementwise -> @tag_elementwise
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @elementwise(%in1: tensor<2xf32>, %in2: tensor<2xf32>, %in3: tensor<2x3xf32>, %out: tensor<2xf32>, %out2: tensor<2x3xf32>, %out3: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
    %cst0 = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %fill = linalg.fill ins(%cst0: f32) outs(%out: tensor<2xf32>) -> tensor<2xf32>
    %add = linalg.map {arith.addf} ins(%in1, %in2: tensor<2xf32>, tensor<2xf32>) outs(%fill: tensor<2xf32>)
    %non_elementwise = linalg.generic
      {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
       iterator_types = ["parallel", "parallel"]}
      ins(%in1, %in3: tensor<2xf32>, tensor<2x3xf32>) outs(%out2: tensor<2x3xf32>) {
        ^bb0(%arg0: f32, %arg1: f32, %arg3: f32):
          %0 = arith.addf %arg0, %arg1 : f32
          %1 = tensor.dim %add, %c0 : tensor<2xf32>
          %2 = arith.subi %1, %c1 : index
          %3 = tensor.extract %add[%2] : tensor<2xf32>
          %4 = arith.mulf %0, %3 : f32
          linalg.yield %4 : f32
      } -> tensor<2x3xf32>
    %add_bcast = linalg.generic
      {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
       iterator_types = ["parallel", "parallel"]}
      ins(%in1, %in3: tensor<2xf32>, tensor<2x3xf32>) outs(%out2: tensor<2x3xf32>) {
        ^bb0(%arg0: f32, %arg1: f32, %arg3: f32):
          %0 = arith.addf %arg0, %arg1 : f32
          linalg.yield %0 : f32
      } -> tensor<2x3xf32>
    // linalg.index and tensor.extract are allowed in an elementwise body.
    %indexed = linalg.generic
      {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
       iterator_types = ["parallel", "parallel"]}
      outs(%out2: tensor<2x3xf32>) {
        ^bb0(%arg3: f32):
          %i = linalg.index 0 : index
          %x = tensor.extract %in1[%i] : tensor<2xf32>
          linalg.yield %x : f32
      } -> tensor<2x3xf32>
    // A transposed init map is still a permutation: elementwise.
    %transposed = linalg.generic
      {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>],
       iterator_types = ["parallel", "parallel"]}
      ins(%in3: tensor<2x3xf32>) outs(%out3: tensor<3x2xf32>) {
        ^bb0(%arg0: f32, %arg3: f32):
          linalg.yield %arg0 : f32
      } -> tensor<3x2xf32>
    return %add, %add_bcast, %non_elementwise : tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
  }
}

// -----

// body reduction_position = 0: a single combiner op reduces init #0 (not the two-output
// argmin body, not a plain copy).
// CHECK-LABEL: func.func @reduction
// CHECK: linalg.generic
// CHECK-SAME: attrs = {reduction}
// CHECK: linalg.generic
// CHECK-NOT: reduction}
// CHECK-SAME: {
// CHECK: linalg.matmul {reduction}
// CHECK: linalg.generic
// CHECK-NOT: reduction}
// CHECK-SAME: {
// CHECK: linalg.reduce { arith.addf } ins(%lhs : tensor<2x4xf32>) outs(%out2 : tensor<2xf32>) dimensions = [1] {reduction}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tag_reduction(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "reduction" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @match_structured_body_reduction(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %0 = transform.match.structured failures(propagate) %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.body %arg1 reduction_position = 0 : !transform.any_op
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %arg0
        @match_structured_body_reduction -> @tag_reduction
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @reduction(%lhs: tensor<2x4xf32>, %rhs: tensor<4x3xf32>, %out: tensor<2x3xf32>, %out2: tensor<2xf32>) {
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]
    } ins(%lhs, %rhs: tensor<2x4xf32>, tensor<4x3xf32>) outs(%out: tensor<2x3xf32>) {
    ^bb0(%arg0: f32, %arg1: f32, %arg2: f32):
      %0 = arith.mulf %arg0, %arg1 : f32
      %1 = arith.addf %0, %arg2 : f32
      linalg.yield %1 : f32
    } -> tensor<2x3xf32>
    %r = tensor.empty() : tensor<2x3xf32>
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>,
                       affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]
    } ins(%lhs, %rhs: tensor<2x4xf32>, tensor<4x3xf32>) outs(%out, %r: tensor<2x3xf32>, tensor<2x3xf32>) {
    ^bb0(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: f32):
      %0 = arith.mulf %arg0, %arg1 : f32
      %1 = arith.cmpf olt, %0, %arg2 : f32
      %2 = arith.select %1, %0, %arg2 : f32
      %3 = arith.select %1, %arg3, %0 : f32
      linalg.yield %2, %3 : f32, f32
    } -> (tensor<2x3xf32>, tensor<2x3xf32>)
    linalg.matmul ins(%lhs, %rhs: tensor<2x4xf32>, tensor<4x3xf32>) outs(%out: tensor<2x3xf32>) -> tensor<2x3xf32>
    %e = tensor.empty() : tensor<2x4xf32>
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]
    } ins(%lhs: tensor<2x4xf32>) outs(%e: tensor<2x4xf32>) {
    ^bb0(%arg0: f32, %arg1: f32):
      linalg.yield %arg0 : f32
    } -> tensor<2x4xf32>
    linalg.reduce {arith.addf} ins(%lhs : tensor<2x4xf32>) outs(%out2 : tensor<2xf32>) dimensions = [1]
    return
  }
}

// -----

// dim captures sizes in the listed order ([all], negative positions, except(...)); with
// failures(suppress) the capture failing on a repeated position ([0, -3] on three loops)
// ends the match, which keeps the results captured before it and leaves the rest empty.
// CHECK-LABEL: func.func @dims
// CHECK: linalg.generic
// CHECK-SAME: attrs = {failed_capture = 0 : i64, matched_sizes, dynamic = 4 : i64}
// CHECK: linalg.matmul {dynamic = -9223372036854775808 : i64}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_dimension_capture(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.param<i64>) {
    %0:9 = transform.match.structured failures(suppress) %arg0
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
            !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[all] : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.dim %arg1[0] : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.match.structured.dim %arg1[-1] : (!transform.any_op) -> !transform.param<i64>
      %4 = transform.match.structured.dim %arg1[0, 2] : (!transform.any_op) -> !transform.param<i64>
      %5 = transform.match.structured.dim %arg1[0, -1] : (!transform.any_op) -> !transform.param<i64>
      %6 = transform.match.structured.dim %arg1[except(-1)] : (!transform.any_op) -> !transform.param<i64>
      %7 = transform.match.structured.dim %arg1[except(0, -2)] : (!transform.any_op) -> !transform.param<i64>
      %8 = transform.match.structured.dim %arg1[0, -3] : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %arg1, %1, %2, %3, %4, %5, %6, %7, %8
          : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
            !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    }
    %c2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %c3 = transform.param.constant 3 : i64 -> !transform.param<i64>
    %c4 = transform.param.constant 4 : i64 -> !transform.param<i64>
    %c234 = transform.merge_handles %c2, %c3, %c4 : !transform.param<i64>
    %c24 = transform.merge_handles %c2, %c4 : !transform.param<i64>
    %c23 = transform.merge_handles %c2, %c3 : !transform.param<i64>
    transform.match.param.cmpi eq %0#1, %c234 : !transform.param<i64>
    transform.match.param.cmpi eq %0#2, %c2 : !transform.param<i64>
    transform.match.param.cmpi eq %0#3, %c4 : !transform.param<i64>
    transform.match.param.cmpi eq %0#4, %c24 : !transform.param<i64>
    transform.match.param.cmpi eq %0#5, %c24 : !transform.param<i64>
    transform.match.param.cmpi eq %0#6, %c23 : !transform.param<i64>
    transform.match.param.cmpi eq %0#7, %c4 : !transform.param<i64>
    transform.yield %0#0, %0#8 : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @tag_sizes(%arg0: !transform.any_op {transform.readonly},
                                      %arg1: !transform.param<i64> {transform.readonly}) {
    %n = transform.num_associations %arg1 : (!transform.param<i64>) -> !transform.param<i64>
    transform.annotate %arg0 "failed_capture" = %n : !transform.any_op, !transform.param<i64>
    transform.annotate %arg0 "matched_sizes" : !transform.any_op
    transform.yield
  }
  // A dynamic loop is captured as ShapedType::kDynamic.
  transform.named_sequence @match_dynamic(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.param<i64>) {
    %0:2 = transform.match.structured %arg0
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>) {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.dim %arg1[2] : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %arg1, %1 : !transform.any_op, !transform.param<i64>
    }
    transform.yield %0#0, %0#1 : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @tag_dynamic(%arg0: !transform.any_op {transform.readonly},
                                        %arg1: !transform.param<i64> {transform.readonly}) {
    transform.annotate %arg0 "dynamic" = %arg1 : !transform.any_op, !transform.param<i64>
    transform.yield
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %arg0 @match_dimension_capture -> @tag_sizes : (!transform.any_op) -> !transform.any_op
    %1 = transform.foreach_match in %0 @match_dynamic -> @tag_dynamic : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @dims(%lhs: tensor<2x4xf32>, %rhs: tensor<4x3xf32>, %out: tensor<2x3xf32>, %dl: tensor<2x?xf32>, %dr: tensor<?x3xf32>) {
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]
    } ins(%lhs, %rhs: tensor<2x4xf32>, tensor<4x3xf32>) outs(%out: tensor<2x3xf32>) {
    ^bb0(%arg0: f32, %arg1: f32, %arg2: f32):
      %0 = arith.mulf %arg0, %arg1 : f32
      %1 = arith.addf %0, %arg2 : f32
      linalg.yield %1 : f32
    } -> tensor<2x3xf32>
    linalg.matmul ins(%dl, %dr : tensor<2x?xf32>, tensor<?x3xf32>) outs(%out : tensor<2x3xf32>) -> tensor<2x3xf32>
    return
  }
}

// -----

// dim kinds: `parallel` / `reduction` on [all], [-1] and [except(-1)].
// CHECK-LABEL: func.func @dim_kinds
// CHECK: linalg.generic
// CHECK-SAME: attrs = {last_reduction, parallel_except_last}
// CHECK: linalg.matmul {last_reduction, parallel_except_last}
// CHECK: linalg.fill {all_parallel, parallel_except_last}
// A single-loop reduction: except(-1) lists no loop, so `parallel` holds vacuously.
// CHECK: linalg.reduce
// CHECK-SAME: {all_reduction, last_reduction, parallel_except_last}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tag_all_reduction(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "all_reduction" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tag_all_parallel(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "all_parallel" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tag_last_reduction(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "last_reduction" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tag_parallel_except_last(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "parallel_except_last" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @match_all_reduction(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured failures(propagate) %arg0 : !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.dim %arg1[all] reduction : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %arg0 : !transform.any_op
  }
  transform.named_sequence @match_all_parallel(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured failures(propagate) %arg0 : !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.dim %arg1[all] parallel : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %arg0 : !transform.any_op
  }
  transform.named_sequence @match_last_reduction(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured failures(propagate) %arg0 : !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.dim %arg1[-1] reduction : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %arg0 : !transform.any_op
  }
  transform.named_sequence @match_parallel_except_last(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured failures(propagate) %arg0 : !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.dim %arg1[except(-1)] parallel : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %arg0 : !transform.any_op
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %arg0 @match_all_reduction -> @tag_all_reduction : (!transform.any_op) -> !transform.any_op
    %1 = transform.foreach_match in %0 @match_all_parallel -> @tag_all_parallel : (!transform.any_op) -> !transform.any_op
    %2 = transform.foreach_match in %1 @match_last_reduction -> @tag_last_reduction : (!transform.any_op) -> !transform.any_op
    %3 = transform.foreach_match in %2 @match_parallel_except_last -> @tag_parallel_except_last : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @dim_kinds(%lhs: tensor<2x4xf32>, %rhs: tensor<4x3xf32>, %out: tensor<2x3xf32>, %v: tensor<8xf32>, %s: tensor<f32>) {
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]
    } ins(%lhs, %rhs: tensor<2x4xf32>, tensor<4x3xf32>) outs(%out: tensor<2x3xf32>) {
    ^bb0(%arg0: f32, %arg1: f32, %arg2: f32):
      %0 = arith.mulf %arg0, %arg1 : f32
      %1 = arith.addf %0, %arg2 : f32
      linalg.yield %1 : f32
    } -> tensor<2x3xf32>
    linalg.matmul ins(%lhs, %rhs : tensor<2x4xf32>, tensor<4x3xf32>) outs(%out : tensor<2x3xf32>) -> tensor<2x3xf32>
    %cst = arith.constant 1.0 : f32
    linalg.fill ins(%cst : f32) outs(%out: tensor<2x3xf32>) -> tensor<2x3xf32>
    linalg.reduce {arith.addf} ins(%v : tensor<8xf32>) outs(%s : tensor<f32>) dimensions = [0]
    return
  }
}

// -----

// elemental_bitwidth of init #0: 32 for f32, none for index (not an int or float).
// CHECK-LABEL: func.func @bitwidth
// CHECK: linalg.fill {bitwidth = 32 : i64}
// CHECK: linalg.fill ins(%index : index)
// CHECK: linalg.fill {bitwidth = 8 : i64}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_bitwidth(%arg0: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.param<i64>) {
    %bw = transform.match.structured failures(propagate) %arg0 : (!transform.any_op) -> !transform.param<i64> {
    ^bb0(%arg1: !transform.any_op):
      %0 = transform.match.structured.init %arg1 [0] : (!transform.any_op) -> !transform.any_value
      %1 = transform.match.structured.elemental_bitwidth %0 : (!transform.any_value) -> !transform.param<i64>
      transform.match.structured.yield %1 : !transform.param<i64>
    }
    transform.yield %arg0, %bw : !transform.any_op, !transform.param<i64>
  }
  transform.named_sequence @tag_bitwidth(%arg0: !transform.any_op {transform.readonly}, %arg1: !transform.param<i64> {transform.readonly}) {
    transform.annotate %arg0 "bitwidth" = %arg1 : !transform.any_op, !transform.param<i64>
    transform.yield
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %arg0 @match_bitwidth -> @tag_bitwidth : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @bitwidth(%f32: f32, %tf32: tensor<?xf32>, %index: index, %tindex: tensor<?xindex>, %i8: i8, %ti8: tensor<4xi8>) {
    linalg.fill ins(%f32: f32) outs(%tf32: tensor<?xf32>) -> tensor<?xf32>
    linalg.fill ins(%index: index) outs(%tindex: tensor<?xindex>) -> tensor<?xindex>
    linalg.fill ins(%i8: i8) outs(%ti8: tensor<4xi8>) -> tensor<4xi8>
    return
  }
}

// -----

// init captures: the value of init #0, all init values, and the op producing init #0
// (which fails on a block argument, so only the generic's init comes from an op).
// CHECK-LABEL: func.func @inits
// CHECK: linalg.fill {all_inits = 1 : i64, init0 = 1 : i64, matched, init_producer} ins(%f32 : f32)
// CHECK: linalg.generic
// CHECK-SAME: attrs = {all_inits = 2 : i64, init0 = 1 : i64, matched}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_init(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op) {
    %outs:3 = transform.match.structured failures(suppress) %arg0
      : (!transform.any_op) -> (!transform.any_value, !transform.any_value, !transform.any_op) {
    ^bb0(%arg1: !transform.any_op):
      %0 = transform.match.structured.init %arg1 [0] : (!transform.any_op) -> !transform.any_value
      %1 = transform.match.structured.init %arg1 [all] : (!transform.any_op) -> !transform.any_value
      %2 = transform.match.structured.init %arg1 [0] : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield %0, %1, %2 : !transform.any_value, !transform.any_value, !transform.any_op
    }
    transform.yield %arg0, %outs#0, %outs#1, %outs#2 : !transform.any_op, !transform.any_value, !transform.any_value, !transform.any_op
  }
  transform.named_sequence @tag_init(%arg0: !transform.any_op {transform.readonly},
                                     %arg1: !transform.any_value {transform.readonly},
                                     %arg2: !transform.any_value {transform.readonly},
                                     %arg3: !transform.any_op {transform.readonly}) {
    %n1 = transform.num_associations %arg2 : (!transform.any_value) -> !transform.param<i64>
    transform.annotate %arg0 "all_inits" = %n1 : !transform.any_op, !transform.param<i64>
    %n0 = transform.num_associations %arg1 : (!transform.any_value) -> !transform.param<i64>
    transform.annotate %arg0 "init0" = %n0 : !transform.any_op, !transform.param<i64>
    transform.annotate %arg0 "matched" : !transform.any_op
    transform.annotate %arg3 "init_producer" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %arg0 @match_init -> @tag_init : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @inits(%f32: f32, %tf32: tensor<?xf32>, %tf32_2: tensor<?xf32>) {
    %0 = linalg.fill ins(%f32: f32) outs(%tf32: tensor<?xf32>) -> tensor<?xf32>
    linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]
    } ins(%tf32: tensor<?xf32>) outs(%0, %tf32_2: tensor<?xf32>, tensor<?xf32>) {
    ^bb0(%arg0: f32, %arg1: f32, %arg2: f32):
      linalg.yield %arg0, %arg0 : f32, f32
    } -> (tensor<?xf32>, tensor<?xf32>)
    return
  }
}

// -----

// init maps: `permutation` and `projected_permutation` (`d0 + d1` is neither).
// CHECK-LABEL: func.func @init_maps
// CHECK: linalg.generic
// CHECK-SAME: attrs = {init_2_projected_permutation}
// CHECK: linalg.generic
// CHECK-SAME: attrs = {init_1_permutation, init_2_projected_permutation}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_init_0_permutation(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %0 = transform.match.structured failures(propagate) %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.init %arg1[0] permutation : !transform.any_op
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @match_init_1_permutation(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %0 = transform.match.structured failures(propagate) %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.init %arg1[1] permutation : !transform.any_op
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @match_init_2_projected_permutation(%arg0: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %0 = transform.match.structured failures(propagate) %arg0 : (!transform.any_op) -> !transform.any_op {
    ^bb0(%arg1: !transform.any_op):
      transform.match.structured.init %arg1[2] projected_permutation : !transform.any_op
      transform.match.structured.yield %arg1 : !transform.any_op
    }
    transform.yield %0 : !transform.any_op
  }
  transform.named_sequence @tag_init_0_permutation(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "init_0_permutation" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tag_init_1_permutation(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "init_1_permutation" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tag_init_2_projected_permutation(%arg0: !transform.any_op {transform.readonly}) {
    transform.annotate %arg0 "init_2_projected_permutation" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %arg0 @match_init_0_permutation -> @tag_init_0_permutation : (!transform.any_op) -> !transform.any_op
    %1 = transform.foreach_match in %0 @match_init_1_permutation -> @tag_init_1_permutation : (!transform.any_op) -> !transform.any_op
    %2 = transform.foreach_match in %1 @match_init_2_projected_permutation -> @tag_init_2_projected_permutation : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @init_maps(%oned: tensor<?xf32>, %oned2: tensor<?xf32>, %twod: tensor<?x?xf32>) {
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0)>,
                       affine_map<(d0, d1) -> (d0 + d1)>,
                       affine_map<(d0, d1) -> (d1)>,
                       affine_map<(d0, d1) -> (d1, d0)>],
      iterator_types = ["parallel", "parallel"]
    } ins(%oned: tensor<?xf32>) outs(%oned, %oned2, %twod: tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) {
    ^bb0(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: f32):
      linalg.yield %arg0, %arg0, %arg0 : f32, f32, f32
    } -> (tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>)
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0)>,
                       affine_map<(d0, d1) -> (d0 + d1)>,
                       affine_map<(d0, d1) -> (d1, d0)>,
                       affine_map<(d0, d1) -> (d1)>],
      iterator_types = ["parallel", "parallel"]
    } ins(%oned: tensor<?xf32>) outs(%oned, %twod, %oned2: tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>) {
    ^bb0(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: f32):
      linalg.yield %arg0, %arg0, %arg0 : f32, f32, f32
    } -> (tensor<?xf32>, tensor<?x?xf32>, tensor<?xf32>)
    return
  }
}

// -----

// num_inputs / num_inits / rank as i64 params.
// CHECK-LABEL: func.func @counts
// CHECK: linalg.fill {inputs = 1 : i64, inits = 1 : i64, rank = 2 : i64}
// CHECK: linalg.matmul {inputs = 2 : i64, inits = 1 : i64, rank = 3 : i64}
// CHECK: linalg.generic
// CHECK-SAME: attrs = {inputs = 1 : i64, inits = 3 : i64, rank = 2 : i64}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_num_io(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.any_op) {
    %0:4 = transform.match.structured failures(propagate) %arg0
         : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.any_op) {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.num_inputs %arg1 : (!transform.any_op) -> !transform.param<i64>
      %2 = transform.match.structured.num_inits %arg1 : (!transform.any_op) -> !transform.param<i64>
      %3 = transform.match.structured.rank %arg1 : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %1, %2, %3, %arg1 : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.any_op
    }
    transform.yield %0#0, %0#1, %0#2, %0#3 : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.any_op
  }
  transform.named_sequence @tag_num_io(
      %arg0: !transform.param<i64> {transform.readonly},
      %arg1: !transform.param<i64> {transform.readonly},
      %arg2: !transform.param<i64> {transform.readonly},
      %arg3: !transform.any_op {transform.readonly}) {
    transform.annotate %arg3 "inputs" = %arg0 : !transform.any_op, !transform.param<i64>
    transform.annotate %arg3 "inits" = %arg1 : !transform.any_op, !transform.param<i64>
    transform.annotate %arg3 "rank" = %arg2 : !transform.any_op, !transform.param<i64>
    transform.yield
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %arg0 @match_num_io -> @tag_num_io : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @counts(%f32: f32, %twod: tensor<42x42xf32>, %oned: tensor<?xf32>, %oned2: tensor<?xf32>, %twod2: tensor<?x?xf32>) {
    %0 = tensor.empty() : tensor<42x42xf32>
    %1 = linalg.fill ins(%f32 : f32) outs(%0 : tensor<42x42xf32>) -> tensor<42x42xf32>
    linalg.matmul ins(%twod, %twod : tensor<42x42xf32>, tensor<42x42xf32>)
                  outs(%1 : tensor<42x42xf32>) -> tensor<42x42xf32>
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0)>,
                       affine_map<(d0, d1) -> (d0 + d1)>,
                       affine_map<(d0, d1) -> (d1)>,
                       affine_map<(d0, d1) -> (d1, d0)>],
      iterator_types = ["parallel", "parallel"]
    } ins(%oned: tensor<?xf32>) outs(%oned, %oned2, %twod2: tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) {
    ^bb0(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: f32):
      linalg.yield %arg0, %arg0, %arg0 : f32, f32, f32
    } -> (tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>)
    return
  }
}

// -----

// result: `single` user, the result value, and `any` user (result #-1).
// CHECK-LABEL: func.func @results
// CHECK: %1 = linalg.fill {matched_result_value} ins(%f32 : f32)
// CHECK: %2 = linalg.fill {matched_single_result, matched_result_value, matched_any_result} ins(%f322 : f32)
// CHECK: %3 = linalg.fill {matched_result_value, matched_any_result} ins(%f323 : f32)
// CHECK: linalg.map { arith.negf } ins(%2 : tensor<42x42xf32>) outs(%0 : tensor<42x42xf32>) {single_user, matched_result_value, any_user}
// CHECK: linalg.map { math.exp } ins(%3 : tensor<42x42xf32>) outs(%0 : tensor<42x42xf32>) {matched_result_value}
// CHECK: linalg.map { math.exp } ins(%3 : tensor<42x42xf32>) outs(%0 : tensor<42x42xf32>) {matched_result_value, any_user}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_single_result(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %0:2 = transform.match.structured failures(propagate) %arg0
         : (!transform.any_op) -> (!transform.any_op, !transform.any_op) {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.result %arg1[0] single : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield %1, %arg1 : !transform.any_op, !transform.any_op
    }
    transform.yield %0#0, %0#1 : !transform.any_op, !transform.any_op
  }
  transform.named_sequence @match_result_value(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_value, !transform.any_op) {
    %0:2 = transform.match.structured failures(propagate) %arg0
         : (!transform.any_op) -> (!transform.any_value, !transform.any_op) {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.result %arg1[0] : (!transform.any_op) -> !transform.any_value
      transform.match.structured.yield %1, %arg1 : !transform.any_value, !transform.any_op
    }
    transform.yield %0#0, %0#1 : !transform.any_value, !transform.any_op
  }
  transform.named_sequence @match_any_result(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %0:2 = transform.match.structured failures(propagate) %arg0
         : (!transform.any_op) -> (!transform.any_op, !transform.any_op) {
    ^bb0(%arg1: !transform.any_op):
      %1 = transform.match.structured.result %arg1[-1] any : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield %1, %arg1 : !transform.any_op, !transform.any_op
    }
    transform.yield %0#0, %0#1 : !transform.any_op, !transform.any_op
  }
  transform.named_sequence @tag_single_result(%arg0: !transform.any_op {transform.readonly},
                                              %arg1: !transform.any_op {transform.readonly}) {
    transform.annotate %arg1 "matched_single_result" : !transform.any_op
    transform.annotate %arg0 "single_user" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tag_result_value(%arg0: !transform.any_value {transform.readonly},
                                             %arg1: !transform.any_op {transform.readonly}) {
    %def = transform.get_defining_op %arg0 : (!transform.any_value) -> !transform.any_op
    transform.annotate %def "matched_result_value" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @tag_any_result(%arg0: !transform.any_op {transform.readonly},
                                           %arg1: !transform.any_op {transform.readonly}) {
    transform.annotate %arg1 "matched_any_result" : !transform.any_op
    transform.annotate %arg0 "any_user" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %arg0 @match_single_result -> @tag_single_result : (!transform.any_op) -> !transform.any_op
    %1 = transform.foreach_match in %0 @match_result_value -> @tag_result_value : (!transform.any_op) -> !transform.any_op
    %2 = transform.foreach_match in %1 @match_any_result -> @tag_any_result : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @results(%f32: f32, %f322: f32, %f323: f32) {
    %0 = tensor.empty() : tensor<42x42xf32>
    %1 = linalg.fill ins(%f32 : f32) outs(%0 : tensor<42x42xf32>) -> tensor<42x42xf32>
    %2 = linalg.fill ins(%f322 : f32) outs(%0 : tensor<42x42xf32>) -> tensor<42x42xf32>
    %3 = linalg.fill ins(%f323 : f32) outs(%0 : tensor<42x42xf32>) -> tensor<42x42xf32>
    // Two users of %3: `any` picks the last one, as MLIR's use lists start with the newest use.
    %4 = linalg.map { arith.negf } ins(%2 : tensor<42x42xf32>) outs(%0 : tensor<42x42xf32>)
    %5 = linalg.map { math.exp } ins(%3 : tensor<42x42xf32>) outs(%0 : tensor<42x42xf32>)
    %6 = linalg.map { math.exp } ins(%3 : tensor<42x42xf32>) outs(%0 : tensor<42x42xf32>)
    return
  }
}

// -----

// classify_contraction_dims (upstream's inferContractionDims) on contraction bodies; the
// dims are split and attached one by one (role + index).
// CHECK-LABEL: func.func @matmul_simple
// CHECK: linalg.matmul {contraction, m0 = 0 : i64, n0 = 1 : i64, k0 = 2 : i64}
// CHECK-LABEL: func.func @vecmat_simple
// CHECK: linalg.vecmat {contraction, n0 = 0 : i64, k0 = 1 : i64}
// CHECK-LABEL: func.func @double_batch
// CHECK: linalg.generic
// CHECK-SAME: attrs = {contraction, batch0 = 0 : i64, batch1 = 2 : i64, m0 = 1 : i64, n0 = 3 : i64, k0 = 4 : i64}
// CHECK-LABEL: func.func @generic_min
// CHECK: linalg.generic
// CHECK-NOT: contraction
// CHECK-LABEL: func.func @more_contractions
// CHECK: linalg.batch_matmul {contraction, batch0 = 0 : i64, m0 = 1 : i64, n0 = 2 : i64, k0 = 3 : i64}
// CHECK: linalg.matmul indexing_maps = [{{.*}}] {contraction, m0 = 0 : i64, n0 = 1 : i64, k0 = 2 : i64}
// CHECK: linalg.matvec {contraction, m0 = 0 : i64, k0 = 1 : i64}
// CHECK: linalg.dot {contraction, k0 = 0 : i64}
// CHECK: linalg.conv_2d_nhwc_hwcf {contraction, m0 = 0 : i64, n0 = 3 : i64, k0 = 6 : i64}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_contraction(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    %1:4 = transform.match.structured %arg0 : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    ^bb0(%struct: !transform.any_op):
      transform.match.structured.body %struct contraction = ["arith.mulf", "arith.addf"] : !transform.any_op
      %0:4 = transform.match.structured.classify_contraction_dims %struct
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      transform.match.structured.yield %0#0, %0#1, %0#2, %0#3
        : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    }
    transform.yield %arg0, %1#0, %1#1, %1#2, %1#3 : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @tag_contraction(
      %op: !transform.any_op {transform.readonly},
      %batch: !transform.param<i64> {transform.readonly},
      %m: !transform.param<i64> {transform.readonly},
      %n: !transform.param<i64> {transform.readonly},
      %k: !transform.param<i64> {transform.readonly}) {
    transform.annotate %op "contraction" : !transform.any_op
    %batch0, %batch1 = transform.split_handle %batch fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "batch0" = %batch0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "batch1" = %batch1 : !transform.any_op, !transform.param<i64>
    }
    %m0, %m1 = transform.split_handle %m fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "m0" = %m0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "m1" = %m1 : !transform.any_op, !transform.param<i64>
    }
    %n0, %n1 = transform.split_handle %n fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "n0" = %n0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "n1" = %n1 : !transform.any_op, !transform.param<i64>
    }
    %k0, %k1 = transform.split_handle %k fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "k0" = %k0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "k1" = %k1 : !transform.any_op, !transform.param<i64>
    }
    transform.yield
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %arg0 @match_contraction -> @tag_contraction : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @matmul_simple(%lhs: tensor<10x20xf32>, %rhs: tensor<20x15xf32>) -> tensor<10x15xf64> {
    %cst = arith.constant 0.0 : f64
    %empty = tensor.empty() : tensor<10x15xf64>
    %fill = linalg.fill ins(%cst : f64) outs(%empty : tensor<10x15xf64>) -> tensor<10x15xf64>
    %result = linalg.matmul ins(%lhs, %rhs: tensor<10x20xf32>, tensor<20x15xf32>) outs(%fill: tensor<10x15xf64>) -> tensor<10x15xf64>
    return %result : tensor<10x15xf64>
  }
  func.func @vecmat_simple(%lhs: tensor<20xf32>, %rhs: tensor<20x15xf32>) -> tensor<15xf64> {
    %cst = arith.constant 0.0 : f64
    %empty = tensor.empty() : tensor<15xf64>
    %fill = linalg.fill ins(%cst : f64) outs(%empty : tensor<15xf64>) -> tensor<15xf64>
    %result = linalg.vecmat ins(%lhs, %rhs: tensor<20xf32>, tensor<20x15xf32>) outs(%fill: tensor<15xf64>) -> tensor<15xf64>
    return %result : tensor<15xf64>
  }
  func.func @double_batch(%lhs: tensor<40x10x50x20xf32>, %rhs: tensor<40x20x50x15xf32>) -> tensor<40x10x50x15xf32> {
    %cst = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<40x10x50x15xf32>
    %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<40x10x50x15xf32>) -> tensor<40x10x50x15xf32>
    %result = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                      affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>,
                      affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
    } ins(%lhs, %rhs : tensor<40x10x50x20xf32>, tensor<40x20x50x15xf32>)
      outs(%fill : tensor<40x10x50x15xf32>) {
    ^bb(%arg0: f32, %arg1: f32, %arg2: f32):
      %0 = arith.mulf %arg0, %arg1 : f32
      %1 = arith.addf %arg2, %0 : f32
      linalg.yield %1 : f32
    } -> tensor<40x10x50x15xf32>
    return %result : tensor<40x10x50x15xf32>
  }
  func.func @generic_min(%arg0: tensor<1x7x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<1x1x4xf32>) {
    linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1 * 2 + d3 * 2, d2)>,
      affine_map<(d0, d1, d2, d3) -> (d3)>,
      affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%arg0, %arg1 : tensor<1x7x4xf32>, tensor<4xf32>)
      outs(%arg2 : tensor<1x1x4xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %5 = arith.minimumf %out, %in : f32
      linalg.yield %5 : f32
    } -> tensor<1x1x4xf32>
    return
  }
  func.func @more_contractions(%ba: tensor<2x4x8xf32>, %bb: tensor<2x8x5xf32>, %bc: tensor<2x4x5xf32>,
      %a: tensor<4x8xf32>, %bt: tensor<5x8xf32>, %c: tensor<4x5xf32>, %v: tensor<8xf32>, %y: tensor<4xf32>,
      %s: tensor<f32>, %i: tensor<1x10x10x8xf32>, %k: tensor<3x3x8x16xf32>, %o: tensor<1x8x8x16xf32>) {
    linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x5xf32>) outs(%bc : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
    linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
        ins(%a, %bt : tensor<4x8xf32>, tensor<5x8xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
    linalg.matvec ins(%a, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
    linalg.dot ins(%v, %v : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<f32>) -> tensor<f32>
    // A convolution body is a contraction too; only loops indexed on their own count
    // (the batch is an m dimension, the output channel an n, the input channel a k).
    linalg.conv_2d_nhwc_hwcf ins(%i, %k : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    return
  }
}

// -----

// classify_convolution_dims (upstream's inferConvolutionDims); strides and dilations come
// from the op's attributes, otherwise from the coefficients of the input map.
// CHECK-LABEL: func.func @convolution_simple
// CHECK: linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, convolution, batch0 = 0 : i64, oi0 = 1 : i64, oi1 = 2 : i64, oc0 = 3 : i64, fl0 = 4 : i64, fl1 = 5 : i64, ic0 = 6 : i64, strides0 = 2 : i64, strides1 = 2 : i64, dilations0 = 1 : i64, dilations1 = 1 : i64}
// CHECK-LABEL: func.func @convolution_depthwise
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, convolution, batch0 = 0 : i64, oi0 = 1 : i64, oi1 = 2 : i64, fl0 = 4 : i64, fl1 = 5 : i64, depth0 = 3 : i64, strides0 = 1 : i64, strides1 = 1 : i64, dilations0 = 1 : i64, dilations1 = 1 : i64}
// CHECK-LABEL: func.func @convolution_nchw_dilated
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>, convolution, batch0 = 0 : i64, oi0 = 2 : i64, oi1 = 3 : i64, oc0 = 1 : i64, fl0 = 5 : i64, fl1 = 6 : i64, ic0 = 4 : i64, strides0 = 1 : i64, strides1 = 1 : i64, dilations0 = 2 : i64, dilations1 = 1 : i64}
// CHECK-LABEL: func.func @convolution_multi_channel
// CHECK: linalg.generic
// CHECK-SAME: attrs = {convolution, oi0 = 1 : i64, oi1 = 2 : i64, oc0 = 0 : i64, oc1 = 3 : i64, fl0 = 5 : i64, fl1 = 6 : i64, ic0 = 4 : i64, ic1 = 7 : i64, strides0 = 1 : i64, strides1 = 2 : i64, dilations0 = 1 : i64, dilations1 = 1 : i64}
// CHECK-LABEL: func.func @not_a_convolution
// CHECK: linalg.matmul ins
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_convolution(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    %1:8 = transform.match.structured %arg0 : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    ^bb0(%struct: !transform.any_op):
      transform.match.structured.body %struct contraction = ["arith.mulf", "arith.addf"] : !transform.any_op
      %0:8 = transform.match.structured.classify_convolution_dims %struct
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      transform.match.structured.yield %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7
        : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    }
    transform.yield %arg0, %1#0, %1#1, %1#2, %1#3, %1#4, %1#5, %1#6, %1#7 : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @tag_convolution(
      %op: !transform.any_op {transform.readonly},
      %batch: !transform.param<i64> {transform.readonly},
      %oi: !transform.param<i64> {transform.readonly},
      %oc: !transform.param<i64> {transform.readonly},
      %fl: !transform.param<i64> {transform.readonly},
      %ic: !transform.param<i64> {transform.readonly},
      %depth: !transform.param<i64> {transform.readonly},
      %strides: !transform.param<i64> {transform.readonly},
      %dilations: !transform.param<i64> {transform.readonly}) {
    transform.annotate %op "convolution" : !transform.any_op
    %batch0, %batch1 = transform.split_handle %batch fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "batch0" = %batch0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "batch1" = %batch1 : !transform.any_op, !transform.param<i64>
    }
    %oi0, %oi1 = transform.split_handle %oi fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "oi0" = %oi0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "oi1" = %oi1 : !transform.any_op, !transform.param<i64>
    }
    %oc0, %oc1 = transform.split_handle %oc fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "oc0" = %oc0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "oc1" = %oc1 : !transform.any_op, !transform.param<i64>
    }
    %fl0, %fl1 = transform.split_handle %fl fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "fl0" = %fl0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "fl1" = %fl1 : !transform.any_op, !transform.param<i64>
    }
    %ic0, %ic1 = transform.split_handle %ic fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "ic0" = %ic0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "ic1" = %ic1 : !transform.any_op, !transform.param<i64>
    }
    %depth0, %depth1 = transform.split_handle %depth fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "depth0" = %depth0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "depth1" = %depth1 : !transform.any_op, !transform.param<i64>
    }
    %strides0, %strides1 = transform.split_handle %strides fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "strides0" = %strides0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "strides1" = %strides1 : !transform.any_op, !transform.param<i64>
    }
    %dilations0, %dilations1 = transform.split_handle %dilations fail_on_payload_too_small = false : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "dilations0" = %dilations0 : !transform.any_op, !transform.param<i64>
    }
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%x: !transform.any_op):
      transform.annotate %x "dilations1" = %dilations1 : !transform.any_op, !transform.param<i64>
    }
    transform.yield
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %arg0 @match_convolution -> @tag_convolution : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @convolution_simple(%input: tensor<1x10x10x8xf32>, %filter: tensor<3x3x8x16xf32>, %out: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
    %result = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>}
       ins(%input, %filter: tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%out: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    return %result : tensor<1x4x4x16xf32>
  }
  func.func @convolution_depthwise(%input: tensor<1x10x196x48xf32>, %filter: tensor<1x4x48xf32>) -> tensor<1x10x193x48xf32> {
    %cst = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<1x10x193x48xf32>
    %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<1x10x193x48xf32>) -> tensor<1x10x193x48xf32>
    %result = linalg.depthwise_conv_2d_nhwc_hwc {
      dilations = dense<1> : tensor<2xi64>,
      strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x10x196x48xf32>, tensor<1x4x48xf32>)
      outs(%fill : tensor<1x10x193x48xf32>) -> tensor<1x10x193x48xf32>
    return %result : tensor<1x10x193x48xf32>
  }
  func.func @convolution_nchw_dilated(%input: tensor<1x8x12x10xf32>, %filter: tensor<16x8x3x3xf32>, %out: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
    %result = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : tensor<2xi64>}
       ins(%input, %filter: tensor<1x8x12x10xf32>, tensor<16x8x3x3xf32>) outs(%out: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
    return %result : tensor<1x16x8x8xf32>
  }
  func.func @convolution_multi_channel(%input: tensor<2x34x68x16xf32>, %filter: tensor<8x2x3x5x16x16xf32>) -> tensor<8x32x32x16xf32> {
    %cst = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<8x32x32x16xf32>
    %fill = linalg.fill ins(%cst : f32) outs(%empty : tensor<8x32x32x16xf32>) -> tensor<8x32x32x16xf32>
    %result = linalg.generic {
        indexing_maps = [
            affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d1 + d5, 2 * d2 + d6, d7)>,
            affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d4, d5, d6, d7, d3)>,
            affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
        ins(%input, %filter : tensor<2x34x68x16xf32>, tensor<8x2x3x5x16x16xf32>) outs(%fill : tensor<8x32x32x16xf32>) {
          ^bb0(%in: f32, %in_0: f32, %out: f32):
            %mul = arith.mulf %in, %in_0 : f32
            %add = arith.addf %mul, %out : f32
            linalg.yield %add : f32
          } -> tensor<8x32x32x16xf32>
    return %result : tensor<8x32x32x16xf32>
  }
  // A matmul has no convolved (output image) dimension.
  func.func @not_a_convolution(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
    return %0 : tensor<4x5xf32>
  }
}

// -----

// failures(suppress) after a failing predicate: the results defined before it (the block
// argument, an earlier capture, a value from above) keep their payload, the later ones are
// empty. Without a failure every result is forwarded.
// CHECK-LABEL: func.func @partial
// CHECK: linalg.matmul {ops = 1 : i64, d0 = 4 : i64, d1s = 0 : i64, outer = 7 : i64}
// CHECK: linalg.generic
// CHECK-SAME: attrs = {ops = 1 : i64, d0 = 4 : i64, d1s = 1 : i64, outer = 7 : i64}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_partial(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    %outer = transform.param.constant 7 : i64 -> !transform.param<i64>
    %0:4 = transform.match.structured failures(suppress) %arg0
        : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    ^bb0(%s: !transform.any_op):
      %d0 = transform.match.structured.dim %s[0] : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.body %s elementwise : !transform.any_op
      %d1 = transform.match.structured.dim %s[1] : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %s, %d0, %d1, %outer
          : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    }
    transform.yield %arg0, %0#0, %0#1, %0#2, %0#3
        : !transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @tag_partial(%op: !transform.any_op {transform.readonly},
                                        %s: !transform.any_op {transform.readonly},
                                        %d0: !transform.param<i64> {transform.readonly},
                                        %d1: !transform.param<i64> {transform.readonly},
                                        %outer: !transform.param<i64> {transform.readonly}) {
    %ns = transform.num_associations %s : (!transform.any_op) -> !transform.param<i64>
    transform.annotate %op "ops" = %ns : !transform.any_op, !transform.param<i64>
    transform.annotate %op "d0" = %d0 : !transform.any_op, !transform.param<i64>
    %n1 = transform.num_associations %d1 : (!transform.param<i64>) -> !transform.param<i64>
    transform.annotate %op "d1s" = %n1 : !transform.any_op, !transform.param<i64>
    transform.annotate %op "outer" = %outer : !transform.any_op, !transform.param<i64>
    transform.yield
  }
  // Only structured ops reach the action: the others give an empty %0#1.
  transform.named_sequence @match_structured_partial(%arg0: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    transform.match.structured %arg0 : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.yield
    }
    %r:5 = transform.include @match_partial failures(propagate) (%arg0)
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield %r#0, %r#1, %r#2, %r#3, %r#4
        : !transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.consumed}) {
    transform.foreach_match in %arg0 @match_structured_partial -> @tag_partial : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @partial(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%r : tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.negf %x : f32
      linalg.yield %y : f32
    } -> tensor<4x16xf32>
    return %n : tensor<4x16xf32>
  }
}
