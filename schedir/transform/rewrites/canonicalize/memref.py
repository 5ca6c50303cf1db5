"""memref folders and canonicalization patterns (upstream MemRefOps.cpp).

Folders: identity casts and subviews, `dim` of static shapes and of `memref.alloc`,
information-erasing `memref.cast`s folded into their users (`foldMemRefCast`: load,
store, dealloc, linalg ops on buffers).

Patterns: constant subview offsets/sizes/strides and alloc sizes become static (with a
cast back to the old type), a subview of an information-erasing cast takes the cast's
source (the cast moves after it), a subview of a whole static source becomes its source
(or a cast of it), `memref.copy` of a buffer into itself is erased, and an
allocation that is only stored into or deallocated is erased with those users
(SimplifyDeadAlloc).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from schedir.dialects.memref import AllocaOp, AllocOp, CastOp
from schedir.dialects.utils import Mixed, mixed_values, split_mixed
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import Folder, PatternSet
from schedir.transform.rewrites.mixed import fold_mixed_lists, in_bounds_slice
from schedir.transform.rewrites.rewriter import CanonRewriter

# --- casts ------------------------------------------------------------------------------------


def _layout(t: MemRefType) -> tuple[tuple[int | None, ...], int | None] | None:
    strides = t.get_strides()
    if strides is None:
        return None
    return tuple(strides), t.get_offset()


def can_fold_cast_into_consumer(cast: Operation) -> bool:
    """Upstream's `memref::CastOp::canFoldIntoConsumerOp`: the cast only erases static
    information (sizes, strides, offset) of its source."""
    if not isinstance(cast, xmemref.CastOp):
        return False
    source, result = cast.operands[0].type, cast.results[0].type
    if not isinstance(source, MemRefType) or not isinstance(result, MemRefType):
        return False
    if source.element_type != result.element_type or source.memory_space != result.memory_space:
        return False
    s, r = source.get_shape(), result.get_shape()
    if len(s) != len(r):
        return False
    for a, b in zip(s, r, strict=True):
        if a == DYNAMIC_INDEX and b != DYNAMIC_INDEX:
            return False
        if a != DYNAMIC_INDEX and b != DYNAMIC_INDEX and a != b:
            return False
    ls, lr = _layout(source), _layout(result)
    if ls is None or lr is None:
        return source.layout == result.layout
    for a, b in zip((*ls[0], ls[1]), (*lr[0], lr[1]), strict=True):
        if a is None and b is not None:
            return False
        if a is not None and b is not None and a != b:
            return False
    return True


def fold_cast_operands(op: Operation, positions: Sequence[int] | None = None) -> bool:
    """Upstream's `foldMemRefCast`: replace operands produced by a foldable cast."""
    operands = list(op.operands)
    changed = False
    for i, value in enumerate(operands):
        if positions is not None and i not in positions:
            continue
        owner = value.owner
        if isinstance(owner, Operation) and can_fold_cast_into_consumer(owner):
            operands[i] = owner.operands[0]
            changed = True
    if changed:
        op.operands = operands
    return changed


def _fold_cast_users(positions: Sequence[int] | None = None) -> Folder:
    def fold(op: Operation) -> bool | None:
        return True if fold_cast_operands(op, positions) else None

    return fold


def fold_memref_cast(op: Operation) -> list[Attribute | SSAValue] | bool | None:
    source = op.operands[0]
    if source.type == op.results[0].type:
        return [source]
    inner = source.owner
    if isinstance(inner, xmemref.CastOp):
        if inner.operands[0].type == op.results[0].type:
            return [inner.operands[0]]
        if can_fold_cast_into_consumer(inner):
            op.operands = [inner.operands[0]]
            return True
    return None


