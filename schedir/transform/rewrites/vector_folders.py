"""Folders of the vector ops (upstream's `fold` methods in VectorOps.cpp).

`FOLDERS` maps op names to functions with the greedy driver's folder protocol: return the
replacement values or attributes (one per result), True after an in-place update, or None.
The vector pattern sets run them as patterns (`vector_utils.with_folds`); adding
`FOLDERS` to the driver's folder table makes every pattern set fold vector ops, as
upstream does.

    %e = vector.extract %b[1] : f32 from vector<4xf32>   (with %b = vector.broadcast %s)
      => %s
    %c = vector.shape_cast %v : vector<4xf32> to vector<4xf32>
      => %v
    %t = vector.transfer_read %m[%c0], %pad : memref<8xf32>, vector<4xf32>
      => in place: {in_bounds = [true]}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects._vector_attrs import (
    bool_array,
    i64_array,
    in_bounds_values,
    int_values,
    is_minor_identity,
    is_zero,
    scalable_dims,
)
from schedir.dialects._vector_shape import POISON_INDEX, broadcast_mismatch
from schedir.transform.rewrites.canonicalize_utils import (
    Folder,
    FoldResult,
    constant_attr,
    constant_int,
)
from schedir.transform.rewrites.vector_utils import mask_format

# --- helpers --------------------------------------------------------------------------------


def _dense(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    attr = constant_attr(value)
    return attr if isinstance(attr, DenseIntOrFPElementsAttr) else None


def _values(attr: DenseIntOrFPElementsAttr) -> list[int | float]:
    values = list(attr.get_values())
    return values


def _dense_of(t: VectorType, values: Sequence[int | float]) -> DenseIntOrFPElementsAttr:
    if len(set(values)) == 1:
        values = [values[0]]
    return DenseIntOrFPElementsAttr.from_list(t, list(values))  # type: ignore[arg-type]


def _scalar_attr(t: Attribute, value: int | float) -> Attribute:
    if isinstance(t, AnyFloat):
        return FloatAttr(float(value), t)
    return IntegerAttr(int(value), t)  # type: ignore[arg-type]


def _element(attr: DenseIntOrFPElementsAttr, flat: int, t: Attribute) -> Attribute:
    values = _values(attr)
    value = values[0] if len(values) == 1 else values[flat]
    return _scalar_attr(t, value)


def _strides(shape: Sequence[int]) -> list[int]:
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        running *= size
    return strides[::-1]


def _linearize(pos: Sequence[int], strides: Sequence[int]) -> int:
    return sum(p * s for p, s in zip(pos, strides, strict=False))


def _defining(value: SSAValue, cls: type[Operation]) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, cls) else None


def _set_position(op: Operation, positions: Sequence[int]) -> None:
    op.properties["static_position"] = DenseArrayBase.from_list(i64, list(positions))


def _static_pos(op: Operation) -> list[int]:
    return [int(v) for v in cast(DenseArrayBase, op.properties["static_position"]).get_values()]


def _has_dynamic(op: Operation) -> bool:
    return DYNAMIC_INDEX in _static_pos(op)


def _is_broadcast_like(op: Operation) -> bool:
    """Broadcasts, and shape_casts that only prepend unit dims."""
    if isinstance(op, vector.BroadcastOp):
        return True
    if isinstance(op, vector.ShapeCastOp):
        src = cast(VectorType, op.source.type).get_shape()
        dst = cast(VectorType, op.result.type).get_shape()
        return len(dst) >= len(src) and tuple(dst[len(dst) - len(src) :]) == tuple(src)
    return False


def _fold_constant_positions(op: Operation, shape: Sequence[int], first_dynamic: int) -> bool:
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
    dense = _dense(op.vector)
    if dense is None or _has_dynamic(op):
        return None
    src = cast(VectorType, op.vector.type)
    res = op.result.type
    values = _values(dense)
    if len(values) == 1:
        if isinstance(res, VectorType):
            return [_dense_of(res, values)]
        return [_scalar_attr(res, values[0])]
    pos = _static_pos(op) + [0] * (src.get_num_dims() - len(_static_pos(op)))
    start = _linearize(pos, _strides(src.get_shape()))
    if isinstance(res, VectorType):
        return [_dense_of(res, values[start : start + res.element_count()])]
    return [_scalar_attr(res, values[start])]


def _extract_from_extract(op: vector.ExtractOp) -> FoldResult:
    inner = _defining(op.vector, vector.ExtractOp)
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
    """Upstream's `ExtractFromInsertTransposeChainState::fold`."""
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

    while True:
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
    shuffle = _defining(op.vector, vector.ShuffleOp)
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
    cast_op = _defining(op.vector, vector.ShapeCastOp)
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
    slice_op = _defining(op.vector, vector.ExtractStridedSliceOp)
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
    insert = _defining(op.vector, vector.InsertStridedSliceOp)
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
        insert = _defining(insert.dest, vector.InsertStridedSliceOp)
    return None


