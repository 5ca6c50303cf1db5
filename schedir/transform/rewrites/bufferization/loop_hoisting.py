"""Buffer loop hoisting: allocations move out of the sequential loops they do not depend on.

Upstream's `hoistBuffersFromLoops` (mlir/lib/Dialect/Bufferization/Transforms/
BufferOptimizations.cpp, `BufferAllocationLoopHoistingState`) on structured control flow:
a `memref.alloc` / `memref.alloca` climbs out of each enclosing *sequential* loop
(`scf.for`, `scf.while`, `affine.for`; never a parallel `scf.forall` / `scf.parallel`, nor
through an `scf.if`) as long as

* its dynamic sizes are defined outside that loop (they bound the climb), and
* no alias of the buffer (views of it, loop results it is yielded into) is used outside
  the loop: a buffer passed around the back edge must stay fresh per iteration.

It is placed right before the outermost loop it leaves:

    scf.for %i = %lb to %ub step %s {            %a = memref.alloca() : memref<5xf32>
      %a = memref.alloca() : memref<5xf32>   ->  scf.for %i = %lb to %ub step %s {
      memref.store %f, %a[%p] : memref<5xf32>      memref.store %f, %a[%p] : memref<5xf32>
    }                                            }

Upstream hoists before deallocations exist; schedir's bufferization already freed each
buffer after its last use, so a `memref.dealloc` of a hoisted buffer inside the loop moves
right after the loop (the buffer is freed once, after its last iteration). A buffer freed
under a condition inside the loop is not hoisted.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, memref, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.transform.rewrites.bufferization.empty_tensor_elimination import ancestor_in_block

_SEQUENTIAL_LOOPS = (scf.ForOp, scf.WhileOp, affine.ForOp)
_VIEWS = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
    memref.ViewOp,
    memref.MemorySpaceCastOp,
    # (and memref.transpose, which schedir does not define)
)


@dataclass(frozen=True)
class HoistingResult:
    """The allocations that moved (in the order they were visited)."""

    hoisted: tuple[Operation, ...]


def _block_dominates(a: Block, b: Block) -> bool:
    """Block dominance in regions of one block: `b` is `a` or nested in an op of `a`."""
    current: Block | None = b
    while current is not None:
        if current is a:
            return True
        parent = current.parent_op()
        current = parent.parent_block() if parent is not None else None
    return False


def _value_block(value: SSAValue) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.block
    assert isinstance(value, OpResult)
    return value.op.parent_block()


def _aliases(buffer: SSAValue) -> list[SSAValue]:
    """The buffer and every value that may be it or a view of it (upstream's
    `BufferViewFlowAnalysis::resolve`): views, and loop/branch values it flows into."""
    found: list[SSAValue] = []
    seen: set[int] = set()
    work = [buffer]
    while work:
        value = work.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        found.append(value)
        for use in value.uses:
            user = use.operation
            if isinstance(user, _VIEWS) and use.index == 0:
                work.extend(user.results)
            elif isinstance(user, scf.YieldOp):
                parent = user.parent_op()
                if parent is None:
                    continue
                if use.index < len(parent.results):
                    work.append(parent.results[use.index])
                if isinstance(parent, scf.ForOp):
                    work.append(parent.regions[0].block.args[1 + use.index])
            elif isinstance(user, scf.ForOp) and use.index >= 3:
                work.append(user.results[use.index - 3])
                work.append(user.regions[0].block.args[use.index - 2])
    return found


def _common_dominator(blocks: list[Block]) -> Block | None:
    """The innermost block dominating all of `blocks` (upstream's
    `findNearestCommonDominator`)."""
    if not blocks:
        return None
    chains: list[list[Block]] = []
    for block in blocks:
        chain: list[Block] = []
        current: Block | None = block
        while current is not None:
            chain.append(current)
            parent = current.parent_op()
            current = parent.parent_block() if parent is not None else None
        chains.append(list(reversed(chain)))
    common: Block | None = None
    for level in zip(*chains, strict=False):
        if all(b is level[0] for b in level):
            common = level[0]
        else:
            break
    return common


def _placement_block(alloc: Operation) -> Block | None:
    """Where `alloc` may go: the block holding the outermost loop it can leave."""
    buffer = alloc.results[0]
    start = alloc.parent_block()
    assert start is not None
    aliases = _aliases(buffer)
    blocks = [start]
    for alias in aliases:
        blocks.extend(b for use in alias.uses if (b := use.operation.parent_block()) is not None)
        if (b := _value_block(alias)) is not None:
            blocks.append(b)
    alias_dominator = _common_dominator(blocks)
    dependency: Block | None = None
    for operand in alloc.operands:
        block = _value_block(operand)
        if block is not None and (dependency is None or _block_dominates(dependency, block)):
            dependency = block
    placement = start
    current = start
    while True:
        parent = current.parent_op()
        if parent is None:
            break
        parent_block = parent.parent_block()
        if parent_block is None:
            break
        if dependency is not None and (
            dependency is current or not _block_dominates(dependency, current)
        ):
            break
        legal = isinstance(parent, _SEQUENTIAL_LOOPS) and not (
            alias_dominator is not None and _block_dominates(alias_dominator, parent_block)
        )
        if not legal:
            break
        current = parent_block
        placement = current
    return placement if placement is not start else None


def _deallocs_to_move(alloc: Operation, anchor: Operation) -> list[Operation] | None:
    """The deallocs of `alloc` inside `anchor` that must follow it out; None if one is
    conditional (the buffer cannot be hoisted)."""
    block = alloc.parent_block()
    found: list[Operation] = []
    for use in alloc.results[0].uses:
        user = use.operation
        if not isinstance(user, memref.DeallocOp) or not anchor.is_ancestor(user):
            continue
        if user.parent_block() is not block:
            return None
        found.append(user)
    return found


def hoist_buffers_from_loops(target: Operation) -> HoistingResult:
    """Hoist the allocations nested in `target` out of sequential loops (module doc)."""
    candidates = [op for op in target.walk() if isinstance(op, memref.AllocOp)]
    candidates += [op for op in target.walk() if isinstance(op, memref.AllocaOp)]
    hoisted: list[Operation] = []
    for alloc in candidates:
        placement = _placement_block(alloc)
        if placement is None:
            continue
        anchor = ancestor_in_block(placement, alloc)
        if anchor is None or anchor is alloc:
            continue
        deallocs = _deallocs_to_move(alloc, anchor)
        if deallocs is None:
            continue
        alloc.detach()
        Rewriter.insert_op(alloc, InsertPoint.before(anchor))
        for dealloc in reversed(deallocs):
            dealloc.detach()
            Rewriter.insert_op(dealloc, InsertPoint.after(anchor))
        hoisted.append(alloc)
    return HoistingResult(tuple(hoisted))


__all__ = ["HoistingResult", "hoist_buffers_from_loops"]
