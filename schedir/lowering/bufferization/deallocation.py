"""Free the buffers bufferization allocated: one `memref.dealloc` after the last use.

Bufferized IR here has structured control flow and no buffers carried by loops, so an
owned buffer (a `memref.alloc`, an `scf.if` result both branches allocated, a call result)
lives in the block that defines it: its last use is the last op of that block that uses
it or any view of it (`memref.subview`, `cast`, `collapse_shape`, `expand_shape`, or an
`scf.if` that merges it with other buffers), a loop or branch using it counting as one
op. The dealloc goes right after that op, so it runs exactly once each time the
allocation does, after every use. A buffer that leaves its block (returned, yielded to an
owning `scf.if`, or handed to an unknown op through `bufferization.to_tensor`) is not
freed here: its new owner frees it, or (unknown ops, function results) the caller does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from xdsl.dialects import bufferization, memref, scf
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

_VIEWS = (
    memref.SubviewOp,
    memref.CastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.ReinterpretCastOp,
)


def _positions(block: Block, cache: dict[Block, dict[Operation, int]]) -> dict[Operation, int]:
    found = cache.get(block)
    if found is None:
        found = {op: i for i, op in enumerate(block.ops)}
        cache[block] = found
    return found


def last_use(
    buffer: SSAValue,
    owned: Iterable[SSAValue] | set[SSAValue],
    cache: dict[Block, dict[Operation, int]],
) -> tuple[Operation | None, bool]:
    """(the last op of `buffer`'s block using it or a view of it, whether it escapes)."""
    owner = buffer.owner
    assert isinstance(owner, Operation)
    block = owner.parent_block()
    assert block is not None
    positions = _positions(block, cache)
    last: Operation | None = None
    last_position = -1
    escapes = False
    work = [buffer]
    seen: set[SSAValue] = set()
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        for use in value.uses:
            user = use.operation
            if isinstance(user, _VIEWS):
                work.append(user.results[0])
            elif isinstance(user, scf.YieldOp) and isinstance(parent := user.parent_op(), scf.IfOp):
                merged = parent.results[use.index]
                if merged in owned:
                    escapes = True  # handed over to the scf.if result, which is freed instead
                else:
                    work.append(merged)
            elif user.has_trait(IsTerminator) or isinstance(user, bufferization.ToTensorOp):
                escapes = True
            anchor = block.find_ancestor_op_in_block(user)
            if anchor is None:
                escapes = True
                continue
            position = positions[anchor]
            if position > last_position:
                last, last_position = anchor, position
    return last, escapes


def insert_deallocs(owned: Iterable[SSAValue]) -> int:
    """Insert one `memref.dealloc` for each owned buffer that does not escape; returns how
    many were inserted. Deallocs after the same op come in allocation order."""
    ordered = list(owned)
    owned_set = set(ordered)
    cache: dict[Block, dict[Operation, int]] = {}
    placements: list[tuple[SSAValue, Operation]] = []
    dead: list[Operation] = []
    for buffer in ordered:
        owner = buffer.owner
        if not isinstance(owner, Operation) or owner.parent_block() is None:
            continue
        last, escapes = last_use(buffer, owned_set, cache)
        if escapes:
            continue
        if last is None and isinstance(owner, memref.AllocOp) and not buffer.uses:
            dead.append(owner)  # never used: no allocation at all
            continue
        anchor = last or owner
        if anchor.has_trait(IsTerminator):
            continue  # used by its block's terminator: it leaves the block
        placements.append((buffer, anchor))
    # Positions stay valid while inserting: deallocs only go after existing ops.
    for buffer, anchor in reversed(placements):
        dealloc = memref.DeallocOp.get(buffer)
        dealloc.location = cast(Operation, buffer.owner).location  # checked when placed
        Rewriter.insert_op(dealloc, InsertPoint.after(anchor))
    for op in dead:
        Rewriter.erase_op(op)
    return len(placements)


__all__ = ["insert_deallocs", "last_use"]
