"""`cast_away_vector_leading_one_dim` (upstream VectorDropLeadUnitDim.cpp).

Vector ops whose vector types start with unit dims are rewritten on the trimmed type
(`vector<1x1x4xf32>` -> `vector<4xf32>`; a type of one element keeps its last dim): the
operands are brought down with `vector.shape_cast` (or `vector.extract [0, ..]`) and the
result back up with `vector.shape_cast` (or `vector.broadcast`), whichever the upstream
pattern of that op uses, so that later unrolling works on fewer dims. Covered: strided
slices, `vector.insert`, `vector.constant_mask`, transfers (their masks included), loads
and stores (masked too), contractions (also inside `vector.mask`) and every elementwise
(ElementwiseMappable) arith / math op and `vector.fma`.

Before:

    %r = arith.addf %a, %b : vector<1x4xf32>

After:

    %0 = vector.extract %a[0] : vector<4xf32> from vector<1x4xf32>
    %1 = vector.extract %b[0] : vector<4xf32> from vector<1x4xf32>
    %2 = arith.addf %0, %1 : vector<4xf32>
    %r = vector.broadcast %2 : vector<4xf32> to vector<1x4xf32>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    MemRefType,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects.vector.attributes import (
    bool_array,
    in_bounds_values,
    infer_transfer_mask_type,
    int_values,
    scalable_dims,
    vec,
)
from schedir.dialects.vector.contract import contract_iterators, contract_maps
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.contract import maskable
from schedir.transform.rewrites.vector.utils import (
    ShapedOperand,
    broadcast,
    extract,
    is_elementwise_mappable,
    mask_operation,
    masking_op,
    shape_cast,
)


def trim_leading_one_dims(t: VectorType) -> VectorType:
    """Upstream's `trimLeadingOneDims`: drop leading non-scalable unit dims, keeping one dim."""
    shape = list(t.get_shape())
    scalable = list(scalable_dims(t))
    k = 0
    while k < len(shape) and shape[k] == 1 and not scalable[k]:
        k += 1
    if k == len(shape):
        k = max(len(shape) - 1, 0)
    return vec(shape[k:], t.get_element_type(), scalable[k:])


def _rank(t: Attribute) -> int:
    return t.get_num_dims() if isinstance(t, VectorType) else 0


def _cast_or_fold(rw: CanonRewriter, v: SSAValue, t: VectorType, loc: Operation) -> SSAValue:
    """Upstream's `createOrFold<ShapeCastOp>`: no op when the type already matches, the
    source of a shape_cast chain otherwise folded by the driver."""
    if v.type == t:
        return v
    owner = v.owner
    if isinstance(owner, vector.ShapeCastOp) and owner.source.type == t:
        return owner.source
    return shape_cast(rw, v, t, loc)


def _is_masked(op: Operation) -> bool:
    return masking_op(op) is not None


# --- strided slices and insert -----------------------------------------------------------------


