"""Dead code elimination: upstream's `transform.apply_dce` algorithm, and the region
simplification the greedy driver runs between iterations (`simplify_regions`).

Trivially dead ops (no used results, no effects beyond reads and allocating their own
results; see `canonicalize_effects`) nested in the target are erased, then the producers
of their operands are reconsidered until nothing more dies. Terminators and symbols are
kept; the target itself is never erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, Region
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


# --- region simplification (upstream RegionUtils.cpp) ---------------------------------------


def walk_region(region: Region, *, pre_order: bool) -> list[Operation]:
    """The ops nested in `region`, in pre-order or post-order."""
    ops: list[Operation] = []
    for block in region.blocks:
        for op in block.ops:
            ops.extend(op.walk(region_first=not pre_order))
    return ops


def simplify_regions(rewriter: CanonRewriter, region: Region) -> bool:
    """Upstream's `simplifyRegions`: erase unreachable blocks of multi-block regions, then
    dead ops (`runRegionDCE`: ops whose results are unused and that have no effect,
    including those only an in-place rewrite left unused)."""
    changed = False
    for op in list(walk_region(region, pre_order=True)):
        for nested in op.regions:
            changed |= _erase_unreachable_blocks(rewriter, nested)
    changed |= _erase_unreachable_blocks(rewriter, region)
    return _region_dce(rewriter, region) or changed


def _region_dce(rewriter: CanonRewriter, region: Region) -> bool:
    """Erase trivially dead ops, users before producers (a reversed post-order walk
    visits an op before the ops it uses and before its own nested ops)."""
    erased: set[Operation] = set()
    for op in reversed(walk_region(region, pre_order=False)):
        ancestor: Operation | None = op
        while ancestor is not None and ancestor not in erased:
            ancestor = ancestor.parent_op()
        if ancestor is not None or op.parent is None:
            continue
        if is_trivially_dead(op):
            erased.add(op)
            rewriter.erase(op, safe_erase=False)
    return bool(erased)


def _erase_unreachable_blocks(rewriter: CanonRewriter, region: Region) -> bool:
    blocks = list(region.blocks)
    if len(blocks) < 2:
        return False
    reachable: set[Block] = set()
    stack = [blocks[0]]
    while stack:
        block = stack.pop()
        if block in reachable:
            continue
        reachable.add(block)
        last = block.last_op
        if last is not None:
            stack.extend(last.successors)
    dead = [b for b in blocks if b not in reachable]
    if not dead:
        return False
    for block in dead:
        for op in reversed(list(block.ops)):
            rewriter.handle_operation_removal(op)
            op.detach()
            op.erase(safe_erase=False)
        region.detach_block(block)
        block.erase(safe_erase=False)
    return True


__all__ = ["DceResult", "dead_code_elimination", "simplify_regions", "walk_region"]
