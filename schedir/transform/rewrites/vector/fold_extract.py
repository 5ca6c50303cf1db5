"""Folders of `vector.extract` and `vector.insert` (upstream's ExtractOp::fold and
InsertOp::fold).

An extract folds through the op that made its source when the value is known there:
constants, extracts of extracts, inserts and transposes at the same position, broadcasts,
shuffles, shape casts, strided slices and from_elements; an insert folds into a constant
or away when it overwrites everything. Positions that are constants fold into the static
position.

    %i = vector.insert %s, %v [1] : f32 into vector<4xf32>
    %e = vector.extract %i[1] : f32 from vector<4xf32>     // folds to %s
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.dialects import vector
from schedir.dialects.vector.attributes import dense_ints, int_values
from schedir.dialects.vector.shape import POISON_INDEX
from schedir.transform.rewrites.constants import constant_attr, constant_int
from schedir.transform.rewrites.greedy import FoldResult
from schedir.transform.rewrites.vector.insert_chains import WALK_LIMIT
from schedir.transform.rewrites.vector.utils import (
    defining,
    dense_constant,
    dense_of,
    dense_values,
    linearize,
    row_major_strides,
)

Positioned = vector.ExtractOp | vector.InsertOp
"""The ops with a static position and dynamic position operands."""

# --- helpers --------------------------------------------------------------------------------


def _scalar_attr(t: Attribute, value: int | float) -> Attribute:
    if isinstance(t, AnyFloat):
        return FloatAttr(float(value), t)
    return IntegerAttr(int(value), cast(IntegerType | IndexType, t))


def _set_position(op: Positioned, positions: Sequence[int]) -> None:
    op.properties["static_position"] = DenseArrayBase.from_list(i64, list(positions))


def _static_pos(op: Positioned) -> list[int]:
    return list(dense_ints(op.static_position))


def _has_dynamic(op: Positioned) -> bool:
    return DYNAMIC_INDEX in dense_ints(op.static_position)


def _is_broadcast_like(op: Operation) -> bool:
    """Broadcasts, and shape_casts that only prepend unit dims."""
    if isinstance(op, vector.BroadcastOp):
        return True
    if isinstance(op, vector.ShapeCastOp):
        src = cast(VectorType, op.source.type).get_shape()
        dst = cast(VectorType, op.result.type).get_shape()
        return len(dst) >= len(src) and tuple(dst[len(dst) - len(src) :]) == tuple(src)
    return False


def _fold_constant_positions(op: Positioned, shape: Sequence[int], first_dynamic: int) -> bool:
    """Upstream's `extractInsertFoldConstantOp`: constant dynamic positions become static."""
    static = _static_pos(op)
    dynamic = list(op.operands[first_dynamic:])
    if not dynamic:
        return False
    kept: list[SSAValue] = []
    changed = False
    it = iter(dynamic)
    for i, pos in enumerate(static):
        if pos != DYNAMIC_INDEX:
            continue
        value = next(it)
        c = constant_int(value)
        if c is not None and -1 <= c < shape[i]:
            static[i] = c
            changed = True
            continue
        kept.append(value)
    if not changed:
        return False
    _set_position(op, static)
    op.operands = [*op.operands[:first_dynamic], *kept]
    return True


# --- extract ----------------------------------------------------------------------------------


def fold_extract(op: Operation) -> FoldResult:
    assert isinstance(op, vector.ExtractOp)
    if not _static_pos(op) and op.vector.type == op.result.type:
        return [op.vector]
    src_type = cast(VectorType, op.vector.type)
    in_place = _fold_constant_positions(op, src_type.get_shape(), 1)
    static = _static_pos(op)
    if POISON_INDEX in static:
        return True if in_place else None
    for fold in (
        _extract_from_dense,
        _extract_from_extract,
        _extract_from_insert_transpose,
        _extract_from_broadcast,
        _extract_from_shuffle,
        _extract_from_shape_cast,
        _extract_from_extract_strided,
        _extract_from_insert_strided,
        _extract_from_from_elements,
    ):
        result = fold(op)
        if result is not None:
            return result
    return True if in_place else None


