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

Kernel refinements: a `gpu.all_reduce` of a block of more than one warp ends the effects
collected like a barrier (its lowering exchanges the warp results behind one, between
everything before the op and everything after it); a `memref.dealloc` of a block's shared
buffer has no effect (the buffer is a static shared array for the whole kernel); a
default-space allocation inside a kernel that is not a block's shared buffer
(`schedir.workgroup_buffer`) is per-thread, so no other thread sees its accesses; and accesses through one single-element `memref.subview` of an allocation
whose offsets hold `gpu.thread_id` for every dimension of the block touch a different
element in each thread (generalized in `barrier_slots`). A barrier that ends an
`scf.for` body and orders nothing between one iteration and the next is moved after the
loop (a thread-mapped forall in a loop
over chunks gets one barrier per chunk from the mapping; only the loop's end needs it).
Between iterations, two accesses through views of one iteration window do not conflict:
a `memref.subview` of a loop-invariant, injectively laid out memref whose offset along
some dimension is the loop's induction variable and whose extent along it is at most the
(constant) step, so that distinct iterations touch disjoint slices whatever the thread.

    memref.store %v, %smem[%i] : memref<64xf32, 3>
    gpu.barrier                        // kept: the load below reads what was stored
    %x = memref.load %smem[%j] : memref<64xf32, 3>
    gpu.barrier                        // removed: only reads follow until the end
    %y = memref.load %global[%i] : memref<64xf32>
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import affine, func, llvm, memref, scf, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    MemRefType,
    NoneAttr,
)
from xdsl.dialects.memref import SubviewOp
from xdsl.dialects.scf import ForOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu
from schedir.dialects.nvgpu.warp import WARP_SIZE
from schedir.dialects.utils import constant_index, mixed_values
from schedir.transform.rewrites.effects import (
    ALLOC,
    FREE,
    READ,
    WRITE,
    Effect,
    has_recursive_effects,
    op_effects,
)
from schedir.transform.rewrites.gpu.barrier_slots import (
    access_slot,
    block_dims,
    kernel_of,
    thread_slot,
)
from schedir.transform.rewrites.gpu.mapping import WORKGROUP_BUFFER
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter

_ALL = [Effect(READ), Effect(WRITE), Effect(ALLOC), Effect(FREE)]
_BOUNDARIES = (gpu.FuncOp, gpu.LaunchOp)
_FUNCTIONS = (func.FuncOp, gpu.FuncOp, llvm.FuncOp)
_VIEWS = (
    memref.CastOp,
    memref.SubviewOp,
    memref.ViewOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
)
_CAPTURE_THROUGH = (
    *_VIEWS,
    memref.ReinterpretCastOp,
    memref.MemorySpaceCastOp,
    # (and memref.transpose, which schedir does not define)
)
_ALLOCATIONS = (memref.AllocOp, memref.AllocaOp)


def _is_barrier(op: Operation) -> bool:
    """A `gpu.barrier`, or a `gpu.all_reduce` of a block of more than one warp: its lowering
    exchanges the warps' results through shared memory behind a `gpu.barrier` that every
    thread reaches after everything before the op and before anything after it."""
    if isinstance(op, gpu.BarrierOp):
        return True
    if not isinstance(op, gpu.AllReduceOp):
        return False
    kernel = kernel_of(op)
    sizes = block_dims(kernel) if kernel is not None else [None]
    threads = 1
    for size in sizes:
        if size is None:
            return False
        threads *= size
    return threads > WARP_SIZE


def _frees_shared_buffer(op: Operation) -> bool:
    """A `memref.dealloc` of a block's shared buffer: it frees nothing (the buffer becomes a
    static shared array, live for the whole kernel, and the dealloc is dropped)."""
    if not isinstance(op, memref.DeallocOp):
        return False
    source = op.operands[0]
    return (
        isinstance(source, OpResult)
        and isinstance(source.op, memref.AllocOp)
        and WORKGROUP_BUFFER in source.op.attributes
    )


