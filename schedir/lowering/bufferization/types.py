"""Memref types for bufferization: tensor -> memref, and the layouts views produce.

Strides and offsets are `int | None` (None = dynamic), as `MemRefType.get_strides()` gives
them. A memref with no layout attribute has the identity (row-major, offset 0) layout.
Views (`memref.subview`, `collapse_shape`, `expand_shape`) get the strided layout upstream's
type inference gives them, so the printed IR matches `mlir-opt --one-shot-bufferize`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Literal, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    NoneAttr,
    ShapedType,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.ir import Attribute

LayoutKind = Literal["identity", "fully-dynamic"]
"""How an argument/result buffer type is chosen for a tensor type."""

Static = int | None
"""A size, stride or offset: an integer, or None where it is only known at run time."""


def memref_for_tensor(
    tensor_type: TensorType[Attribute], layout: LayoutKind = "identity"
) -> MemRefType[Attribute]:
    """The buffer type of a ranked tensor type: same shape and element type."""
    shape = tensor_type.get_shape()
    if layout == "identity":
        return MemRefType(tensor_type.get_element_type(), shape)
    return MemRefType(
        tensor_type.get_element_type(),
        shape,
        StridedLayoutAttr([None] * len(shape), None),
    )


def tensor_for_memref(memref_type: MemRefType[Attribute]) -> TensorType[Attribute]:
    """The tensor type a buffer holds (layout and memory space dropped)."""
    return TensorType(memref_type.get_element_type(), memref_type.get_shape())


def is_identity(memref_type: MemRefType[Attribute]) -> bool:
    """Whether the buffer has the identity (row-major, offset 0) layout."""
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        return True
    strides, offset = strides_and_offset(memref_type)
    return (
        offset == 0
        and all(s is not None for s in strides)
        and tuple(strides) == tuple(ShapedType.strides_for_shape(memref_type.get_shape()))
        and all(d != DYNAMIC_INDEX for d in memref_type.get_shape())
    )


def strides_and_offset(memref_type: MemRefType[Attribute]) -> tuple[list[Static], Static]:
    """Strides and offset of a buffer; all dynamic for a layout without strides."""
    strides = memref_type.get_strides()
    if strides is None:
        return [None] * memref_type.get_num_dims(), None
    return list(strides), memref_type.get_offset()


def _strided(
    element_type: Attribute,
    shape: Sequence[int],
    strides: Sequence[Static],
    offset: Static,
    memory_space: Attribute,
) -> MemRefType[Attribute]:
    return MemRefType(element_type, shape, StridedLayoutAttr(strides, offset), memory_space)


def rank_reduction_mask(sizes: Sequence[int], reduced_shape: Sequence[int]) -> set[int] | None:
    """Dims of `sizes` a rank-reducing slice to `reduced_shape` drops (upstream's greedy rule).

    Dynamic sizes (DYNAMIC_INDEX) match anything that is not a static 1; None when
    `reduced_shape` is not `sizes` with unit dims dropped.
    """
    dropped: set[int] = set()
    j = 0
    for i, size in enumerate(sizes):
        if j < len(reduced_shape):
            want = reduced_shape[j]
            dynamic = size == DYNAMIC_INDEX or want == DYNAMIC_INDEX
            if (dynamic and size != 1) or size == want:
                j += 1
                continue
        dropped.add(i)
        if size != 1:
            return None
    return dropped if j == len(reduced_shape) else None


def subview_type(
    source: MemRefType[Attribute],
    offsets: Sequence[Static],
    sizes: Sequence[Static],
    steps: Sequence[Static],
    dropped: AbstractSet[int] = frozenset(),
) -> MemRefType[Attribute]:
    """The result type of `memref.subview` (upstream's inference, with `dropped` unit dims)."""
    src_strides, src_offset = strides_and_offset(source)
    offset = src_offset
    for off, stride in zip(offsets, src_strides, strict=True):
        if off == 0:
            continue
        if offset is None or off is None or stride is None:
            offset = None
            break
        offset += off * stride
    shape: list[int] = []
    strides: list[Static] = []
    for dim, (size, step, stride) in enumerate(zip(sizes, steps, src_strides, strict=True)):
        if dim in dropped:
            continue
        shape.append(DYNAMIC_INDEX if size is None else size)
        strides.append(None if step is None or stride is None else step * stride)
    return _strided(source.get_element_type(), shape, strides, offset, source.memory_space)


def collapse_type(
    source: MemRefType[Attribute], groups: Sequence[Sequence[int]]
) -> MemRefType[Attribute] | None:
    """The `memref.collapse_shape` result type, or None when the source layout may not be
    collapsible (a group whose dims are not provably contiguous)."""
    src_shape = source.get_shape()
    shape: list[int] = []
    for group in groups:
        size = 1
        for dim in group:
            if src_shape[dim] == DYNAMIC_INDEX:
                size = DYNAMIC_INDEX
                break
            size *= src_shape[dim]
        shape.append(size)
    if is_identity(source) or isinstance(source.layout, NoneAttr):
        return MemRefType(source.get_element_type(), shape, NoneAttr(), source.memory_space)
    src_strides, offset = strides_and_offset(source)
    strides: list[Static] = []
    for group in groups:
        # Unit dims may have any stride; the others must nest exactly.
        kept = [d for d in group if src_shape[d] != 1] or [group[-1]]
        for outer, inner in itertools.pairwise(kept):
            s_out, s_in, n_in = src_strides[outer], src_strides[inner], src_shape[inner]
            if s_out is None or s_in is None or n_in == DYNAMIC_INDEX or s_out != s_in * n_in:
                return None
        strides.append(src_strides[kept[-1]])
    return _strided(source.get_element_type(), shape, strides, offset, source.memory_space)


def expand_type(
    source: MemRefType[Attribute], groups: Sequence[Sequence[int]], shape: Sequence[int]
) -> MemRefType[Attribute]:
    """The `memref.expand_shape` result type (always representable)."""
    if isinstance(source.layout, NoneAttr):
        return MemRefType(source.get_element_type(), shape, NoneAttr(), source.memory_space)
    src_strides, offset = strides_and_offset(source)
    strides: list[Static] = [None] * len(shape)
    for src_dim, group in enumerate(groups):
        stride = src_strides[src_dim]
        for dim in reversed(group):
            strides[dim] = stride
            if stride is not None and shape[dim] != DYNAMIC_INDEX:
                stride = stride * shape[dim]
            else:
                stride = None
    return _strided(source.get_element_type(), shape, strides, offset, source.memory_space)


def with_shape(memref_type: MemRefType[Attribute], shape: Sequence[int]) -> MemRefType[Attribute]:
    """`memref_type` with another (cast-compatible) shape and the same layout."""
    return MemRefType(
        memref_type.get_element_type(), shape, memref_type.layout, memref_type.memory_space
    )


def cast_is_safe(source: MemRefType[Attribute], target: MemRefType[Attribute]) -> bool:
    """Whether `memref.cast source -> target` is valid for every buffer of type `source`.

    Shapes must agree where both are static; every static stride/offset of `target` must be
    the same static value in `source` (identity layouts compare as themselves).
    """
    if source == target:
        return True
    if (
        source.get_element_type() != target.get_element_type()
        or source.memory_space != target.memory_space
        or source.get_num_dims() != target.get_num_dims()
    ):
        return False
    for a, b in zip(source.get_shape(), target.get_shape(), strict=True):
        if a != b and a != DYNAMIC_INDEX and b != DYNAMIC_INDEX:
            return False
    if isinstance(target.layout, NoneAttr):
        # An identity target needs a source that is identity for every runtime shape.
        if isinstance(source.layout, NoneAttr):
            return True
        return is_identity(source) and all(d != DYNAMIC_INDEX for d in target.get_shape())
    src_strides, src_offset = strides_and_offset(source)
    dst_strides, dst_offset = strides_and_offset(target)
    if isinstance(source.layout, NoneAttr) and any(d == DYNAMIC_INDEX for d in source.get_shape()):
        # Identity strides of a dynamic shape are only known at run time.
        src_strides = [
            s if all(d != DYNAMIC_INDEX for d in source.get_shape()[i + 1 :]) else None
            for i, s in enumerate(src_strides)
        ]
    if dst_offset is not None and dst_offset != src_offset:
        return False
    return all(d is None or d == s for s, d in zip(src_strides, dst_strides, strict=True))


def join_types(types: Sequence[MemRefType[Attribute]]) -> MemRefType[Attribute] | None:
    """A type every one of `types` casts to safely (for values merged by `scf.if`), if any."""
    first = types[0]
    if all(t == first for t in types):
        return first
    if any(
        t.get_element_type() != first.get_element_type()
        or t.memory_space != first.memory_space
        or t.get_num_dims() != first.get_num_dims()
        for t in types
    ):
        return None
    shape = [
        dims[0] if all(d == dims[0] for d in dims) else DYNAMIC_INDEX
        for dims in zip(*(t.get_shape() for t in types), strict=True)
    ]
    if all(isinstance(t.layout, NoneAttr) for t in types):
        return MemRefType(first.get_element_type(), shape, NoneAttr(), first.memory_space)
    joined = _strided(
        first.get_element_type(), shape, [None] * len(shape), None, first.memory_space
    )
    return joined if all(cast_is_safe(t, joined) for t in types) else None


def static_or_none(values: Sequence[int]) -> list[Static]:
    """DYNAMIC_INDEX entries of a static index list as None."""
    return [None if v == DYNAMIC_INDEX else v for v in values]


def ranked_tensor(value_type: Attribute) -> TensorType[Attribute] | None:
    """`value_type` as a ranked tensor type, if it is one."""
    return cast(TensorType[Attribute], value_type) if isinstance(value_type, TensorType) else None


__all__ = [
    "LayoutKind",
    "Static",
    "cast_is_safe",
    "collapse_type",
    "expand_type",
    "is_identity",
    "join_types",
    "memref_for_tensor",
    "rank_reduction_mask",
    "ranked_tensor",
    "static_or_none",
    "strides_and_offset",
    "subview_type",
    "tensor_for_memref",
    "with_shape",
]
