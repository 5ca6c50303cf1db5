"""The pattern sets of the `transform.apply_patterns.memref.*` descriptors.

`schedir.transform.ops.memref` joins each descriptor class to its set here. Upstream's sets (mlir/lib/Dialect/MemRef/Transforms/
FoldMemRefAliasOps.cpp, AllocationOpInterfaceImpl, MemRefTransformOps.cpp):

* `memref.fold_memref_alias_ops`: loads and stores through a `memref.subview` access the
  subview's source at `offset + index * stride` (`memref.load`/`store`,
  `vector.load`/`store`, unmasked in-bounds `vector.transfer_read`/`write`, whose
  permutation map gains the dropped dimensions), and a subview of a subview becomes one
  subview of the first source (unit strides):

      %s = memref.subview %m[%i, 4] [8, 8] [1, 1] : memref<64x64xf32> to memref<8x8xf32, strided<[64, 1], offset: ?>>
      %v = memref.load %s[%a, %b] : memref<8x8xf32, strided<[64, 1], offset: ?>>
      // ->
      %x = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%i, %a]
      %y = affine.apply affine_map<()[s0] -> (s0 + 4)>()[%b]
      %v = memref.load %m[%x, %y] : memref<64x64xf32>

* `memref.alloc_to_alloca size_limit(N)`: a statically shaped `memref.alloc` of fewer
  than N bytes (any size without a limit) that a later `memref.dealloc` of its block frees
  becomes a `memref.alloca`, and that dealloc goes.

Index arithmetic is built with upstream's `makeComposedFoldedAffineApply`
(`canonicalize.affine.composed_folded_apply`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    MemRefType,
    i64,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr

from schedir.dialects import vector
from schedir.dialects.memref import AllocaOp
from schedir.transform.rewrites.canonicalize.affine import composed_folded_apply
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.promotion import element_bytes
from schedir.transform.rewrites.rewriter import CanonRewriter

Mixed = int | SSAValue


# --- subview geometry --------------------------------------------------------------------


def _mixed(op: Operation, name: str, operands: Sequence[SSAValue]) -> list[Mixed]:
    static = op.properties[name].get_values()  # type: ignore[union-attr]  # the verified op holds that property with this attribute kind
    it = iter(operands)
    return [next(it) if v == DYNAMIC_INDEX else v for v in static]


def subview_lists(view: xmemref.SubviewOp) -> tuple[list[Mixed], list[Mixed], list[Mixed]]:
    """Mixed offsets, sizes and strides of a subview."""
    return (
        _mixed(view, "static_offsets", view.offsets),
        _mixed(view, "static_sizes", view.sizes),
        _mixed(view, "static_strides", view.strides),
    )


def dropped_dims(view: xmemref.SubviewOp) -> set[int]:
    """Upstream's `getDroppedDims`: the unit source dims a rank-reducing subview drops."""
    sizes = subview_lists(view)[1]
    result_shape = list(cast(MemRefType[Attribute], view.result.type).get_shape())
    if len(result_shape) == len(sizes):
        return set()
    dropped: set[int] = set()
    j = 0
    for d, size in enumerate(sizes):
        static = size if isinstance(size, int) else DYNAMIC_INDEX
        if j < len(result_shape) and static == result_shape[j]:
            j += 1
        elif static == 1:
            dropped.add(d)
        else:
            j += 1
    return dropped


def _unit_strides(strides: Sequence[Mixed]) -> bool:
    return all(constant_int(s) == 1 for s in strides)