def _extract_from_dense(op: vector.ExtractOp) -> FoldResult:
    dense = dense_constant(op.vector)
    if dense is None or _has_dynamic(op):
        return None
    src = cast(VectorType, op.vector.type)
    res = op.result.type
    values = dense_values(dense)
    if len(values) == 1:
        if isinstance(res, VectorType):
            return [dense_of(res, values)]
        return [_scalar_attr(res, values[0])]
    pos = _static_pos(op) + [0] * (src.get_num_dims() - len(_static_pos(op)))
    start = linearize(pos, row_major_strides(src.get_shape()))
    if isinstance(res, VectorType):
        return [dense_of(res, values[start : start + res.element_count()])]
    return [_scalar_attr(res, values[start])]


def _extract_from_extract(op: vector.ExtractOp) -> FoldResult:
    inner = defining(op.vector, vector.ExtractOp)
    if inner is None or _has_dynamic(op):
        return None
    positions = _static_pos(op)
    source = op.vector
    while isinstance(owner := source.owner, vector.ExtractOp):
        if _has_dynamic(owner):
            return None
        positions = _static_pos(owner) + positions
        source = owner.vector
    op.operands = [source, *op.operands[1:]]
    _set_position(op, positions)
    return True


def _extract_from_insert_transpose(op: vector.ExtractOp) -> FoldResult:
    """Upstream's `ExtractFromInsertTransposeChainState::fold`, walking at most
    `WALK_LIMIT` links (longer chains are left to `resolve_insert_chain`)."""
    if _has_dynamic(op):
        return None
    src_rank = cast(VectorType, op.vector.type).get_num_dims()
    extracted_rank = len(_static_pos(op))
    sentinels = [-(i + 1) for i in range(src_rank - extracted_rank)]
    position = _static_pos(op) + sentinels
    value = op.vector

    def can_fold() -> bool:
        return position[len(position) - len(sentinels) :] == sentinels if sentinels else True

    def fold_in_place(source: SSAValue) -> FoldResult:
        if source is op.vector or not can_fold():
            return None
        _set_position(op, position[:extracted_rank])
        op.operands = [source, *op.operands[1:]]
        return True

    for _ in range(WALK_LIMIT + 1):
        owner = value.owner
        if isinstance(owner, vector.TransposeOp):
            perm = owner.perm()
            inverse = [0] * len(perm)
            for i, p in enumerate(perm):
                inverse[p] = i
            # applyPermutationMap(inversePermutation(perm), position)
            position = [position[inverse[i]] for i in range(len(perm))]
            value = owner.vector
            continue
        if not isinstance(owner, vector.InsertOp):
            break
        if _has_dynamic(owner):
            return None
        inserted = _static_pos(owner)
        if inserted == position[:extracted_rank]:
            return [owner.source] if can_fold() else None
        if len(inserted) <= len(position) and position[: len(inserted)] == inserted:
            position = position[len(inserted) :]
            extracted_rank = len(position) - len(sentinels)
            return fold_in_place(owner.source)
        if _intersects(position, inserted):
            return None
        value = owner.dest
    else:
        # A long chain: `resolve_insert_chain` indexes it once for all its extracts.
        return None
    return fold_in_place(value)


def _intersects(a: Sequence[int], b: Sequence[int]) -> bool:
    if len(a) <= len(b) and list(b[: len(a)]) == list(a):
        return True
    return all(x == y for x, y in zip(a, b, strict=False) if x >= 0 and y >= 0)