def _collect(op: Operation, effects: list[Effect]) -> bool:
    """Upstream's collectEffects: False (and every effect, on no value) when unknown."""
    if _is_barrier(op) or isinstance(op, memref.AssumeAlignmentOp) or _frees_shared_buffer(op):
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
    if parent is None or isinstance(parent, _BOUNDARIES):
        return True
    if not _effects_before(parent, effects, stop_at_barrier):
        return False
    if isinstance(parent, ForOp):
        last = block.last_op
        assert last is not None
        return _effects_before(last, effects, True)
    if isinstance(parent, scf.IfOp | memref.AllocaScopeOp):
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
    if parent is None or isinstance(parent, _BOUNDARIES):
        return True
    if not _effects_after(parent, effects, stop_at_barrier):
        return False
    if isinstance(parent, ForOp):
        first = block.first_op
        assert first is not None
        if _is_barrier(first):
            return True
        exact = _collect(first, effects)
        return _effects_after(first, effects, True) and exact
    if isinstance(parent, scf.IfOp | memref.AllocaScopeOp):
        return True
    return _walk_parent(parent, effects)


def _base(value: SSAValue) -> SSAValue:
    while isinstance(value, OpResult) and isinstance(value.op, _VIEWS):
        value = value.op.operands[0]
    return value


def _function_arg(value: SSAValue) -> tuple[Operation, int] | None:
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        if isinstance(owner, _FUNCTIONS) and value.block is owner.regions[0].blocks.first:
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


def _defined_by(value: SSAValue, kinds: type[Operation] | tuple[type[Operation], ...]) -> bool:
    return isinstance(value, OpResult) and isinstance(value.op, kinds)


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
            if isinstance(user, _CAPTURE_THROUGH):
                todo.append(user.results[0])
                continue
            if isinstance(user, memref.StoreOp | vector.TransferWriteOp):
                if use.index == 0:
                    return True
                continue
            if isinstance(user, memref.DeallocOp):
                continue
            return True
    return False


def may_alias(first: SSAValue, second: SSAValue) -> bool:
    """Upstream's (naive) alias query of barrier elimination."""
    first, second = _base(first), _base(second)
    if first is second:
        return True
    globals_ = [
        v.op.properties.get("name")
        if isinstance(v, OpResult) and isinstance(v.op, memref.GetGlobalOp)
        else None
        for v in (first, second)
    ]
    if globals_[0] is not None and globals_[1] is not None:
        return globals_[0] == globals_[1]
    if _is_noalias_arg(first) and _is_noalias_arg(second):
        return False
    distinct = [_defined_by(v, _ALLOCATIONS) for v in (first, second)]
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


def _is_private_allocation(value: SSAValue) -> bool:
    """A default-space allocation inside a kernel that is no block-shared buffer."""
    if not isinstance(value, OpResult) or not isinstance(value.op, _ALLOCATIONS):
        return False
    memref_type = value.type
    return (
        isinstance(memref_type, MemRefType)
        and isinstance(memref_type.memory_space, NoneAttr)
        and WORKGROUP_BUFFER not in value.op.attributes
        and kernel_of(value.op) is not None
    )


def _effects_may_alias(a: Effect, b: Effect) -> bool:
    if a.value is not None and b.value is not None:
        if _is_private_allocation(_base(a.value)) or _is_private_allocation(_base(b.value)):
            return False  # other threads never see a thread's own buffer
        slots_a = {thread_slot(a.value), access_slot(a.op)} - {None}
        slots_b = {thread_slot(b.value), access_slot(b.op)} - {None}
        if slots_a & slots_b:
            return False  # distinct threads touch distinct elements
        return may_alias(a.value, b.value)
    return True


def have_conflicting_effects(
    before: list[Effect],
    after: list[Effect],
    disjoint: Callable[[Effect, Effect], bool] | None = None,
) -> bool:
    """A pair on aliasing memory where one writes (allocations and frees before excepted);
    `disjoint` may rule out further pairs."""
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
            if disjoint is not None and disjoint(b, a):
                continue
            return True
    return False


def _upper_bound(value: int | SSAValue) -> int | None:
    """A constant bound on an index: the constant, or the least constant result of the
    `affine.min` that defines it."""
    known = constant_index(value)
    if known is not None or isinstance(value, int):
        return known
    if not isinstance(value, OpResult) or not isinstance(value.op, affine.MinOp):
        return None
    bounds = [
        r.value
        for r in value.op.properties["map"].data.results  # type: ignore[union-attr]  # the verified op holds that property with this attribute kind
        if isinstance(r, AffineConstantExpr)
    ]
    return min(bounds) if bounds else None


