"""Dead code elimination: upstream's `transform.apply_dce` algorithm, and the region
simplification the greedy driver runs between iterations (`simplify_regions`).

Trivially dead ops (no used results, no effects beyond reads and allocating their own
results; see `effects`) nested in the target are erased, then the producers
of their operands are reconsidered until nothing more dies. Terminators and symbols are
kept; the target itself is never erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.transform.rewrites.effects import is_trivially_dead
from schedir.transform.rewrites.rewriter import CanonRewriter


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
    _walk_into(region, ops, pre_order)
    return ops


def _walk_into(region: Region, ops: list[Operation], pre_order: bool) -> None:
    # Plain recursion over blocks: xDSL's generator-based `walk` costs a generator frame
    # per op and nesting level, and the driver walks the whole region every iteration.
    for block in region.blocks:
        for op in block.ops:
            if pre_order:
                ops.append(op)
            for nested in op.regions:
                _walk_into(nested, ops, pre_order)
            if not pre_order:
                ops.append(op)


def simplify_regions(rewriter: CanonRewriter, region: Region) -> bool:
    """Upstream's `simplifyRegions`: erase unreachable blocks of multi-block regions, then
    dead ops (`runRegionDCE`: ops whose results are unused and that have no effect,
    including those only an in-place rewrite left unused)."""
    changed = _erase_unreachable_nested(rewriter, region)
    changed |= _erase_unreachable_blocks(rewriter, region)
    return _region_dce(rewriter, region) or changed


def _erase_unreachable_nested(rewriter: CanonRewriter, region: Region) -> bool:
    """Unreachable blocks of the regions nested in `region`, outer regions first."""
    changed = False
    for block in list(region.blocks):
        for op in list(block.ops):
            for nested in op.regions:
                changed |= _erase_unreachable_blocks(rewriter, nested)
            for nested in op.regions:
                changed |= _erase_unreachable_nested(rewriter, nested)
    return changed


def _region_dce(rewriter: CanonRewriter, region: Region) -> bool:
    """Erase trivially dead ops, users before producers: the blocks and their ops are
    visited backwards, an op before its own nested ops (which an erased op takes along)."""
    erased = False
    for block in reversed(list(region.blocks)):
        for op in reversed(list(block.ops)):
            if is_trivially_dead(op):
                erased = True
                rewriter.erase(op, safe_erase=False)
                continue
            for nested in reversed(op.regions):
                erased |= _region_dce(rewriter, nested)
    return erased


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