def _extract_from_from_elements(op: vector.ExtractOp) -> FoldResult:
    from_elements = _defining(op.vector, vector.FromElementsOp)
    if from_elements is None or _has_dynamic(op):
        return None
    vt = cast(VectorType, from_elements.dest.type)
    if op.result.type != vt.get_element_type():
        return None
    flat = _linearize(_static_pos(op), _strides(vt.get_shape()))
    return [from_elements.elements[flat]]


# --- insert -----------------------------------------------------------------------------------


def fold_insert(op: Operation) -> FoldResult:
    assert isinstance(op, vector.InsertOp)
    if not _static_pos(op) and op.source.type == op.result.type:
        return [op.source]
    dest_t = cast(VectorType, op.dest.type)
    in_place = _fold_constant_positions(op, dest_t.get_shape(), 2)
    inner = _defining(op.dest, vector.InsertOp)
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
    dest = _dense(op.dest)
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
        src_values = _values(src_attr)
        inserted = src_values * count if len(src_values) == 1 else src_values
    elif isinstance(src_attr, IntegerAttr | FloatAttr):
        inserted = [src_attr.value.data]
    else:
        return None
    values = _values(dest)
    if len(values) == 1:
        values = values * dest_t.element_count()
    pos = _static_pos(op) + [0] * (dest_t.get_num_dims() - len(_static_pos(op)))
    start = _linearize(pos, _strides(dest_t.get_shape()))
    values[start : start + len(inserted)] = inserted
    return [_dense_of(dest_t, values)]


# --- broadcast, shape_cast, transpose --------------------------------------------------------


def fold_broadcast(op: Operation) -> FoldResult:
    assert isinstance(op, vector.BroadcastOp)
    dst = cast(VectorType, op.vector.type)
    if op.source.type == dst:
        return [op.source]
    cast_op = _defining(op.source, vector.ShapeCastOp)
    if cast_op is not None:
        src_t = cast(VectorType, cast_op.source.type)
        if broadcast_mismatch(src_t, dst) is None:
            src_shape, mid_shape = (
                src_t.get_shape(),
                cast(VectorType, cast_op.result.type).get_shape(),
            )
            n = min(len(src_shape), len(mid_shape))
            if tuple(src_shape[len(src_shape) - n :]) == tuple(mid_shape[len(mid_shape) - n :]):
                op.operands = [cast_op.source]
                return True
    attr = constant_attr(op.source)
    if isinstance(attr, IntegerAttr | FloatAttr):
        if attr.type != dst.get_element_type():
            return None
        return [_dense_of(dst, [attr.value.data])]
    if isinstance(attr, DenseIntOrFPElementsAttr) and len(set(_values(attr))) == 1:
        return [_dense_of(dst, [_values(attr)[0]])]
    return None