def extract_strided_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayExtractStridedSliceLeadingOneDim`."""
    assert isinstance(op, vector.ExtractStridedSliceOp)
    old_src = cast(VectorType, op.vector.type)
    new_src = trim_leading_one_dims(old_src)
    drop = old_src.get_num_dims() - new_src.get_num_dims()
    if drop == 0:
        return False
    old_dst = cast(VectorType, op.result.type)
    src = _cast_or_fold(rw, op.vector, new_src, op)
    new = rw.create(
        vector.ExtractStridedSliceOp(
            src,
            int_values(op.offsets)[drop:],
            int_values(op.sizes)[drop:],
            int_values(op.strides)[drop:],
        ),
        op,
    )
    assert new.results[0].type == vec(
        old_dst.get_shape()[drop:], old_dst.get_element_type(), scalable_dims(old_dst)[drop:]
    )
    rw.replace_values(op, [shape_cast(rw, new.results[0], old_dst, op)])
    return True


def insert_strided_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayInsertStridedSliceLeadingOneDim`."""
    assert isinstance(op, vector.InsertStridedSliceOp)
    old_src = cast(VectorType, op.source.type)
    old_dst = cast(VectorType, op.dest.type)
    new_src = trim_leading_one_dims(old_src)
    new_dst = trim_leading_one_dims(old_dst)
    if new_src == old_src and new_dst == old_dst:
        return False
    src = _cast_or_fold(rw, op.source, new_src, op)
    dst = _cast_or_fold(rw, op.dest, new_dst, op)
    offsets = int_values(op.offsets)[old_dst.get_num_dims() - new_dst.get_num_dims() :]
    strides = int_values(op.strides)[old_src.get_num_dims() - new_src.get_num_dims() :]
    new = rw.create(vector.InsertStridedSliceOp(src, dst, offsets, strides), op)
    rw.replace_values(op, [shape_cast(rw, new.results[0], old_dst, op)])
    return True


def insert(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayInsertLeadingOneDim`."""
    assert isinstance(op, vector.InsertOp)
    old_src_type = op.source.type
    old_src_rank = new_src_rank = 0
    new_src_type: Attribute = old_src_type
    if isinstance(old_src_type, VectorType):
        new_src_type = trim_leading_one_dims(old_src_type)
        old_src_rank = old_src_type.get_num_dims()
        new_src_rank = cast(VectorType, new_src_type).get_num_dims()
    old_dst = cast(VectorType, op.dest.type)
    new_dst = trim_leading_one_dims(old_dst)
    src_drop = old_src_rank - new_src_rank
    dst_drop = old_dst.get_num_dims() - new_dst.get_num_dims()
    if src_drop == 0 and dst_drop == 0:
        return False
    src = op.source
    if old_src_rank != 0:
        src = _cast_or_fold(rw, op.source, cast(VectorType, new_src_type), op)
    dst = _cast_or_fold(rw, op.dest, new_dst, op)
    # Positions: drop those of the dropped dest dims, then pad with zeros for the unit
    # dims dropped from the source.
    old_pos = _mixed_position(op)
    new_rank = max(0, len(old_pos) - dst_drop)
    new_pos = old_pos[len(old_pos) - new_rank :]
    new_pos += [0] * (new_dst.get_num_dims() - new_src_rank - len(new_pos))
    new_pos = new_pos[: new_dst.get_num_dims() - new_src_rank]
    new = rw.create(vector.InsertOp(src, dst, new_pos), op)
    rw.replace_values(op, [shape_cast(rw, new.results[0], old_dst, op)])
    return True


def _mixed_position(op: vector.InsertOp) -> list[int | SSAValue]:
    """The op's position as static ints and dynamic index values, in order."""
    dynamic = list(op.dynamic_position)
    result: list[int | SSAValue] = []
    for p in op.static_position.get_values():
        if p == DYNAMIC_INDEX:
            result.append(dynamic.pop(0))
        else:
            result.append(int(p))
    return result


# --- masks ---------------------------------------------------------------------------------------