def fold_dim(op: Operation) -> list[Attribute | SSAValue] | bool | None:
    source, index_value = op.operands
    index = constant_int(index_value)
    if index is None or not isinstance(source.type, MemRefType):
        return None
    shape = source.type.get_shape()
    if not 0 <= index < len(shape):
        return None
    if shape[index] != DYNAMIC_INDEX:
        return [IntegerAttr(shape[index], IndexType())]
    owner = source.owner
    dynamic = [i for i, d in enumerate(shape) if d == DYNAMIC_INDEX]
    if isinstance(owner, xmemref.AllocOp | xmemref.AllocaOp) and isinstance(source, OpResult):
        return [owner.operands[dynamic.index(index)]]
    if isinstance(owner, xmemref.SubviewOp):
        # A dynamic size makes a dynamic result dim and dropped dims are static units, so
        # the k-th dynamic result dim is the k-th dynamic size, whichever dims are dropped.
        return [owner.sizes[dynamic.index(index)]]
    # dim(cast(x)) -> dim(x) (upstream's foldMemRefCast in DimOp::fold)
    if isinstance(owner, xmemref.CastOp) and can_fold_cast_into_consumer(owner):
        op.operands = [owner.operands[0], index_value]
        return True
    return None


def _subview_params(op: Operation) -> tuple[list[Mixed], list[Mixed], list[Mixed]]:
    return (
        mixed_values(op.properties["static_offsets"], op.offsets),  # type: ignore[arg-type,attr-defined]  # the op is a slice-like op with these operand groups
        mixed_values(op.properties["static_sizes"], op.sizes),  # type: ignore[arg-type,attr-defined]  # the op is a slice-like op with these operand groups
        mixed_values(op.properties["static_strides"], op.strides),  # type: ignore[arg-type,attr-defined]  # the op is a slice-like op with these operand groups
    )


def _all_equal(values: Sequence[Mixed], expected: int) -> bool:
    return all(constant_int(v) == expected for v in values)


def fold_subview(op: Operation) -> list[Attribute | SSAValue] | bool | None:
    """Upstream's `SubViewOp::fold`: a subview of the source's own static type, and a
    subview that re-takes the whole of another subview, are their source."""
    source = op.operands[0]
    result_type = op.results[0].type
    if source.type != result_type or not isinstance(result_type, MemRefType):
        return None
    layout = _layout(result_type)
    if DYNAMIC_INDEX not in result_type.get_shape() and (
        isinstance(result_type.layout, NoneAttr)
        or (layout is not None and None not in (*layout[0], layout[1]))
    ):
        return [source]
    inner = source.owner
    if isinstance(inner, xmemref.SubviewOp):
        offsets, sizes, strides = _subview_params(op)
        inner_sizes = _subview_params(inner)[1]
        same_sizes = len(sizes) == len(inner_sizes) and all(
            a is b or (isinstance(a, int) and a == b)
            for a, b in zip(sizes, inner_sizes, strict=True)
        )
        if _all_equal(offsets, 0) and _all_equal(strides, 1) and same_sizes:
            return [source]
    return None


FOLDERS: dict[type[Operation], Folder] = {
    xmemref.CastOp: fold_memref_cast,
    xmemref.DimOp: fold_dim,
    xmemref.SubviewOp: fold_subview,
    xmemref.LoadOp: _fold_cast_users([0]),
    xmemref.StoreOp: _fold_cast_users([1]),
    xmemref.DeallocOp: _fold_cast_users([0]),
}


# --- patterns ---------------------------------------------------------------------------------


def _infer_subview_type(
    source: MemRefType,
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed],
    rank: int,
) -> MemRefType | None:
    try:
        full = xmemref.SubviewOp.infer_result_type(source, offsets, sizes, strides)
    except ValueError:
        return None
    if rank == len(full.get_shape()):
        return full
    layout = full.layout
    assert isinstance(layout, StridedLayoutAttr)
    drop = len(full.get_shape()) - rank
    shape: list[int] = []
    kept_strides: list[int | None] = []
    for size, stride in zip(full.get_shape(), layout.get_strides(), strict=True):
        if drop > 0 and size == 1:
            drop -= 1
            continue
        shape.append(size)
        kept_strides.append(stride)
    offset = layout.get_offset()
    return MemRefType(
        full.element_type, shape, StridedLayoutAttr(kept_strides, offset), full.memory_space
    )