def _is_order_preserving(op: vector.TransposeOp) -> bool:
    shape = cast(VectorType, op.vector.type).get_shape()
    current = 0
    for p in op.perm():
        if shape[p] == 1:
            continue
        if p < current:
            return False
        current = p
    return True


def fold_shape_cast(op: Operation) -> FoldResult:
    assert isinstance(op, vector.ShapeCastOp)
    res = op.result.type
    if op.source.type == res:
        return [op.source]
    owner = op.source.owner
    if isinstance(owner, vector.ShapeCastOp):
        op.operands = [owner.source]
        return True
    if isinstance(owner, vector.TransposeOp):
        if _is_order_preserving(owner):
            op.operands = [owner.vector]
            return True
        return None
    if isinstance(owner, vector.BroadcastOp) and owner.source.type == res:
        return [owner.source]
    dense = _dense(op.source)
    if dense is not None:
        return [_dense_of(cast(VectorType, res), _values(dense))]
    return None


def fold_transpose(op: Operation) -> FoldResult:
    assert isinstance(op, vector.TransposeOp)
    dense = _dense(op.vector)
    if dense is not None and len(set(_values(dense))) == 1:
        return [_dense_of(cast(VectorType, op.result.type), _values(dense)[:1])]
    if op.vector.type == op.result.type and _is_order_preserving(op):
        return [op.vector]
    return None


def fold_multi_reduction(op: Operation) -> FoldResult:
    assert isinstance(op, vector.MultiDimReductionOp)
    src = cast(VectorType, op.source.type)
    if src.get_num_dims() == 1 and not op.reduction_mask()[0]:
        return [op.source]
    return None


# --- strided slices ----------------------------------------------------------------------------


def fold_extract_strided_slice(op: Operation) -> FoldResult:
    assert isinstance(op, vector.ExtractStridedSliceOp)
    if op.vector.type == op.result.type:
        return [op.vector]
    insert = _defining(op.vector, vector.InsertStridedSliceOp)
    ext_offsets = int_values(op.offsets)
    ext_sizes = int_values(op.sizes)
    ext_strides = int_values(op.strides)
    while insert is not None:
        if (
            cast(VectorType, op.vector.type).get_num_dims()
            != cast(VectorType, insert.source.type).get_num_dims()
        ):
            break
        ins_offsets = int_values(insert.offsets)
        ins_strides = int_values(insert.strides)
        if len(ext_offsets) > len(ins_offsets):
            break
        partial = disjoint = False
        diffs: list[int] = []
        ok = True
        for dim, offset in enumerate(ext_offsets):
            if ext_strides[dim] != ins_strides[dim]:
                ok = False
                break
            start = ins_offsets[dim]
            end = start + cast(VectorType, insert.source.type).get_shape()[dim]
            if start <= offset < end:
                if offset + ext_sizes[dim] > end:
                    partial = True
                diffs.append(offset - start)
                continue
            disjoint = True
            break
        if not ok:
            break
        if not disjoint and not partial:
            op.operands = [insert.source]
            op.properties["offsets"] = i64_array(diffs)
            return True
        if disjoint:
            insert = _defining(insert.dest, vector.InsertStridedSliceOp)
        else:
            break
    dense = _dense(op.vector)
    if dense is None or any(s != 1 for s in ext_strides):
        return None
    src = cast(VectorType, op.vector.type)
    res = cast(VectorType, op.result.type)
    values = _values(dense)
    if len(values) == 1:
        return [_dense_of(res, values)]
    offsets = ext_offsets + [0] * (src.get_num_dims() - len(ext_offsets))
    strides = _strides(src.get_shape())
    out: list[int | float] = []
    for pos in _positions(res.get_shape()):
        out.append(values[_linearize([p + o for p, o in zip(pos, offsets, strict=True)], strides)])
    return [_dense_of(res, out)]


