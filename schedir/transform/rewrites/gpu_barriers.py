"""Removing `gpu.barrier`s that order no conflicting memory accesses (upstream
GPU/Transforms/EliminateBarriers.cpp, after Polygeist's barrier elimination).

A barrier is needed only if some memory access between it and the previous barrier (the
"before" effects) conflicts with one between it and the next barrier (the "after"
effects): both may touch aliasing memory and at least one writes. The effects are
collected through structured control flow up to the kernel (`gpu.launch` or `gpu.func`):
past the start of a loop body the accesses at the end of the previous iteration count,
past the end those at the start of the next; outside a region that runs at most once
(`scf.if`), the whole parent op counts. Allocations never conflict; values from distinct
allocations, globals or `llvm.noalias` arguments do not alias unless captured.

    memref.store %v, %smem[%i] : memref<64xf32, 3>
    gpu.barrier                        // kept: the load below reads what was stored
    %x = memref.load %smem[%j] : memref<64xf32, 3>
    gpu.barrier                        // removed: only reads follow until the end
    %y = memref.load %global[%i] : memref<64xf32>
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from schedir.transform.rewrites.canonicalize import PatternSet
from schedir.transform.rewrites.canonicalize_effects import (
    ALLOC,
    FREE,
    READ,
    WRITE,
    Effect,
    has_recursive_effects,
    op_effects,
)
from schedir.transform.rewrites.canonicalize_utils import CanonRewriter

_ALL = [Effect(READ), Effect(WRITE), Effect(ALLOC), Effect(FREE)]
_BOUNDARIES = frozenset({"gpu.func", "gpu.launch"})
_FUNCTIONS = frozenset({"func.func", "gpu.func", "llvm.func"})
_VIEWS = frozenset(
    {"memref.cast", "memref.subview", "memref.view", "memref.collapse_shape", "memref.expand_shape"}
)
_CAPTURE_THROUGH = _VIEWS | frozenset(
    {"memref.reinterpret_cast", "memref.memory_space_cast", "memref.transpose"}
)


def _is_barrier(op: Operation) -> bool:
    return op.name == "gpu.barrier"


def _collect(op: Operation, effects: list[Effect]) -> bool:
    """Upstream's collectEffects: False (and every effect, on no value) when unknown."""
    if _is_barrier(op) or op.name == "memref.assume_alignment":
        return True
    own = op_effects(op)
    if own is None:
        effects.extend(_ALL)
        return False
    effects.extend(own)
    if has_recursive_effects(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if not _collect(inner, effects):
                        return False
    return True


def _walk_parent(parent: Operation, effects: list[Effect]) -> bool:
    return all(_collect(inner, effects) for inner in parent.walk(region_first=True))


def _effects_before(op: Operation, effects: list[Effect], stop_at_barrier: bool) -> bool:
    block = op.parent
    if block is None:
        return True
    region = block.parent
    if region is not None and len(region.blocks) != 1:
        effects.extend(_ALL)
        return False
    current = op.prev_op
    while current is not None:
        if _is_barrier(current):
            if stop_at_barrier:
                return True
        elif not _collect(current, effects):
            return False
        current = current.prev_op
    parent = op.parent_op()
    if parent is None or parent.name in _BOUNDARIES:
        return True
    if not _effects_before(parent, effects, stop_at_barrier):
        return False
    if parent.name == "scf.for":
        last = block.last_op
        assert last is not None
        return _effects_before(last, effects, True)
    if parent.name in ("scf.if", "memref.alloca_scope"):
        return True
    return _walk_parent(parent, effects)


def _effects_after(op: Operation, effects: list[Effect], stop_at_barrier: bool) -> bool:
    block = op.parent
    if block is None:
        return True
    region = block.parent
    if region is not None and len(region.blocks) != 1:
        effects.extend(_ALL)
        return False
    current = op.next_op
    while current is not None:
        if _is_barrier(current):
            if stop_at_barrier:
                return True
        elif not _collect(current, effects):
            return False
        current = current.next_op
    parent = op.parent_op()
    if parent is None or parent.name in _BOUNDARIES:
        return True
    if not _effects_after(parent, effects, stop_at_barrier):
        return False
    if parent.name == "scf.for":
        first = block.first_op
        assert first is not None
        if _is_barrier(first):
            return True
        exact = _collect(first, effects)
        return _effects_after(first, effects, True) and exact
    if parent.name in ("scf.if", "memref.alloca_scope"):
        return True
    return _walk_parent(parent, effects)


def _base(value: SSAValue) -> SSAValue:
    while isinstance(value, OpResult) and value.op.name in _VIEWS:
        value = value.op.operands[0]
    return value


def _function_arg(value: SSAValue) -> tuple[Operation, int] | None:
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        if (
            owner is not None
            and owner.name in _FUNCTIONS
            and value.block is owner.regions[0].blocks.first
        ):
            return owner, value.index
    return None


def _is_noalias_arg(value: SSAValue) -> bool:
    found = _function_arg(value)
    if found is None:
        return False
    owner, index = found
    attrs = owner.properties.get("arg_attrs") or owner.attributes.get("arg_attrs")
    if not isinstance(attrs, ArrayAttr) or index >= len(attrs.data):
        return False
    entry = attrs.data[index]
    return isinstance(entry, DictionaryAttr) and "llvm.noalias" in entry.data


def _defining_name(value: SSAValue) -> str | None:
    return value.op.name if isinstance(value, OpResult) else None


def _maybe_captured(value: SSAValue) -> bool:
    """Upstream's maybeCaptured: some user may store the value itself in memory."""
    todo = [value]
    while todo:
        current = todo.pop()
        for use in current.uses:
            user = use.operation
            effects = op_effects(user)
            if effects is not None and effects and all(e.kind == READ for e in effects):
                continue
            if user.name in _CAPTURE_THROUGH:
                todo.append(user.results[0])
                continue
            if user.name in ("memref.store", "vector.transfer_write"):
                if use.index == 0:
                    return True
                continue
            if user.name == "memref.dealloc":
                continue
            return True
    return False


def may_alias(first: SSAValue, second: SSAValue) -> bool:
    """Upstream's (naive) alias query of barrier elimination."""
    first, second = _base(first), _base(second)
    if first is second:
        return True
    globals_ = [
        v.op.properties.get("name") if _defining_name(v) == "memref.get_global" else None  # type: ignore[union-attr]
        for v in (first, second)
    ]
    if globals_[0] is not None and globals_[1] is not None:
        return globals_[0] == globals_[1]
    if _is_noalias_arg(first) and _is_noalias_arg(second):
        return False
    distinct = [_defining_name(v) in ("memref.alloc", "memref.alloca") for v in (first, second)]
    is_global = [g is not None for g in globals_]
    if (distinct[0] or is_global[0]) and (distinct[1] or is_global[1]):
        return False
    is_arg = [_function_arg(v) is not None for v in (first, second)]
    if (distinct[0] and is_arg[1]) or (distinct[1] and is_arg[0]):
        return False
    # Non-captured distinct allocations cannot conflict with another base value.
    return not (
        (distinct[0] and not _maybe_captured(first))
        or (distinct[1] and not _maybe_captured(second))
    )


def _effects_may_alias(a: Effect, b: Effect) -> bool:
    if a.value is not None and b.value is not None:
        return may_alias(a.value, b.value)
    return True


def have_conflicting_effects(before: list[Effect], after: list[Effect]) -> bool:
    """A pair on aliasing memory where one writes (allocations and frees before excepted)."""
    for b in before:
        for a in after:
            if not _effects_may_alias(b, a):
                continue
            if b.kind == READ and a.kind == READ:
                continue
            if ALLOC in (b.kind, a.kind):
                continue
            if b.kind == FREE:
                continue
            return True
    return False


def eliminate_barrier(op: Operation, rewriter: CanonRewriter) -> bool:
    """The `BarrierElimination` pattern: erase `op` if it orders no conflict."""
    before: list[Effect] = []
    _effects_before(op, before, True)
    after: list[Effect] = []
    _effects_after(op, after, True)
    if have_conflicting_effects(before, after):
        return False
    rewriter.erase(op)
    return True


def eliminate_barriers_patterns() -> PatternSet:
    """The `gpu.eliminate_barriers` pattern set."""
    return PatternSet().add("gpu.barrier", eliminate_barrier)


__all__ = [
    "eliminate_barrier",
    "eliminate_barriers_patterns",
    "have_conflicting_effects",
    "may_alias",
]
