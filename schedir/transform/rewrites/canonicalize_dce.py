"""Dead code elimination: upstream's `transform.apply_dce` algorithm.

Trivially dead ops (no used results, no effects beyond reads and allocating their own
results; see `canonicalize_effects`) nested in the target are erased, then the producers
of their operands are reconsidered until nothing more dies. Terminators and symbols are
kept; the target itself is never erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.transform.rewrites.canonicalize_effects import is_trivially_dead
from schedir.transform.rewrites.canonicalize_utils import CanonRewriter


@dataclass(frozen=True)
class DceResult:
    """How many ops DCE erased."""

    num_erased: int


def _is_proper_ancestor(ancestor: Operation, op: Operation) -> bool:
    node = op.parent_op()
    while node is not None:
        if node is ancestor:
            return True
        node = node.parent_op()
    return False


def dead_code_elimination(
    target: Operation, listener: PatternRewriterListener | None = None
) -> DceResult:
    """Erase the trivially dead ops nested in `target` (upstream's ApplyDeadCodeEliminationOp)."""
    rewriter = CanonRewriter(InsertPoint.at_end(Block()), listener)
    worklist: dict[Operation, None] = {}
    erased = 0

    def add_defining_ops(op: Operation) -> None:
        for nested in op.walk():
            for value in nested.operands:
                owner = value.owner
                if isinstance(owner, Operation) and _is_proper_ancestor(target, owner):
                    worklist[owner] = None

    def erase(op: Operation) -> None:
        nonlocal erased
        for nested in op.walk():
            worklist.pop(nested, None)
        rewriter.erase(op, safe_erase=False)
        erased += 1

    for op in list(target.walk(region_first=True)):
        if op is target or op.parent is None or not _is_proper_ancestor(target, op):
            continue
        if is_trivially_dead(op):
            add_defining_ops(op)
            erase(op)
    while worklist:
        op = next(reversed(worklist))
        del worklist[op]
        if not is_trivially_dead(op):
            continue
        add_defining_ops(op)
        erase(op)
    return DceResult(erased)


__all__ = ["DceResult", "dead_code_elimination"]
