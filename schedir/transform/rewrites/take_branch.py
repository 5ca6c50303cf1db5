"""Replace an `scf.if` by one of its branches (upstream's `replaceOpWithRegion`, as
`transform.scf.take_assumed_branch` uses it): the branch's ops move before the `if`, the
values its `scf.yield` yields replace the `if`'s results, and the `if` is erased.

The moved ops are the same objects, so handles to them stay valid.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint


def take_branch(rewriter: PatternRewriter, if_op: scf.IfOp, *, else_branch: bool) -> bool:
    """Inline the then (or else) branch of `if_op` in its place; False (nothing changed)
    if that region is not exactly one block."""
    region = if_op.false_region if else_branch else if_op.true_region
    if len(region.blocks) != 1:
        return False
    block = region.block
    terminator = block.last_op
    yielded = list(terminator.operands) if isinstance(terminator, scf.YieldOp) else []
    if isinstance(terminator, scf.YieldOp):
        rewriter.erase(terminator)
    for op in list(block.ops):
        op.detach()
        rewriter.insert(op, InsertPoint.before(if_op))
    rewriter.replace(if_op, [], yielded)
    return True


__all__ = ["take_branch"]