def _extract_from_broadcast(op: vector.ExtractOp) -> FoldResult:
    owner = op.vector.owner
    if not isinstance(owner, Operation) or not _is_broadcast_like(owner):
        return None
    source = owner.operands[0]
    if op.result.type == source.type:
        return [source]
    in_type = source.type if isinstance(source.type, VectorType) else None
    res_type = op.result.type if isinstance(op.result.type, VectorType) else None
    in_rank = in_type.get_num_dims() if in_type else 0
    bcast_rank = cast(VectorType, op.vector.type).get_num_dims()
    res_rank = res_type.get_num_dims() if res_type else 0
    if res_rank > in_rank or in_type is None:
        return None
    in_shape = in_type.get_shape()
    if res_type is not None and tuple(res_type.get_shape()) != tuple(
        in_shape[in_rank - res_rank :]
    ):
        return None
    delta_overall = in_rank - res_rank
    delta_bcast = bcast_rank - in_rank
    old = op.get_mixed_position()
    new: list[int | SSAValue] = []
    for i, size in enumerate(in_shape[:delta_overall]):
        new.append(0 if size == 1 else old[i + delta_bcast])
    static = [p if isinstance(p, int) else DYNAMIC_INDEX for p in new]
    dynamic = [p for p in new if isinstance(p, SSAValue)]
    op.operands = [source, *dynamic]
    _set_position(op, static)
    return True


def _extract_from_shuffle(op: vector.ExtractOp) -> FoldResult:
    shuffle = defining(op.vector, vector.ShuffleOp)
    if shuffle is None or _has_dynamic(op):
        return None
    if cast(VectorType, shuffle.result.type).get_num_dims() != 1:
        return None
    v1_size = cast(VectorType, shuffle.v1.type).get_shape()[0]
    mask = [int(m) for m in shuffle.mask.get_values()]
    index = mask[_static_pos(op)[0]]
    if index == POISON_INDEX:
        return None
    if index < v1_size:
        op.operands = [shuffle.v1]
        _set_position(op, [index])
    else:
        op.operands = [shuffle.v2]
        _set_position(op, [index - v1_size])
    return True