def subview_constant_arguments(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's OpWithOffsetSizesAndStridesConstantArgumentFolder for subview."""
    folded = fold_mixed_lists(*_subview_params(op))
    if folded is None:
        return False
    offsets, sizes, strides = folded
    source = op.operands[0]
    if not in_bounds_slice(source.type.get_shape(), offsets, sizes, strides):  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        return False
    old_type = op.results[0].type
    assert isinstance(source.type, MemRefType) and isinstance(old_type, MemRefType)
    new_type = _infer_subview_type(source.type, offsets, sizes, strides, len(old_type.get_shape()))
    if new_type is None:
        return False
    so, do = split_mixed(offsets)
    ss, ds = split_mixed(sizes)
    st, dt = split_mixed(strides)
    new = xmemref.SubviewOp.build(
        operands=[source, do, ds, dt],
        result_types=[new_type],
        properties={"static_offsets": so, "static_sizes": ss, "static_strides": st},
    )
    rw.create(new, op)
    result = new.results[0]
    if new_type != old_type:
        result = rw.create(CastOp.build(operands=[result], result_types=[old_type]), op).results[0]
    rw.replace_values(op, [result])
    return True


def _dropped_dims(full: MemRefType, reduced: MemRefType) -> set[int] | None:
    """The unit dims of a subview's non-reduced type `full` its type `reduced` drops
    (upstream's `computeMemRefRankReductionMask`, matching sizes and static strides)."""
    full_shape, reduced_shape = full.get_shape(), reduced.get_shape()
    full_strides = full.get_strides() or [None] * len(full_shape)
    reduced_strides = reduced.get_strides() or [None] * len(reduced_shape)
    dropped: set[int] = set()
    j = 0
    for i, size in enumerate(full_shape):
        stride = full_strides[i]
        if j < len(reduced_shape) and reduced_shape[j] == size:
            other = reduced_strides[j]
            if stride is None or other is None or stride == other or size == 1:
                j += 1
                continue
        if size != 1:
            return None
        dropped.add(i)
    return dropped if j == len(reduced_shape) else None


def _canonical_subview_type(
    op: Operation, new_source: MemRefType, params: tuple[list[Mixed], list[Mixed], list[Mixed]]
) -> MemRefType | None:
    """Upstream's `getCanonicalSubViewResultType`: the subview's type over `new_source`,
    dropping the dims the current result type drops (read off the current source)."""
    current_source, current_result = op.operands[0].type, op.results[0].type
    assert isinstance(current_source, MemRefType) and isinstance(current_result, MemRefType)
    try:
        current_full = xmemref.SubviewOp.infer_result_type(current_source, *params)
        full = xmemref.SubviewOp.infer_result_type(new_source, *params)
    except ValueError:
        return None
    dropped = _dropped_dims(current_full, current_result)
    if dropped is None:
        return None
    layout = full.layout
    assert isinstance(layout, StridedLayoutAttr)
    keep = [i for i in range(len(full.get_shape())) if i not in dropped]
    strides = layout.get_strides()
    return MemRefType(
        full.element_type,
        [full.get_shape()[i] for i in keep],
        StridedLayoutAttr([strides[i] for i in keep], layout.get_offset()),
        full.memory_space,
    )


def subview_of_cast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's SubViewOpMemRefCastFolder: a subview of a cast that only erases static
    information takes the cast's source, and the cast moves after it."""
    if any(constant_int(v) is not None for v in op.operands):
        return False  # the constant-argument folder goes first, as upstream
    cast = op.operands[0].owner
    if not isinstance(cast, Operation) or not can_fold_cast_into_consumer(cast):
        return False
    source = cast.operands[0]
    assert isinstance(source.type, MemRefType)
    new_type = _canonical_subview_type(op, source.type, _subview_params(op))
    if new_type is None:
        return False
    new = xmemref.SubviewOp.build(
        operands=[source, op.offsets, op.sizes, op.strides],  # type: ignore[attr-defined]  # the op is a slice-like op with these operand groups
        result_types=[new_type],
        properties={
            k: op.properties[k] for k in ("static_offsets", "static_sizes", "static_strides")
        },
    )
    rw.create(new, op)
    result_type = op.results[0].type
    back = rw.create(CastOp.build(operands=[new.results[0]], result_types=[result_type]), op)
    rw.replace_values(op, [back.results[0]])
    return True


def trivial_subview(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's TrivialSubViewOpFolder: a subview of the whole source (zero offsets,
    unit strides, the static source sizes) is its source, cast to the result type."""
    source = op.operands[0]
    source_type, result_type = source.type, op.results[0].type
    assert isinstance(source_type, MemRefType) and isinstance(result_type, MemRefType)
    if len(source_type.get_shape()) != len(result_type.get_shape()):
        return False
    offsets, sizes, strides = _subview_params(op)
    shape = source_type.get_shape()
    if not (_all_equal(offsets, 0) and _all_equal(strides, 1)):
        return False
    if any(constant_int(v) != d for v, d in zip(sizes, shape, strict=True)):
        return False
    if source_type == result_type:
        rw.replace_values(op, [source])
        return True
    cast = rw.create(CastOp.build(operands=[source], result_types=[result_type]), op)
    rw.replace_values(op, [cast.results[0]])
    return True


def erase_self_copy(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's EraseSelfCopy (memref.copy and linalg.copy on buffers)."""
    operands = op.operands
    if len(operands) != 2 or operands[0] is not operands[1] or op.results:
        return False
    rw.erase(op)
    return True


def copy_of_cast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldCopyOfCast: copy through foldable casts."""
    if fold_cast_operands(op):
        rw.modified(op)
        return True
    return False


def alloc_constant_sizes(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's SimplifyAllocConst: constant dynamic sizes become static."""
    type_ = op.results[0].type
    assert isinstance(type_, MemRefType)
    shape = list(type_.get_shape())
    dynamic = list(op.operands[: sum(1 for d in shape if d == DYNAMIC_INDEX)])
    symbols = list(op.operands[len(dynamic) :])
    new_shape: list[int] = []
    new_dynamic: list[SSAValue] = []
    changed = False
    it = iter(dynamic)
    for size in shape:
        if size != DYNAMIC_INDEX:
            new_shape.append(size)
            continue
        value = next(it)
        c = constant_int(value)
        if c is not None and c >= 0:
            new_shape.append(c)
            changed = True
        else:
            new_shape.append(DYNAMIC_INDEX)
            new_dynamic.append(value)
    if not changed:
        return False
    layout = type_.layout
    new_type = MemRefType(
        type_.element_type,
        new_shape,
        layout if not isinstance(layout, NoneAttr) else NoneAttr(),
        type_.memory_space,
    )
    cls = AllocOp if isinstance(op, xmemref.AllocOp) else AllocaOp
    props = {k: v for k, v in op.properties.items() if k != "operandSegmentSizes"}
    new = cls.build(operands=[new_dynamic, symbols], result_types=[new_type], properties=props)
    new.attributes.update(op.attributes)
    rw.create(new, op)
    cast = rw.create(CastOp.build(operands=[new.results[0]], result_types=[type_]), op)
    rw.replace_values(op, [cast.results[0]])
    return True


def dead_alloc(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's SimplifyDeadAlloc: an allocation only stored into (never read) or
    deallocated is erased with those users."""
    result = op.results[0]
    users = [use.operation for use in result.uses]
    if not users:
        return False
    for user in users:
        if isinstance(user, xmemref.StoreOp):
            if user.operands[0] is result:
                return False
        elif not isinstance(user, xmemref.DeallocOp):
            return False
    for user in dict.fromkeys(users):
        rw.erase(user)
    rw.erase(op)
    return True


def patterns() -> PatternSet:
    return (
        PatternSet()
        .add(xmemref.SubviewOp, subview_constant_arguments, subview_of_cast, trivial_subview)
        .add(xmemref.CopyOp, erase_self_copy, copy_of_cast)
        .add(xmemref.AllocOp, alloc_constant_sizes, dead_alloc)
        .add(xmemref.AllocaOp, alloc_constant_sizes, dead_alloc)
    )


def tiling_patterns() -> PatternSet:
    """The memref part of `linalg.tiling_canonicalization` (subview only)."""
    return PatternSet().add(
        xmemref.SubviewOp, subview_constant_arguments, subview_of_cast, trivial_subview
    )


__all__ = [
    "FOLDERS",
    "can_fold_cast_into_consumer",
    "fold_cast_operands",
    "patterns",
    "tiling_patterns",
]
