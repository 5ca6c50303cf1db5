"""Rewrites of memref allocations (upstream MemRef/Transforms and MemRefTransformOps.cpp):
erase allocations that are only written to, and turn allocations into globals.

`erase_dead_alloc_and_stores` is upstream's `eraseDeadAllocAndStores`: an allocation
whose every use (through view ops) writes to it, frees it, or is a view only used that
way, is erased with those uses. Unlike upstream, a user whose memory effects are unknown
(a call, an unregistered op) counts as a read: upstream's `hasEffect<Read>` is false for
an op without effects, which would erase a buffer passed to a function. A terminator
user (`func.return`, `scf.yield`) lets the buffer escape: it is kept, as upstream.

`alloc_like_to_global` is upstream's `allocLikeToGlobal`: a private `memref.global` in
the nearest symbol table and a `memref.get_global` in place of the allocation (its
deallocations erased). Upstream builds the global without an initial value (a
declaration); schedir makes it `uninitialized`, a definition, so that the module it
lowers to defines the buffer it uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import MemRefType, StringAttr, UnitAttr
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator, SymbolOpInterface, SymbolTable

from schedir.dialects.memref import GetGlobalOp, GlobalOp
from schedir.transform.rewrites.effects import READ, op_effects

_VIEWS: tuple[type[Operation], ...] = (
    xmemref.SubviewOp,
    xmemref.CastOp,
    xmemref.ReinterpretCastOp,
    xmemref.ExpandShapeOp,
    xmemref.CollapseShapeOp,
    xmemref.ViewOp,
    xmemref.MemorySpaceCastOp,
)
"""Upstream's memref view ops (`isMemRefViewOp`): their result aliases their source."""


def _not_read(value_owner: Operation, uses: list[Operation]) -> bool:
    """Whether no use of `value_owner`'s results reads memory; if so, appends the uses
    to `uses` (left unchanged otherwise)."""
    found: list[Operation] = []
    for result in value_owner.results:
        for use in result.uses:
            user = use.operation
            if user.has_trait(IsTerminator, value_if_unregistered=True):
                return False  # the buffer escapes the region
            if isinstance(user, xmemref.DeallocOp):
                found.append(user)
                continue
            if isinstance(user, _VIEWS) and _not_read(user, found):
                found.append(user)
                continue
            effects = op_effects(user)
            if (
                not user.results
                and not user.regions
                and effects is not None
                and not any(effect.kind == READ for effect in effects)
            ):
                found.append(user)
                continue
            return False
    uses.extend(found)
    return True


def erase_dead_alloc_and_stores(rewriter: PatternRewriter, root: Operation) -> int:
    """Erase the allocations in `root` that are never read, with their writes, views and
    deallocations; returns how many allocations went."""
    doomed: list[Operation] = []
    count = 0
    for op in root.walk():
        if not isinstance(op, xmemref.AllocOp | xmemref.AllocaOp):
            continue
        uses: list[Operation] = []
        if _not_read(op, uses):
            doomed.extend(uses)
            doomed.append(op)
            count += 1
    erased: set[Operation] = set()
    for op in doomed:
        if op not in erased:
            erased.add(op)
            rewriter.erase(op)
    return count


class AllocToGlobalFailure(ValueError):
    """The allocation cannot become a global (upstream's precondition messages)."""


@dataclass(frozen=True)
class Globalized:
    """The global that replaced an allocation and the op reading its address."""

    global_op: GlobalOp
    get_global: GetGlobalOp


def _check_preconditions(alloc: xmemref.AllocOp | xmemref.AllocaOp) -> MemRefType:
    memref_type = alloc.memref.type
    assert isinstance(memref_type, MemRefType)
    if any(size < 0 for size in memref_type.get_shape()):
        raise AllocToGlobalFailure(
            f"conversion to a global op requires statically shaped memrefs, but got '{memref_type}'"
        )
    if alloc.symbol_operands:
        raise AllocToGlobalFailure(
            f"conversion to a global op does not support symbol operands, but got '{memref_type}'"
        )
    strides = memref_type.get_strides()
    if strides is None:
        raise AllocToGlobalFailure(
            f"conversion to a global op requires strided layout, but got '{memref_type}'"
        )
    if memref_type.get_offset() is None or any(stride is None for stride in strides):
        raise AllocToGlobalFailure(
            "conversion to a global op does not support dynamic offset or strides, but got "
            f"'{memref_type}'"
        )
    return memref_type


def _unique_name(table: Operation, base: str) -> str:
    taken: set[str] = set()
    for op in table.regions[0].block.ops:
        interface = op.get_trait(SymbolOpInterface)
        symbol = interface.get_sym_attr_name(op) if interface is not None else None
        if symbol is not None:
            taken.add(symbol.data)
    name, suffix = base, 0
    while name in taken:
        name = f"{base}_{suffix}"
        suffix += 1
    return name


def alloc_like_to_global(
    rewriter: PatternRewriter, alloc: xmemref.AllocOp | xmemref.AllocaOp, base_name: str
) -> Globalized:
    """Replace `alloc` by `memref.get_global` of a new private global named after
    `base_name`; raises `AllocToGlobalFailure` if its type does not allow it."""
    memref_type = _check_preconditions(alloc)
    table = alloc.parent_op()
    while table is not None and not (table.has_trait(SymbolTable) and table.regions):
        table = table.parent_op()
    if table is None:
        raise AllocToGlobalFailure("expected the allocation to be in a symbol table")
    name = _unique_name(table, base_name)
    global_op = GlobalOp.build(
        properties={
            "sym_name": StringAttr(name),
            "sym_visibility": StringAttr("private"),
            "type": memref_type,
            "initial_value": UnitAttr(),
            "alignment": alloc.alignment,
        }
    )
    body = table.regions[0].block
    rewriter.insert(global_op, InsertPoint.at_start(body))
    for use in list(alloc.memref.uses):
        if isinstance(use.operation, xmemref.DeallocOp):
            rewriter.erase(use.operation)
    get_global = GetGlobalOp(name, memref_type)
    rewriter.replace(alloc, get_global)
    return Globalized(global_op, get_global)


__all__ = [
    "AllocToGlobalFailure",
    "Globalized",
    "alloc_like_to_global",
    "erase_dead_alloc_and_stores",
]