def _positions(shape: Sequence[int]) -> list[list[int]]:
    result: list[list[int]] = [[]]
    for size in shape:
        result = [[*p, i] for p in result for i in range(size)]
    return result


def fold_insert_strided_slice(op: Operation) -> FoldResult:
    assert isinstance(op, vector.InsertStridedSliceOp)
    if op.source.type == op.dest.type:
        return [op.source]
    return None


# --- shuffle, elements, bitcast -------------------------------------------------------------------


def fold_shuffle(op: Operation) -> FoldResult:
    assert isinstance(op, vector.ShuffleOp)
    t1 = cast(VectorType, op.v1.type)
    t2 = cast(VectorType, op.v2.type)
    if t1.get_num_dims() == 0:
        return None
    mask = [int(m) for m in op.mask.get_values()]
    if mask == list(range(t1.get_shape()[0])):
        return [op.v1]
    n1 = t1.get_shape()[0]
    if mask == list(range(n1, n1 + t2.get_shape()[0])):
        return [op.v2]
    if t1.get_num_dims() != 1:
        return None
    d1, d2 = _dense(op.v1), _dense(op.v2)
    if d1 is None or d2 is None:
        return None
    v1 = _values(d1) * (n1 if len(_values(d1)) == 1 else 1)
    v2 = _values(d2) * (t2.get_shape()[0] if len(_values(d2)) == 1 else 1)
    out = [v1[0] if m == POISON_INDEX else (v1[m] if m < n1 else v2[m - n1]) for m in mask]
    return [_dense_of(cast(VectorType, op.result.type), out)]


def fold_from_elements(op: Operation) -> FoldResult:
    assert isinstance(op, vector.FromElementsOp)
    elements = list(op.elements)
    if elements:
        to_elements = elements[0].owner
        if (
            isinstance(to_elements, vector.ToElementsOp)
            and elements == list(to_elements.results)
            and to_elements.source.type == op.dest.type
        ):
            return [to_elements.source]
    attrs = [constant_attr(e) for e in elements]
    if elements and all(isinstance(a, IntegerAttr | FloatAttr) for a in attrs):
        return [_dense_of(cast(VectorType, op.dest.type), [a.value.data for a in attrs])]  # type: ignore[union-attr]
    return None


def fold_to_elements(op: Operation) -> FoldResult:
    assert isinstance(op, vector.ToElementsOp)
    from_elements = _defining(op.source, vector.FromElementsOp)
    if from_elements is None:
        return None
    return list(from_elements.elements)


def fold_bitcast(op: Operation) -> FoldResult:
    src = op.operands[0]
    if src.type == op.results[0].type:
        return [src]
    inner = src.owner
    if isinstance(inner, Operation) and inner.name == "vector.bitcast":
        if inner.operands[0].type == op.results[0].type:
            return [inner.operands[0]]
        op.operands = [inner.operands[0]]
        return True
    return None


# --- masks --------------------------------------------------------------------------------------


def fold_constant_mask(op: Operation) -> FoldResult:
    assert isinstance(op, vector.ConstantMaskOp)
    t = cast(VectorType, op.result.type)
    sizes = op.sizes()
    if t.get_num_dims() == 0:
        return [_dense_of(t, [int(sizes[0] == 1)])]
    if tuple(sizes) == tuple(t.get_shape()):
        return [_dense_of(t, [1])]
    if all(s == 0 for s in sizes):
        return [_dense_of(t, [0])]
    return None


def fold_mask(op: Operation) -> FoldResult:
    """Empty masks without passthru forward the yielded values; an all-true mask moves
    the masked op out of the region."""
    assert isinstance(op, vector.MaskOp)
    block = op.mask_region.block
    masked = op.maskable_op()
    if masked is None:
        if op.passthru is not None:
            return None
        terminator = block.last_op
        assert terminator is not None
        if not op.results:
            return None
        return list(terminator.operands)
    if mask_format(op.mask) is not True:
        return None
    masked.detach()
    parent = op.parent
    assert parent is not None
    parent.insert_op_before(masked, op)
    return list(masked.results)