def resolve_indices(
    rw: CanonRewriter,
    loc: Operation,
    offsets: Sequence[Mixed],
    strides: Sequence[Mixed],
    dropped: set[int],
    indices: Sequence[Mixed],
) -> list[SSAValue]:
    """Upstream's `resolveIndicesIntoOpWithOffsetsAndStrides`: the source index of each
    source dim, `offset + index * stride` (a dropped dim is indexed at 0)."""
    consumer = iter(indices)
    resolved: list[SSAValue] = []
    for dim, (offset, stride) in enumerate(zip(offsets, strides, strict=True)):
        index: Mixed = 0 if dim in dropped else next(consumer)
        operands: list[SSAValue] = []
        parts: list[AffineExpr] = []
        for value in (offset, index, stride):
            if isinstance(value, int):
                parts.append(AffineExpr.constant(value))
            else:
                parts.append(AffineSymExpr(len(operands)))
                operands.append(value)
        expr = parts[0] + parts[1] * parts[2] if _mul_ok(parts[1], parts[2]) else None
        if expr is None:
            # A symbolic index times a symbolic stride is not affine: stay in arith.
            product = rw.create(arith.MuliOp(_value(rw, index, loc), _value(rw, stride, loc)), loc)
            sum_ = rw.create(arith.AddiOp(_value(rw, offset, loc), product.results[0]), loc)
            resolved.append(sum_.results[0])
            continue
        resolved.append(
            composed_folded_apply(rw, AffineMap(0, len(operands), (expr,)), operands, loc)
        )
    return resolved


def _mul_ok(a: AffineExpr, b: AffineExpr) -> bool:
    return not (isinstance(a, AffineSymExpr) and isinstance(b, AffineSymExpr))


def _value(rw: CanonRewriter, value: Mixed, loc: Operation) -> SSAValue:
    return value if isinstance(value, SSAValue) else rw.constant_index(value, loc)


def _subview_of(value: SSAValue) -> xmemref.SubviewOp | None:
    owner = value.owner if isinstance(value, OpResult) else None
    return owner if isinstance(owner, xmemref.SubviewOp) else None


# --- fold_memref_alias_ops ------------------------------------------------------------------


