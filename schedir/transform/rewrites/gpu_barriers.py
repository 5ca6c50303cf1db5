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

Two refinements for kernels: a default-space allocation inside a kernel that is not a
block's shared buffer (`schedir.workgroup_buffer`) is per-thread, so no other thread sees
its accesses; and accesses through one single-element `memref.subview` of an allocation
whose offsets hold `gpu.thread_id` for every dimension of the block touch a different
element in each thread. A barrier that ends an `scf.for` body and orders nothing between
one iteration and the next is moved after the loop (a thread-mapped forall in a loop
over chunks gets one barrier per chunk from the mapping; only the loop's end needs it).

    memref.store %v, %smem[%i] : memref<64xf32, 3>
    gpu.barrier                        // kept: the load below reads what was stored
    %x = memref.load %smem[%j] : memref<64xf32, 3>
    gpu.barrier                        // removed: only reads follow until the end
    %y = memref.load %global[%i] : memref<64xf32>
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, MemRefType, NoneAttr
from xdsl.dialects.memref import SubviewOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from schedir.dialects import _gpu_ops as gpu
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


def _kernel_of(op: Operation) -> Operation | None:
    current = op.parent_op()
    while current is not None and current.name not in _BOUNDARIES:
        current = current.parent_op()
    return current


def _is_private_allocation(value: SSAValue) -> bool:
    """A default-space allocation inside a kernel that is no block-shared buffer."""
    if not isinstance(value, OpResult) or value.op.name not in ("memref.alloc", "memref.alloca"):
        return False
    memref_type = value.type
    return (
        isinstance(memref_type, MemRefType)
        and isinstance(memref_type.memory_space, NoneAttr)
        and "schedir.workgroup_buffer" not in value.op.attributes
        and _kernel_of(value.op) is not None
    )


def _block_dims(kernel: Operation) -> list[int | None]:
    """The launch's constant block sizes (None where unknown, e.g. for a gpu.func)."""
    if not isinstance(kernel, gpu.LaunchOp):
        return [None, None, None]
    dims: list[int | None] = []
    for size in kernel.block_sizes:
        value = size.op.properties.get("value") if isinstance(size, OpResult) else None
        dims.append(value.value.data if isinstance(value, IntegerAttr) else None)
    return dims


def _is_per_thread_element(value: SSAValue) -> bool:
    """A single-element subview of an allocation at offsets that hold the thread id of
    every block dimension (so each thread addresses its own element)."""
    view = value.op if isinstance(value, OpResult) else None
    if not isinstance(view, SubviewOp) or any(s != 1 for s in view.static_sizes.get_values()):
        return False
    source = view.source
    if not isinstance(source, OpResult) or source.op.name not in ("memref.alloc", "memref.alloca"):
        return False
    kernel = _kernel_of(view)
    if kernel is None:
        return False
    dims: dict[str, int] = {}
    for position, offset in enumerate(view.offsets):
        if isinstance(offset, OpResult) and isinstance(offset.op, gpu.ThreadIdOp):
            dims.setdefault(offset.op.dimension.data.value, position)
    needed = [d for d, size in zip("xyz", _block_dims(kernel), strict=True) if size != 1]
    return all(d in dims for d in needed) and len({dims[d] for d in needed}) == len(needed)


def _effects_may_alias(a: Effect, b: Effect) -> bool:
    if a.value is not None and b.value is not None:
        if _is_private_allocation(_base(a.value)) or _is_private_allocation(_base(b.value)):
            return False  # other threads never see a thread's own buffer
        if a.value is b.value and _is_per_thread_element(a.value):
            return False
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
    if not have_conflicting_effects(before, after):
        rewriter.erase(op)
        return True
    return _sink_out_of_loop(op, before, rewriter)


def _sink_out_of_loop(op: Operation, before: list[Effect], rewriter: CanonRewriter) -> bool:
    """Move a barrier that ends an `scf.for` body after the loop when one iteration's
    accesses do not conflict with the next one's."""
    block = op.parent
    loop = op.parent_op()
    if block is None or loop is None or loop.name != "scf.for" or op.next_op is not block.last_op:
        return False
    first = block.first_op
    assert first is not None
    following: list[Effect] = []
    if first is not op and (
        not _collect(first, following) or not _effects_after(first, following, True)
    ):
        return False
    if have_conflicting_effects(before, following):
        return False
    if loop.next_op is not None and _is_barrier(loop.next_op):
        rewriter.erase(op)
    else:
        rewriter.move_op(op, InsertPoint.after(loop))
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