# --- transfers ----------------------------------------------------------------------------------


def _fold_in_bounds(op: Operation, vtype: VectorType, shaped: Attribute) -> bool:
    """Upstream's `foldTransferInBoundsAttribute`."""
    perm = cast(AffineMapAttr, op.properties["permutation_map"]).data
    rank = len(perm.results)
    if rank == 0:
        return False
    current = in_bounds_values(op.properties["in_bounds"], rank)
    new: list[bool] = []
    changed = False
    non_bcast: list[int] = []
    first_index = 1 if op.name == "vector.transfer_read" else 2
    shape = shaped.get_shape()  # type: ignore[attr-defined]
    for i, expr in enumerate(perm.results):
        if current[i]:
            new.append(True)
            continue
        ok = False
        if isinstance(expr, AffineDimExpr):
            non_bcast.append(i)
            d = expr.position
            size = shape[d]
            idx = constant_int(op.operands[first_index + d])
            if size != DYNAMIC_INDEX and idx is not None:
                ok = idx + vtype.get_shape()[i] <= size
        new.append(ok)
        changed |= ok
    if all(new[i] for i in non_bcast):
        for i, expr in enumerate(perm.results):
            if is_zero(expr):
                changed |= not new[i]
                new[i] = True
    if not changed:
        return False
    op.properties["in_bounds"] = bool_array(new)
    return True


def _fold_full_mask(op: Operation, mask_index: int) -> bool:
    if len(op.operands) <= mask_index:
        return False
    segments = op.properties.get("operandSegmentSizes")
    if not isinstance(segments, DenseArrayBase) or int(segments.get_values()[-1]) == 0:
        return False
    if mask_format(op.operands[-1]) is not True:
        return False
    sizes = [int(v) for v in segments.get_values()]
    sizes[-1] = 0
    op.operands = list(op.operands[:-1])
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)
    return True


def _fold_single_element_map(op: Operation, vtype: VectorType, shaped: Attribute) -> bool:
    """A `vector<1xT>` transfer reads or writes one element whatever its map: the map
    becomes the minor identity (upstream folds it so that the transfer lowers to a load or
    store). Masked transfers keep theirs: the mask type follows the map."""
    perm = cast(AffineMapAttr, op.properties["permutation_map"]).data
    if tuple(vtype.get_shape()) != (1,) or any(scalable_dims(vtype)):
        return False
    if len(perm.results) != 1 or is_minor_identity(perm) or _has_mask(op):
        return False
    rank = shaped.get_num_dims()  # type: ignore[attr-defined]
    op.properties["permutation_map"] = AffineMapAttr(
        AffineMap(perm.num_dims, perm.num_symbols, (AffineExpr.dimension(rank - 1),))
    )
    return True


def _has_mask(op: Operation) -> bool:
    segments = op.properties.get("operandSegmentSizes")
    return isinstance(segments, DenseArrayBase) and int(segments.get_values()[-1]) != 0