def _load_of_subview(op: xmemref.LoadOp | vector.LoadOp, rw: CanonRewriter) -> bool:
    """memref.load / vector.load through a subview."""
    view = _subview_of(op.operands[0])
    if view is None:
        return False
    offsets, _, strides = subview_lists(view)
    rw.set_insertion_point(op)
    indices = resolve_indices(rw, op, offsets, strides, dropped_dims(view), list(op.operands[1:]))
    new = type(op).build(
        operands=[view.source, indices],
        result_types=[r.type for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    rw.replace_with_op(op, new)
    return True


def _store_of_subview(op: xmemref.StoreOp | vector.StoreOp, rw: CanonRewriter) -> bool:
    """memref.store / vector.store through a subview."""
    view = _subview_of(op.operands[1])
    if view is None:
        return False
    offsets, _, strides = subview_lists(view)
    rw.set_insertion_point(op)
    indices = resolve_indices(rw, op, offsets, strides, dropped_dims(view), list(op.operands[2:]))
    new = type(op).build(
        operands=[op.operands[0], view.source, indices],
        result_types=[],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    rw.replace_with_op(op, new)
    return True


def _expand_dims_to_rank(map_: AffineMap, rank: int, dropped: set[int]) -> AffineMap:
    """Upstream's `expandDimsToRank`: the map over the source's dims (dropped ones unused)."""
    kept = [d for d in range(rank) if d not in dropped]
    dims = [AffineDimExpr(kept[i]) for i in range(map_.num_dims)]
    return AffineMap(
        rank, map_.num_symbols, tuple(r.replace_dims_and_symbols(dims, []) for r in map_.results)
    )


def _transfer_precondition(op: Operation, view: xmemref.SubviewOp) -> bool:
    """Upstream's `preconditionsFoldSubViewOpImpl` for transfers."""
    map_ = cast(AffineMapAttr, op.properties["permutation_map"]).data
    if not map_.results:
        return False  # 0-d transfer
    in_bounds = op.properties.get("in_bounds")
    flags = [bool(getattr(a, "value", a).data) for a in getattr(in_bounds, "data", ())]  # type: ignore[union-attr]  # in_bounds holds BoolAttr or i1 IntegerAttr entries, both with .data
    if not flags or not all(flags):
        return False  # an out-of-bounds dimension
    if getattr(op, "mask", None) is not None:
        return False
    return _unit_strides(subview_lists(view)[2])


def _transfer_through_subview(
    op: vector.TransferReadOp | vector.TransferWriteOp, rw: CanonRewriter
) -> bool:
    """vector.transfer_read / transfer_write through a subview."""
    is_read = isinstance(op, vector.TransferReadOp)
    source_index = 0 if is_read else 1
    view = _subview_of(op.operands[source_index])
    if view is None or not _transfer_precondition(op, view):
        return False
    offsets, _, strides = subview_lists(view)
    dropped = dropped_dims(view)
    rw.set_insertion_point(op)
    indices_op = list(op.indices)
    indices = resolve_indices(rw, op, offsets, strides, dropped, indices_op)
    rank = len(cast(MemRefType[Attribute], view.source.type).get_shape())
    old_map = cast(AffineMapAttr, op.properties["permutation_map"]).data
    properties = dict(op.properties)
    properties.pop("operandSegmentSizes", None)
    properties["permutation_map"] = AffineMapAttr(_expand_dims_to_rank(old_map, rank, dropped))
    if isinstance(op, vector.TransferReadOp):
        operands: list[SSAValue | Sequence[SSAValue]] = [view.source, indices, op.padding, []]
    else:
        operands = [op.operands[0], view.source, indices, []]
    new = type(op).build(
        operands=operands,
        result_types=[r.type for r in op.results] if is_read else [[]],
        properties=properties,
        attributes=dict(op.attributes),
    )
    rw.replace_with_op(op, new)
    return True


def _subview_of_subview(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `SubViewOfSubViewFolder` (unit strides)."""
    assert isinstance(op, xmemref.SubviewOp)
    inner = _subview_of(op.source)
    if inner is None:
        return False
    offsets, sizes, strides = subview_lists(op)
    inner_offsets, inner_sizes, inner_strides = subview_lists(inner)
    if not _unit_strides(strides) or not _unit_strides(inner_strides):
        return False
    dropped = dropped_dims(inner)
    consumer = iter(sizes)
    resolved_sizes: list[Mixed] = [
        1 if d in dropped else next(consumer) for d in range(len(inner_sizes))
    ]
    rw.set_insertion_point(op)
    resolved = resolve_indices(rw, op, inner_offsets, inner_strides, dropped, offsets)
    new_offsets: list[Mixed] = []
    for value in resolved:
        constant = constant_int(value)
        new_offsets.append(constant if constant is not None else value)
    new = xmemref.SubviewOp.get(
        inner.source, new_offsets, resolved_sizes, inner_strides, op.result.type
    )
    rw.replace_with_op(op, new)
    return True


def fold_memref_alias_ops_patterns() -> PatternSet:
    """`transform.apply_patterns.memref.fold_memref_alias_ops`."""
    return (
        PatternSet()
        .add(xmemref.LoadOp, _load_of_subview)
        .add(vector.LoadOp, _load_of_subview)
        .add(xmemref.StoreOp, _store_of_subview)
        .add(vector.StoreOp, _store_of_subview)
        .add(vector.TransferReadOp, _transfer_through_subview)
        .add(vector.TransferWriteOp, _transfer_through_subview)
        .add(xmemref.SubviewOp, _subview_of_subview)
    )


# --- expand_strided_metadata ---------------------------------------------------------------


def _strides_offset(t: MemRefType[Attribute]) -> tuple[list[int | None], int | None]:
    strides = t.get_strides()
    if strides is None:
        return [None] * len(t.get_shape()), None
    return list(strides), t.get_offset()


def _metadata(
    rw: CanonRewriter, source: SSAValue, loc: Operation
) -> xmemref.ExtractStridedMetaDataOp:
    meta = xmemref.ExtractStridedMetaDataOp(source)
    meta.results[0].name_hint = "base_buffer"
    meta.results[1].name_hint = "offset"
    rw.create(meta, loc)
    return meta


def _apply_sum(
    rw: CanonRewriter, loc: Operation, terms: Sequence[tuple[Mixed, Mixed]], base: Mixed
) -> Mixed:
    """`base + sum(a * b)` as one folded affine.apply (constants folded, a symbol times a
    symbol left to arith)."""
    operands: list[SSAValue] = []

    def expr_of(value: Mixed) -> AffineExpr:
        if isinstance(value, int):
            return AffineExpr.constant(value)
        operands.append(value)
        return AffineSymExpr(len(operands) - 1)

    total = expr_of(base)
    for a, b in terms:
        if isinstance(a, SSAValue) and isinstance(b, SSAValue):
            product = rw.create(arith.MuliOp(a, b), loc).results[0]
            total = total + expr_of(product)
        else:
            total = total + expr_of(a) * expr_of(b)
    value = composed_folded_apply(rw, AffineMap(0, len(operands), (total,)), operands, loc)
    constant = constant_int(value)
    return constant if constant is not None else value


def _subview_to_reinterpret_cast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `SubviewFolder`: a subview is a `reinterpret_cast` of its source's base
    buffer at `offset + sum(offset_i * stride_i)` with strides `stride_i * step_i`."""
    assert isinstance(op, xmemref.SubviewOp)
    source_type = cast(MemRefType[Attribute], op.source.type)
    if source_type.get_strides() is None:
        return False
    offsets, sizes, steps = subview_lists(op)
    static_strides, static_offset = _strides_offset(source_type)
    rw.set_insertion_point(op)
    meta = _metadata(rw, op.source, op)
    rank = len(static_strides)
    strides: list[Mixed] = [
        s if s is not None else meta.results[2 + rank + d] for d, s in enumerate(static_strides)
    ]
    base_offset: Mixed = static_offset if static_offset is not None else meta.results[1]
    new_offset = _apply_sum(rw, op, list(zip(offsets, strides, strict=True)), base_offset)
    dropped = dropped_dims(op)
    kept = [d for d in range(rank) if d not in dropped]
    new_sizes = [sizes[d] for d in kept]
    new_strides = [_apply_sum(rw, op, [(strides[d], steps[d])], 0) for d in kept]
    cast_op = xmemref.ReinterpretCastOp.build(
        operands=[
            meta.results[0],
            [v for v in [new_offset] if isinstance(v, SSAValue)],
            [v for v in new_sizes if isinstance(v, SSAValue)],
            [v for v in new_strides if isinstance(v, SSAValue)],
        ],
        result_types=[op.results[0].type],
        properties={
            "static_offsets": _static([new_offset]),
            "static_sizes": _static(new_sizes),
            "static_strides": _static(new_strides),
        },
    )
    cast_op.results[0].name_hint = "reinterpret_cast"
    rw.replace_with_op(op, cast_op)
    return True


def _static(values: Sequence[Mixed]) -> Attribute:
    return DenseArrayBase.from_list(
        i64, [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    )


def _replace_metadata(
    rw: CanonRewriter,
    meta: Operation,
    base: SSAValue | None,
    offset: Mixed,
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed],
) -> None:
    """Replace the results of an extract_strided_metadata (constants materialized)."""
    values: list[SSAValue | None] = [base]
    for value in (offset, *sizes, *strides):
        values.append(value if isinstance(value, SSAValue) else rw.constant_index(value, meta))
    if base is None:
        values[0] = meta.results[0]
        for old, new in zip(meta.results[1:], values[1:], strict=True):
            assert new is not None
            rw.replace_all_uses_with(old, new)
        return
    rw.replace(meta, [], values)


def _metadata_of_producer(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's folders of `extract_strided_metadata` by producer: an allocation (offset
    0, its sizes, row-major strides), a `reinterpret_cast` (its operands), a `memref.cast`
    (the source's metadata); and the static fields of any source type as constants."""
    source = op.operands[0]
    producer = source.owner if isinstance(source, OpResult) else None
    rw.set_insertion_point(op)
    source_type = cast(MemRefType[Attribute], source.type)
    shape = list(source_type.get_shape())
    if (
        isinstance(producer, xmemref.AllocOp | xmemref.AllocaOp)
        and source_type.get_strides() is not None
        and isinstance(source_type.layout, type(MemRefType(source_type.element_type, [1]).layout))
    ):
        dynamic = iter(producer.dynamic_sizes)
        sizes: list[Mixed] = [next(dynamic) if d == DYNAMIC_INDEX else d for d in shape]
        strides: list[Mixed] = [1] * len(shape)
        running: Mixed = 1
        for d in range(len(shape) - 1, -1, -1):
            strides[d] = running
            running = _apply_sum(rw, op, [(running, sizes[d])], 0)
        base = None
        if op.results[0].uses:
            zero_d = MemRefType(
                source_type.element_type, [], source_type.layout, source_type.memory_space
            )
            reinterpret = xmemref.ReinterpretCastOp.build(
                operands=[source, [], [], []],
                result_types=[zero_d],
                properties={
                    "static_offsets": _static([0]),
                    "static_sizes": _static([]),
                    "static_strides": _static([]),
                },
            )
            base = rw.create(reinterpret, op).results[0]
        _replace_metadata(rw, op, base, 0, sizes, strides)
        return True
    if isinstance(producer, xmemref.ReinterpretCastOp):
        inner = _metadata(rw, producer.source, op)
        offsets = _mixed(producer, "static_offsets", producer.offsets)
        sizes = _mixed(producer, "static_sizes", producer.sizes)
        strides = _mixed(producer, "static_strides", producer.strides)
        _replace_metadata(rw, op, inner.results[0], offsets[0], sizes, strides)
        return True
    if isinstance(producer, xmemref.CastOp):
        inner = _metadata(rw, producer.operands[0], op)
        rw.replace(op, [], list(inner.results))
        return True
    # Upstream's ExtractStridedMetadataOp::fold: static fields become constants.
    static_strides, static_offset = _strides_offset(source_type)
    changed = False
    fields: list[tuple[SSAValue, int | None]] = [(op.results[1], static_offset)]
    fields += [(op.results[2 + d], None if n == DYNAMIC_INDEX else n) for d, n in enumerate(shape)]
    fields += [(op.results[2 + len(shape) + d], s) for d, s in enumerate(static_strides)]
    for result, value in fields:
        if value is not None and result.uses:
            rw.replace_all_uses_with(result, rw.constant_index(value, op))
            changed = True
    return changed


def expand_strided_metadata_patterns() -> PatternSet:
    """`transform.apply_patterns.memref.expand_strided_metadata` (the subview, allocation,
    reinterpret_cast, cast and static-field folders; reshapes keep their ops)."""
    return (
        PatternSet()
        .add(xmemref.SubviewOp, _subview_to_reinterpret_cast)
        .add(xmemref.ExtractStridedMetaDataOp, _metadata_of_producer)
    )


# --- alloc_to_alloca -----------------------------------------------------------------------


def _byte_size(t: MemRefType[Attribute]) -> int | None:
    shape = t.get_shape()
    if any(d == DYNAMIC_INDEX for d in shape):
        return None
    count = 1
    for d in shape:
        count *= d
    try:
        return count * element_bytes(t.get_element_type())
    except Exception:
        return None


def alloc_to_alloca_patterns(size_limit: int | None) -> PatternSet:
    """`transform.apply_patterns.memref.alloc_to_alloca size_limit(N)`."""

    def alloc_to_alloca(op: Operation, rw: CanonRewriter) -> bool:
        # Upstream's `memref::allocToAlloca`: the first later dealloc of the buffer in its
        # block, for a static buffer smaller than the limit (0: no limit).
        size = _byte_size(cast(MemRefType[Attribute], op.results[0].type))
        if size is None or (size_limit and size >= size_limit):
            return False
        dealloc = op.next_op
        while dealloc is not None and not (
            isinstance(dealloc, xmemref.DeallocOp) and dealloc.operands[0] is op.results[0]
        ):
            dealloc = dealloc.next_op
        if dealloc is None:
            return False
        alloca = AllocaOp.build(operands=[list(op.operands), []], result_types=[op.results[0].type])
        alloca.results[0].name_hint = "alloca"
        rw.erase(dealloc)
        rw.replace_with_op(op, alloca)
        return True

    return PatternSet().add(xmemref.AllocOp, alloc_to_alloca)


__all__ = [
    "alloc_to_alloca_patterns",
    "dropped_dims",
    "expand_strided_metadata_patterns",
    "fold_memref_alias_ops_patterns",
    "resolve_indices",
]