def constant_mask(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayConstantMaskLeadingOneDim`: a zero size in a dropped unit dim
    makes the whole mask empty, otherwise the dropped dims do not matter."""
    assert isinstance(op, vector.ConstantMaskOp)
    old = cast(VectorType, op.result.type)
    new_type = trim_leading_one_dims(old)
    if new_type == old:
        return False
    drop = old.get_num_dims() - new_type.get_num_dims()
    sizes = op.sizes()
    flat = 1
    for s in sizes[: drop + 1]:
        flat *= s
    new = rw.create(vector.ConstantMaskOp([flat, *sizes[drop + 1 :]], new_type), op)
    rw.replace_values(op, [broadcast(rw, new.results[0], old, op)])
    return True


# --- transfers, loads and stores ----------------------------------------------------------------


def _trimmed_map(m: AffineMap, rank: int) -> AffineMap:
    return AffineMap(m.num_dims, m.num_symbols, m.results[len(m.results) - rank :])


def transfer_read(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayTransferReadLeadingOneDim` (the mask operand is shape_cast to the
    mask type of the trimmed transfer)."""
    assert isinstance(op, vector.TransferReadOp)
    perm = cast(AffineMapAttr, op.permutation_map).data
    if _is_masked(op) or not perm.results:
        return False
    shaped = cast(ShapedOperand, op.source.type)
    old = cast(VectorType, op.result.type)
    if shaped.get_element_type() != old.get_element_type():
        return False
    new_type = trim_leading_one_dims(old)
    if new_type == old:
        return False
    rank = new_type.get_num_dims()
    new_map = _trimmed_map(perm, rank)
    in_bounds = op.properties.get("in_bounds")
    new_in_bounds = in_bounds_values(in_bounds, len(perm.results))[-rank:]
    mask = op.mask
    if mask is not None:
        mask = _cast_or_fold(rw, mask, infer_transfer_mask_type(new_type, new_map), op)
    new = vector.TransferReadOp(
        op.source,
        list(op.indices),
        op.padding,
        new_type,
        bool_array(new_in_bounds),
        AffineMapAttr(new_map),
        mask,
    )
    rw.create(new, op)
    rw.replace_values(op, [broadcast(rw, new.result, old, op)])
    return True


def transfer_write(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayTransferWriteLeadingOneDim`."""
    assert isinstance(op, vector.TransferWriteOp)
    perm = cast(AffineMapAttr, op.permutation_map).data
    if _is_masked(op) or not perm.results:
        return False
    shaped = cast(ShapedOperand, op.source.type)
    old = cast(VectorType, op.vector.type)
    if shaped.get_element_type() != old.get_element_type():
        return False
    new_type = trim_leading_one_dims(old)
    if new_type == old:
        return False
    rank = new_type.get_num_dims()
    new_map = _trimmed_map(perm, rank)
    new_in_bounds = in_bounds_values(op.properties.get("in_bounds"), len(perm.results))[-rank:]
    value = _cast_or_fold(rw, op.vector, new_type, op)
    mask = op.mask
    if mask is not None:
        mask = _cast_or_fold(rw, mask, infer_transfer_mask_type(new_type, new_map), op)
    target = op.source
    new = vector.TransferWriteOp(
        value,
        target,
        list(op.indices),
        bool_array(new_in_bounds),
        mask,
        AffineMapAttr(new_map),
        target.type if isinstance(target.type, TensorType) else None,
    )
    rw.create(new, op)
    rw.replace_values(op, list(new.results))
    return True


def load_like(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayLoadLikeLeadingOneDim` (`vector.load`, `vector.maskedload`):
    vector operands lose the unit dims by `vector.extract`, the result gets them back by
    `vector.broadcast`."""
    old = cast(VectorType, op.results[0].type)
    new_type = trim_leading_one_dims(old)
    if new_type == old or not isinstance(op.operands[0].type, MemRefType):
        return False
    drop = old.get_num_dims() - new_type.get_num_dims()
    operands = [
        extract(rw, v, [0] * drop, op) if isinstance(v.type, VectorType) else v for v in op.operands
    ]
    new = _clone(op, operands, [new_type])
    rw.create(new, op)
    rw.replace_values(op, [broadcast(rw, new.results[0], old, op)])
    return True


def store_like(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayStoreLikeLeadingOneDim` (`vector.store`, `vector.maskedstore`)."""
    assert isinstance(op, vector.StoreOp | vector.MaskedStoreOp)
    value = op.vector if isinstance(op, vector.StoreOp) else op.value_to_store
    old = cast(VectorType, value.type)
    new_type = trim_leading_one_dims(old)
    if new_type == old:
        return False
    drop = old.get_num_dims() - new_type.get_num_dims()
    operands = [
        extract(rw, v, [0] * drop, op) if isinstance(v.type, VectorType) else v for v in op.operands
    ]
    new = _clone(op, operands, [r.type for r in op.results])
    rw.create(new, op)
    rw.replace_values(op, list(new.results))
    return True


def _clone(
    op: Operation, operands: Sequence[SSAValue], result_types: Sequence[Attribute]
) -> Operation:
    """`op` with other operands and result types (properties and attributes kept)."""
    return type(op).create(
        operands=list(operands),
        result_types=list(result_types),
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )


# --- contraction --------------------------------------------------------------------------------


def _dim(e: AffineExpr) -> int:
    return cast(AffineDimExpr, e).position


def _leading_units(t: VectorType, order: Sequence[int], k: int) -> bool:
    shape, scalable = t.get_shape(), scalable_dims(t)
    return all(shape[d] == 1 and not scalable[d] for d in order[:k])


def cast_away_contraction_leading_one_dim(
    op: vector.ContractionOp, rw: CanonRewriter, mask: SSAValue | None
) -> SSAValue | None:
    """Upstream's `castAwayContractionLeadingOneDim`: drop the (parallel, unit) iteration
    dim of the acc's leading dim; operands where it is not leading get it moved first by a
    shape_cast (only unit dims move, so no data moves)."""
    acc_type = op.acc.type
    if not isinstance(acc_type, VectorType) or acc_type.get_num_dims() < 1:
        return None
    if acc_type.get_shape()[0] != 1 or scalable_dims(acc_type)[0]:
        return None
    maps = contract_maps(op)
    iterators = contract_iterators(op)
    to_drop = _dim(maps[2].results[0])
    if iterators[to_drop] != "parallel":
        return None
    if mask is not None:
        mask_type = cast(VectorType, mask.type)
        if (
            mask_type.get_num_dims() <= 1
            or to_drop >= mask_type.get_num_dims()
            or mask_type.get_shape()[to_drop] != 1
            or scalable_dims(mask_type)[to_drop]
        ):
            return None
    new_iterators = [it for d, it in enumerate(op.iterator_types.data) if d != to_drop]
    operands = [op.lhs, op.rhs, op.acc]
    plans: list[tuple[list[int] | None, bool]] = []
    new_maps: list[AffineMap] = []
    for index, m in enumerate(maps):
        permutation: list[int] | None = None
        positions = [_dim(e) for e in m.results]
        if positions and positions[0] != to_drop and to_drop in positions:
            permutation = [positions.index(to_drop)] + [
                i for i, p in enumerate(positions) if p != to_drop
            ]
            positions = [positions[i] for i in permutation]
            operand_type = cast(VectorType, operands[index].type)
            if not _leading_units(operand_type, permutation, 1):
                return None
        drop_leading = bool(positions) and positions[0] == to_drop
        if (
            drop_leading
            and permutation is None
            and not _leading_units(cast(VectorType, operands[index].type), [0], 1)
        ):
            return None
        plans.append((permutation, drop_leading))
        new_maps.append(
            AffineMap(
                m.num_dims - 1,
                0,
                tuple(
                    AffineExpr.dimension(p if p < to_drop else p - 1)
                    for p in positions
                    if p != to_drop
                ),
            )
        )
    new_operands: list[SSAValue] = []
    for (permutation, drop_leading), operand in zip(plans, operands, strict=True):
        value = operand
        if permutation is not None:
            t = cast(VectorType, value.type)
            shape, scalable = t.get_shape(), scalable_dims(t)
            permuted = vec(
                [shape[i] for i in permutation],
                t.get_element_type(),
                [scalable[i] for i in permutation],
            )
            value = _cast_or_fold(rw, value, permuted, op)
        if drop_leading:
            t = cast(VectorType, value.type)
            if t.get_num_dims() == 1:
                value = extract(rw, value, [0], op)
            else:
                value = shape_cast(
                    rw,
                    value,
                    vec(t.get_shape()[1:], t.get_element_type(), scalable_dims(t)[1:]),
                    op,
                )
        new_operands.append(value)
    new: Operation = rw.create(
        vector.ContractionOp(
            new_operands[0],
            new_operands[1],
            new_operands[2],
            ArrayAttr(AffineMapAttr(m) for m in new_maps),
            ArrayAttr(new_iterators),
            op.kind,
        ),
        op,
    )
    if mask is not None:
        mask_type = cast(VectorType, mask.type)
        shape = list(mask_type.get_shape())
        scalable = list(scalable_dims(mask_type))
        del shape[to_drop]
        del scalable[to_drop]
        new_mask = _cast_or_fold(rw, mask, vec(shape, mask_type.get_element_type(), scalable), op)
        new = mask_operation(rw, new, new_mask)
    result = new.results[0]
    if not isinstance(result.type, VectorType):
        return broadcast(rw, result, acc_type, op)
    return shape_cast(rw, result, acc_type, op)


# --- elementwise ----------------------------------------------------------------------------------


def elementwise(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CastAwayElementwiseLeadingOneDim`."""
    if not is_elementwise_mappable(op) or len(op.results) != 1:
        return False
    old = op.results[0].type
    if not isinstance(old, VectorType):
        return False
    new_type = trim_leading_one_dims(old)
    if new_type == old:
        return False
    drop = old.get_num_dims() - new_type.get_num_dims()
    operands = [
        extract(rw, v, [0] * drop, op) if isinstance(v.type, VectorType) else v for v in op.operands
    ]
    new = _clone(op, operands, [new_type])
    rw.create(new, op)
    rw.replace_values(op, [broadcast(rw, new.results[0], old, op)])
    return True


def cast_away_leading_one_dim_patterns() -> PatternSet:
    """Upstream's `populateCastAwayVectorLeadingOneDimPatterns`."""
    patterns = (
        PatternSet()
        .add(vector.ExtractStridedSliceOp, extract_strided_slice)
        .add(vector.InsertStridedSliceOp, insert_strided_slice)
        .add(vector.InsertOp, insert)
        .add(vector.ConstantMaskOp, constant_mask)
        .add(vector.TransferReadOp, transfer_read)
        .add(vector.TransferWriteOp, transfer_write)
        .add(vector.ContractionOp, maskable(cast_away_contraction_leading_one_dim))
        .add(vector.LoadOp, load_like)
        .add(vector.MaskedLoadOp, load_like)
        .add(vector.StoreOp, store_like)
        .add(vector.MaskedStoreOp, store_like)
        .add(None, elementwise)
    )
    return patterns


__all__ = [
    "cast_away_contraction_leading_one_dim",
    "cast_away_leading_one_dim_patterns",
    "trim_leading_one_dims",
]