def _injective(value: SSAValue) -> bool:
    """Distinct indices address distinct elements: an identity-layout memref, or a chain of
    subviews of one with constant non-zero strides."""
    while isinstance(value, OpResult) and isinstance(value.op, SubviewOp):
        if any(s in (0, DYNAMIC_INDEX) for s in value.op.static_strides.get_values()):
            return False
        value = value.op.source
    return isinstance(value.type, MemRefType) and isinstance(value.type.layout, NoneAttr)


def _defined_in(value: SSAValue, loop: Operation) -> bool:
    owner = value.op if isinstance(value, OpResult) else value.owner.parent_op()
    return owner is not None and (owner is loop or loop.is_ancestor(owner))


def _windows(value: SSAValue, loop: ForOp) -> set[tuple[SSAValue, int]]:
    """The iteration windows (source, dimension) of `loop` that `value` lies within."""
    step = constant_index(loop.step)
    found: set[tuple[SSAValue, int]] = set()
    if step is None or step <= 0:
        return found
    iv = loop.body.block.args[0]
    while isinstance(value, OpResult) and isinstance(value.op, _VIEWS):
        view = value.op
        source = view.operands[0]
        if isinstance(view, SubviewOp) and not _defined_in(source, loop) and _injective(source):
            offsets = mixed_values(view.static_offsets, view.offsets)
            sizes = mixed_values(view.static_sizes, view.sizes)
            strides = view.static_strides.get_values()
            for d, offset in enumerate(offsets):
                size = _upper_bound(sizes[d])
                stride = strides[d]
                if (
                    offset is iv
                    and size is not None
                    and stride > 0
                    and (size - 1) * stride + 1 <= step
                ):
                    found.add((source, d))
        value = source
    return found


def _distinct_iterations(loop: ForOp) -> Callable[[Effect, Effect], bool]:
    """Accesses of distinct iterations through views of a common window are disjoint."""

    def disjoint(first: Effect, second: Effect) -> bool:
        if first.value is None or second.value is None:
            return False
        return bool(_windows(first.value, loop) & _windows(second.value, loop))

    return disjoint


def eliminate_barrier(op: Operation, rewriter: CanonRewriter) -> bool:
    """The `BarrierElimination` pattern: erase `op` if it orders no conflict."""
    before: list[Effect] = []
    _effects_before(op, before, True)
    after: list[Effect] = []
    _effects_after(op, after, True)
    if not have_conflicting_effects(before, after):
        rewriter.erase(op)
        return True
    return _sink_out_of_loop(op, rewriter)


def _sink_out_of_loop(op: Operation, rewriter: CanonRewriter) -> bool:
    """Move a barrier that ends an `scf.for` body after the loop when one iteration's
    accesses do not conflict with the next one's."""
    block = op.parent
    loop = op.parent_op()
    if block is None or not isinstance(loop, ForOp) or op.next_op is not block.last_op:
        return False
    # The iteration's accesses back to a barrier of the body; when there is none, those
    # before the loop too (the previous iteration's tail is empty: `op` ends it).
    body: list[Effect] = []
    outside: list[Effect] = []
    current = op.prev_op
    while current is not None and not _is_barrier(current):
        if not _collect(current, body):
            return False
        current = current.prev_op
    if current is None:
        _effects_before(loop, outside, True)
    first = block.first_op
    assert first is not None
    following: list[Effect] = []
    if first is not op and (
        not _collect(first, following) or not _effects_after(first, following, True)
    ):
        return False
    if have_conflicting_effects(outside, following) or have_conflicting_effects(
        body, following, _distinct_iterations(loop)
    ):
        return False
    if loop.next_op is not None and _is_barrier(loop.next_op):
        rewriter.erase(op)
    else:
        rewriter.move_op(op, InsertPoint.after(loop))
    return True


def eliminate_barriers_patterns() -> PatternSet:
    """The `gpu.eliminate_barriers` pattern set."""
    return PatternSet().add(gpu.BarrierOp, eliminate_barrier)


__all__ = [
    "eliminate_barrier",
    "eliminate_barriers_patterns",
    "have_conflicting_effects",
    "may_alias",
]
