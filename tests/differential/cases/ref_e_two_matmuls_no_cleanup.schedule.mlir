// Schedule (e), kept in its own file: matcher/action pairs dispatched by
// transform.foreach_match, tile sizes passed as !transform.param values
// (the natural hook for an autotuner: only the param.constant lines change).
// Run: iree-opt --transform-preload-library=transform-library-paths=e_schedule.mlir \
//        --transform-interpreter e_payload.mlir
module attributes {transform.with_named_sequence} {
  // Matcher: a contraction (mul+add body) whose dim 0 is >= 128.
  // Must not consume its operand; a silenceable failure means "no match".
  transform.named_sequence @match_large_matmul(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %m = transform.match.structured failures(propagate) %op
        : (!transform.any_op) -> !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.body %s contraction = ["arith.mulf", "arith.addf"]
        : !transform.any_op
      %d0 = transform.match.structured.dim %s[0] : (!transform.any_op) -> !transform.param<i64>
      %min = transform.param.constant 128 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %d0, %min : !transform.param<i64>
      transform.match.structured.yield %s : !transform.any_op
    }
    transform.yield %m : !transform.any_op
  }

  // Action: two-level tiling with parameterized tile sizes.
  transform.named_sequence @tile_large_matmul(
      %mm: !transform.any_op {transform.consumed}) {
    %tm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %tn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %tk = transform.param.constant 32 : i64 -> !transform.param<i64>
    %t, %forall = transform.structured.tile_using_forall %mm tile_sizes [%tm, %tn]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %t2, %k = transform.structured.tile_using_for %t tile_sizes [0, 0, %tk]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.annotate %forall "schedir.tuned" : !transform.any_op
    transform.yield
  }

  // Fallback matcher/action for any other linalg op: tag it only.
  transform.named_sequence @match_linalg(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured failures(propagate) %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @tag_untouched(%op: !transform.any_op {transform.readonly}) {
    transform.annotate %op "schedir.untouched" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // First matcher that succeeds wins for each payload op (post-order walk).
    %updated = transform.foreach_match in %root
        @match_large_matmul -> @tile_large_matmul,
        @match_linalg -> @tag_untouched
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