def _same_indices(a: Sequence[SSAValue], b: Sequence[SSAValue]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def fold_transfer_read(op: Operation) -> FoldResult:
    assert isinstance(op, vector.TransferReadOp)
    if isinstance(op.source.type, TensorType):
        write = _defining(op.source, vector.TransferWriteOp)
        while write is not None:
            if (
                not any(not b for b in in_bounds_values(write.in_bounds, 0))
                and _same_indices(write.indices, op.indices)
                and write.vector.type == op.result.type
                and write.permutation_map == op.permutation_map
                and write.mask is None
                and op.mask is None
            ):
                return [write.vector]
            if not _disjoint(write, op):
                break
            write = _defining(write.source, vector.TransferWriteOp)
    vtype = cast(VectorType, op.result.type)
    if _fold_in_bounds(op, vtype, op.source.type):
        return True
    if op.mask is not None and _fold_full_mask(op, 0):
        return True
    if _fold_single_element_map(op, vtype, op.source.type):
        return True
    return None


def _disjoint(a: Operation, b: Operation) -> bool:
    """Upstream's `isDisjointTransferIndices` on constant indices."""
    from schedir.dialects._vector_transfer import transfer_vector_type

    va, vb = transfer_vector_type(a), transfer_vector_type(b)
    if va != vb:
        return False
    ia = list(a.operands[1 if a.name == "vector.transfer_read" else 2 :])
    ib = list(b.operands[1 if b.name == "vector.transfer_read" else 2 :])
    shaped = a.operands[0 if a.name == "vector.transfer_read" else 1].type
    rank = shaped.get_num_dims()  # type: ignore[attr-defined]
    ia, ib = ia[:rank], ib[:rank]
    offset = rank - va.get_num_dims()
    for i, (x, y) in enumerate(zip(ia, ib, strict=True)):
        cx, cy = constant_int(x), constant_int(y)
        if cx is None or cy is None:
            continue
        if i < offset:
            if cx != cy:
                return True
            continue
        if abs(cx - cy) >= va.get_shape()[i - offset]:
            return True
    return False


def fold_transfer_write(op: Operation) -> FoldResult:
    assert isinstance(op, vector.TransferWriteOp)
    shaped = op.source.type
    vtype = cast(VectorType, op.vector.type)
    if isinstance(shaped, TensorType):
        read = _defining(op.vector, vector.TransferReadOp)
        if read is not None:
            result = _fold_read_init_write(op, read, shaped, vtype)
            if result is not None:
                return result
            if (
                read.source is op.source
                and _same_indices(read.indices, op.indices)
                and read.permutation_map == op.permutation_map
                and read.result.type == vtype
                and read.mask is None
                and op.mask is None
            ):
                return [read.source]
    if _fold_in_bounds(op, vtype, shaped):
        return True
    if op.mask is not None and _fold_full_mask(op, 0):
        return True
    if _fold_single_element_map(op, vtype, shaped):
        return True
    return None


def _fold_read_init_write(
    write: vector.TransferWriteOp,
    read: vector.TransferReadOp,
    shaped: TensorType,
    vtype: VectorType,
) -> FoldResult:
    rank = len(write.permutation_map.data.results)
    if rank == 0 or len(read.permutation_map.data.results) != rank:
        return None
    if not (
        is_minor_identity(read.permutation_map.data)
        and is_minor_identity(write.permutation_map.data)
    ):
        return None
    if not all(in_bounds_values(read.in_bounds, rank)) or not all(
        in_bounds_values(write.in_bounds, rank)
    ):
        return None
    if read.source.type != shaped or read.result.type != vtype:
        return None
    if tuple(vtype.get_shape()) != tuple(shaped.get_shape()):
        return None
    if any(constant_int(i) != 0 for i in (*read.indices, *write.indices)):
        return None
    return [read.source]


FOLDERS: dict[str, Folder] = {
    "vector.extract": fold_extract,
    "vector.insert": fold_insert,
    "vector.broadcast": fold_broadcast,
    "vector.shape_cast": fold_shape_cast,
    "vector.transpose": fold_transpose,
    "vector.multi_reduction": fold_multi_reduction,
    "vector.extract_strided_slice": fold_extract_strided_slice,
    "vector.insert_strided_slice": fold_insert_strided_slice,
    "vector.shuffle": fold_shuffle,
    "vector.from_elements": fold_from_elements,
    "vector.to_elements": fold_to_elements,
    "vector.bitcast": fold_bitcast,
    "vector.constant_mask": fold_constant_mask,
    "vector.mask": fold_mask,
    "vector.transfer_read": fold_transfer_read,
    "vector.transfer_write": fold_transfer_write,
}
"""Folder of each vector op that has one upstream."""

__all__ = ["FOLDERS"]