def _extract_from_shape_cast(op: vector.ExtractOp) -> FoldResult:
    cast_op = defining(op.vector, vector.ShapeCastOp)
    if cast_op is None or _has_dynamic(op):
        return None
    src = cast(VectorType, cast_op.source.type)
    ext_src = cast(VectorType, op.vector.type)
    res = op.result.type
    dest_rank = res.get_num_dims() if isinstance(res, VectorType) else 0
    if dest_rank > src.get_num_dims():
        return None
    if isinstance(res, VectorType):
        for i in range(dest_rank):
            if src.get_shape()[-1 - i] != res.get_shape()[-1 - i]:
                return None
    extracted = list(reversed(_static_pos(op)))
    strides: list[int] = []
    stride = 1
    for i in range(len(extracted)):
        strides.append(stride)
        stride *= ext_src.get_shape()[-1 - (i + dest_rank)]
    position = sum(p * s for p, s in zip(extracted, strides, strict=True))
    new_strides: list[int] = []
    stride = 1
    for i in range(src.get_num_dims() - dest_rank):
        new_strides.append(stride)
        stride *= src.get_shape()[-1 - (i + dest_rank)]
    new_strides.reverse()
    new_position: list[int] = []
    for s in new_strides:
        new_position.append(position // s)
        position %= s
    _set_position(op, new_position)
    op.operands = [cast_op.source]
    return True


def _extract_from_extract_strided(op: vector.ExtractOp) -> FoldResult:
    slice_op = defining(op.vector, vector.ExtractStridedSliceOp)
    if slice_op is None or _has_dynamic(op):
        return None
    if any(s != 1 for s in int_values(slice_op.strides)):
        return None
    offsets = int_values(slice_op.offsets)
    src_shape = cast(VectorType, slice_op.vector.type).get_shape()
    res_shape = cast(VectorType, slice_op.result.type).get_shape()
    while (
        offsets and offsets[-1] == 0 and res_shape[len(offsets) - 1] == src_shape[len(offsets) - 1]
    ):
        offsets.pop()
    res = op.result.type
    dest_rank = res.get_num_dims() if isinstance(res, VectorType) else 0
    if dest_rank > len(src_shape) - len(offsets):
        return None
    position = _static_pos(op)
    for i, off in enumerate(offsets):
        position[i] += off
    op.operands = [slice_op.vector]
    _set_position(op, position)
    return True


def _extract_from_insert_strided(op: vector.ExtractOp) -> FoldResult:
    insert = defining(op.vector, vector.InsertStridedSliceOp)
    if insert is None or _has_dynamic(op):
        return None
    res = op.result.type
    dest_rank = res.get_num_dims() if isinstance(res, VectorType) else 0
    while insert is not None:
        src_t = cast(VectorType, insert.source.type)
        dst_t = cast(VectorType, insert.dest.type)
        rank_diff = dst_t.get_num_dims() - src_t.get_num_dims()
        if dest_rank > src_t.get_num_dims():
            return None
        if any(s != 1 for s in int_values(insert.strides)):
            return None
        ins_offsets = int_values(insert.offsets)
        ext = _static_pos(op)
        disjoint = False
        diffs: list[int] = []
        for dim, offset in enumerate(ext):
            start = ins_offsets[dim]
            size = 1 if dim < rank_diff else src_t.get_shape()[dim - rank_diff]
            if start <= offset < start + size:
                if dim >= rank_diff:
                    diffs.append(offset - start)
                continue
            disjoint = True
            break
        if not disjoint:
            src_rank_diff = src_t.get_num_dims() - dest_rank
            for i in range(dest_rank):
                if (
                    src_t.get_shape()[i + src_rank_diff]
                    != dst_t.get_shape()[i + src_rank_diff + rank_diff]
                ):
                    return None
            op.operands = [insert.source]
            _set_position(op, diffs)
            return True
        insert = defining(insert.dest, vector.InsertStridedSliceOp)
    return None


def _extract_from_from_elements(op: vector.ExtractOp) -> FoldResult:
    from_elements = defining(op.vector, vector.FromElementsOp)
    if from_elements is None or _has_dynamic(op):
        return None
    vt = cast(VectorType, from_elements.dest.type)
    if op.result.type != vt.get_element_type():
        return None
    flat = linearize(_static_pos(op), row_major_strides(vt.get_shape()))
    return [from_elements.elements[flat]]


# --- insert -----------------------------------------------------------------------------------


def fold_insert(op: Operation) -> FoldResult:
    assert isinstance(op, vector.InsertOp)
    if not _static_pos(op) and op.source.type == op.result.type:
        return [op.source]
    dest_t = cast(VectorType, op.dest.type)
    in_place = _fold_constant_positions(op, dest_t.get_shape(), 2)
    inner = defining(op.dest, vector.InsertOp)
    if inner is not None and op.get_mixed_position() == inner.get_mixed_position():
        op.operands = [op.source, inner.dest, *op.operands[2:]]
        return True
    if POISON_INDEX in _static_pos(op):
        return True if in_place else None
    result = _insert_into_dense(op)
    if result is not None:
        return result
    return True if in_place else None


def _insert_into_dense(op: vector.InsertOp) -> FoldResult:
    if _has_dynamic(op):
        return None
    dest = dense_constant(op.dest)
    if dest is None:
        return None
    dest_t = cast(VectorType, op.dest.type)
    if dest_t.element_count() > 256 and op.results[0].has_more_than_one_use():
        return None
    src_attr = constant_attr(op.source)
    if src_attr is None:
        return None
    if isinstance(src_attr, DenseIntOrFPElementsAttr):
        count = cast(VectorType, op.source.type).element_count()
        src_values = dense_values(src_attr)
        inserted = src_values * count if len(src_values) == 1 else src_values
    elif isinstance(src_attr, IntegerAttr | FloatAttr):
        inserted = [src_attr.value.data]
    else:
        return None
    values = dense_values(dest)
    if len(values) == 1:
        values = values * dest_t.element_count()
    pos = _static_pos(op) + [0] * (dest_t.get_num_dims() - len(_static_pos(op)))
    start = linearize(pos, row_major_strides(dest_t.get_shape()))
    values[start : start + len(inserted)] = inserted
    return [dense_of(dest_t, values)]


__all__ = ["fold_extract", "fold_insert"]
