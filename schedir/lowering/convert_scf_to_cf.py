"""`convert-scf-to-cf`: structured control flow becomes branches (upstream's full set).

xDSL's pass of this name lowers `scf.for`, `scf.if` and `scf.index_switch`; upstream's also
lowers `scf.while`, `scf.execute_region` and `scf.parallel`. This pass is xDSL's patterns
plus those three (as upstream's SCFToControlFlow.cpp does them), so any structured loop the
bufferized CPU pipeline leaves reaches the LLVM conversion as `cf` branches. `scf.forall`
must have become `scf.for` first (`scf-forall-to-for`).

    %r = scf.while (%a = %init) : (i32) -> i32 {
      %c = "cond"(%a) : (i32) -> i1
      scf.condition(%c) %a : i32
    } do {
    ^bb0(%b: i32):
      %n = "next"(%b) : (i32) -> i32
      scf.yield %n : i32
    }
    // ->
      cf.br ^before(%init : i32)
    ^before(%a: i32):
      %c = "cond"(%a) : (i32) -> i1
      cf.cond_br %c, ^after(%a : i32), ^continue
    ^after(%b: i32):
      %n = "next"(%b) : (i32) -> i32
      cf.br ^before(%n : i32)
    ^continue:
      // uses of %r use %a
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin, scf
from xdsl.dialects.cf import BranchOp, ConditionalBranchOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from schedir.diagnostics import LoweringError
from schedir.dialects.scf import ForallOp
from schedir.dialects.syntax import op_location
from schedir.lowering.scf_forall_to_for import lower_parallel


class WhileLowering(RewritePattern):
    """`scf.while` -> a "before" block ending in `cf.cond_br` and an "after" block looping
    back to it (upstream's WhileLowering)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /) -> None:
        current = op.parent_block()
        if current is None:
            return
        continuation = current.split_before(op)
        before = op.before_region.block
        after = op.after_region.block
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        yield_op = after.last_op
        assert isinstance(yield_op, scf.YieldOp)
        results = list(condition.args)
        rewriter.replace(
            condition,
            ConditionalBranchOp(condition.condition, after, condition.args, continuation, ()),
        )
        rewriter.replace(yield_op, BranchOp(before, *yield_op.operands))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(after))
        rewriter.insert(BranchOp(before, *op.arguments), InsertPoint.at_end(current))
        rewriter.replace(op, [], results)


class ExecuteRegionLowering(RewritePattern):
    """`scf.execute_region` -> its blocks inlined, `scf.yield` -> branches to the
    continuation, whose arguments replace the results."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter, /) -> None:
        current = op.parent_block()
        if current is None:
            return
        continuation = current.split_before(op)
        for index, result_type in enumerate(op.result_types):
            rewriter.insert_block_argument(continuation, index, result_type)
        entry = op.region.first_block
        assert entry is not None
        for block in list(op.region.blocks):
            terminator = block.last_op
            if isinstance(terminator, scf.YieldOp):
                rewriter.replace(terminator, BranchOp(continuation, *terminator.operands))
        rewriter.inline_region(op.region, BlockInsertPoint.before(continuation))
        rewriter.insert(BranchOp(entry), InsertPoint.at_end(current))
        rewriter.replace(op, [], continuation.args)


@dataclass(frozen=True)
class ConvertScfToCf(ModulePass):
    """Lower scf for/if/index_switch/while/execute_region/parallel to `cf` branches."""

    name = "convert-scf-to-cf"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for nested in list(op.walk()):
            if isinstance(nested, ForallOp):
                raise LoweringError(
                    "'scf.forall' must be lowered to scf.for (scf-forall-to-for) before "
                    "convert-scf-to-cf",
                    op_location(nested),
                )
        # scf.parallel first (outer loops first), into scf.for the patterns below lower.
        for nested in [o for o in op.walk() if isinstance(o, scf.ParallelOp)]:
            lower_parallel(nested)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    SwitchLowering(),
                    IfLowering(),
                    ForLowering(),
                    WhileLowering(),
                    ExecuteRegionLowering(),
                ]
            )
        ).rewrite_module(op)


__all__ = ["ConvertScfToCf"]
