"""Folders of the vector ops (upstream's `fold` methods in VectorOps.cpp), and
`with_folds`, which runs them as patterns.

`FOLDERS` maps the vector ops to functions with the greedy driver's folder protocol:
return the replacement values or attributes (one per result), True after an in-place
update, or None. The greedy driver folds with them (it collects this module's table), and
the vector pattern sets also run them as patterns (`with_folds`), as upstream does. The
folders of `vector.extract` and `vector.insert` are in `fold_extract`.

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
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ShapedType,
    TensorType,
    VectorType,
    i32,
)
from xdsl.dialects.ub import PoisonOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects.vector.attributes import (
    bool_array,
    i64_array,
    in_bounds_values,
    int_values,
    is_minor_identity,
    is_zero,
    scalable_dims,
)
from schedir.dialects.vector.shape import POISON_INDEX, broadcast_mismatch
from schedir.dialects.vector.transfer import transfer_vector_type
from schedir.transform.rewrites.constants import constant_attr, constant_int, materialize_constant
from schedir.transform.rewrites.greedy import Folder, FoldPattern, FoldResult, Pattern, PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.fold_extract import fold_extract, fold_insert
from schedir.transform.rewrites.vector.insert_chains import resolve_insert_chain
from schedir.transform.rewrites.vector.utils import (
    defining,
    dense_constant,
    dense_of,
    dense_values,
    linearize,
    mask_format,
    row_major_strides,
)

Xfer = vector.TransferReadOp | vector.TransferWriteOp

# --- broadcast, shape_cast, transpose --------------------------------------------------------


def fold_broadcast(op: Operation) -> FoldResult:
    assert isinstance(op, vector.BroadcastOp)
    dst = cast(VectorType, op.vector.type)
    if op.source.type == dst:
        return [op.source]
    cast_op = defining(op.source, vector.ShapeCastOp)
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
        return [dense_of(dst, [attr.value.data])]
    if isinstance(attr, DenseIntOrFPElementsAttr) and len(set(dense_values(attr))) == 1:
        return [dense_of(dst, [dense_values(attr)[0]])]
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
    dense = dense_constant(op.source)
    if dense is not None:
        return [dense_of(cast(VectorType, res), dense_values(dense))]
    return None


def fold_transpose(op: Operation) -> FoldResult:
    assert isinstance(op, vector.TransposeOp)
    dense = dense_constant(op.vector)
    if dense is not None and len(set(dense_values(dense))) == 1:
        return [dense_of(cast(VectorType, op.result.type), dense_values(dense)[:1])]
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
    insert = defining(op.vector, vector.InsertStridedSliceOp)
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
            insert = defining(insert.dest, vector.InsertStridedSliceOp)
        else:
            break
    dense = dense_constant(op.vector)
    if dense is None or any(s != 1 for s in ext_strides):
        return None
    src = cast(VectorType, op.vector.type)
    res = cast(VectorType, op.result.type)
    values = dense_values(dense)
    if len(values) == 1:
        return [dense_of(res, values)]
    offsets = ext_offsets + [0] * (src.get_num_dims() - len(ext_offsets))
    strides = row_major_strides(src.get_shape())
    out: list[int | float] = []
    for pos in _positions(res.get_shape()):
        out.append(values[linearize([p + o for p, o in zip(pos, offsets, strict=True)], strides)])
    return [dense_of(res, out)]


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
    d1, d2 = dense_constant(op.v1), dense_constant(op.v2)
    if d1 is None or d2 is None:
        return None
    v1 = dense_values(d1) * (n1 if len(dense_values(d1)) == 1 else 1)
    v2 = dense_values(d2) * (t2.get_shape()[0] if len(dense_values(d2)) == 1 else 1)
    out = [v1[0] if m == POISON_INDEX else (v1[m] if m < n1 else v2[m - n1]) for m in mask]
    return [dense_of(cast(VectorType, op.result.type), out)]


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
    scalars = [a for a in attrs if isinstance(a, IntegerAttr | FloatAttr)]
    if elements and len(scalars) == len(attrs):
        return [dense_of(cast(VectorType, op.dest.type), [a.value.data for a in scalars])]
    return None


def fold_to_elements(op: Operation) -> FoldResult:
    assert isinstance(op, vector.ToElementsOp)
    from_elements = defining(op.source, vector.FromElementsOp)
    if from_elements is None:
        return None
    return list(from_elements.elements)


def fold_bitcast(op: Operation) -> FoldResult:
    assert isinstance(op, vector.BitCastOp)
    if op.source.type == op.result.type:
        return [op.source]
    inner = defining(op.source, vector.BitCastOp)
    if inner is not None:
        if inner.source.type == op.result.type:
            return [inner.source]
        op.operands = [inner.source]
        return True
    return None


# --- masks --------------------------------------------------------------------------------------


def fold_constant_mask(op: Operation) -> FoldResult:
    assert isinstance(op, vector.ConstantMaskOp)
    t = cast(VectorType, op.result.type)
    sizes = op.sizes()
    if t.get_num_dims() == 0:
        return [dense_of(t, [int(sizes[0] == 1)])]
    if tuple(sizes) == tuple(t.get_shape()):
        return [dense_of(t, [1])]
    if all(s == 0 for s in sizes):
        return [dense_of(t, [0])]
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


def _fold_in_bounds(op: Xfer, vtype: VectorType, shaped: Attribute) -> bool:
    """Upstream's `foldTransferInBoundsAttribute`."""
    perm = cast(AffineMapAttr, op.properties["permutation_map"]).data
    rank = len(perm.results)
    if rank == 0:
        return False
    current = in_bounds_values(op.properties["in_bounds"], rank)
    new: list[bool] = []
    changed = False
    non_bcast: list[int] = []
    shape = cast(ShapedType, shaped).get_shape()
    for i, expr in enumerate(perm.results):
        if current[i]:
            new.append(True)
            continue
        ok = False
        if isinstance(expr, AffineDimExpr):
            non_bcast.append(i)
            d = expr.position
            size = shape[d]
            idx = constant_int(op.indices[d])
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


def _fold_full_mask(op: Xfer, mask_index: int) -> bool:
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


def _fold_single_element_map(op: Xfer, vtype: VectorType, shaped: Attribute) -> bool:
    """A `vector<1xT>` transfer reads or writes one element whatever its map: the map
    becomes the minor identity (upstream folds it so that the transfer lowers to a load or
    store). Masked transfers keep theirs: the mask type follows the map."""
    perm = cast(AffineMapAttr, op.properties["permutation_map"]).data
    if tuple(vtype.get_shape()) != (1,) or any(scalable_dims(vtype)):
        return False
    if len(perm.results) != 1 or is_minor_identity(perm) or _has_mask(op):
        return False
    rank = cast(ShapedType, shaped).get_num_dims()
    if rank == 0:
        return False  # a broadcast of a 0-D source: its map `() -> (0)` has no minor dim
    op.properties["permutation_map"] = AffineMapAttr(
        AffineMap(perm.num_dims, perm.num_symbols, (AffineExpr.dimension(rank - 1),))
    )
    return True


def _has_mask(op: Xfer) -> bool:
    segments = op.properties.get("operandSegmentSizes")
    return isinstance(segments, DenseArrayBase) and int(segments.get_values()[-1]) != 0


def _same_indices(a: Sequence[SSAValue], b: Sequence[SSAValue]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def fold_transfer_read(op: Operation) -> FoldResult:
    assert isinstance(op, vector.TransferReadOp)
    if isinstance(op.source.type, TensorType):
        write = defining(op.source, vector.TransferWriteOp)
        while write is not None:
            if (
                not any(not b for b in in_bounds_values(write.in_bounds, 0))
                and _same_indices(write.indices, op.indices)
                and write.vector.type == op.result.type
                and write.permutation_map == op.permutation_map
                and _same_mask(write, op)
            ):
                return [write.vector]
            if not _disjoint(write, op):
                break
            write = defining(write.source, vector.TransferWriteOp)
    vtype = cast(VectorType, op.result.type)
    if _fold_in_bounds(op, vtype, op.source.type):
        return True
    if op.mask is not None and _fold_full_mask(op, 0):
        return True
    if _fold_single_element_map(op, vtype, op.source.type):
        return True
    return None


def _same_mask(write: vector.TransferWriteOp, read: vector.TransferReadOp) -> bool:
    """Whether `read` sees exactly `write`'s vector: neither is masked, or both by the same
    mask value and the read's padding is poison (its masked-off lanes are poison, which the
    write's lanes there refine; with a real padding value they would differ)."""
    if write.mask is None or read.mask is None:
        return write.mask is None and read.mask is None
    return _equal_masks(write.mask, read.mask) and defining(read.padding, PoisonOp) is not None


def _equal_masks(a: SSAValue, b: SSAValue) -> bool:
    """The same value, or two mask ops of one kind with the same operands and properties
    (two `vector.create_mask` of the same bounds before CSE merges them)."""
    if a is b:
        return True
    x, y = a.owner, b.owner
    return (
        isinstance(x, vector.CreateMaskOp | vector.ConstantMaskOp)
        and type(x) is type(y)
        and isinstance(y, Operation)
        and tuple(x.operands) == tuple(y.operands)
        and x.properties == y.properties
        and a.type == b.type
    )


def _disjoint(a: Xfer, b: Xfer) -> bool:
    """Upstream's `isDisjointTransferIndices` on constant indices."""
    va, vb = transfer_vector_type(a), transfer_vector_type(b)
    if va != vb:
        return False
    rank = cast(ShapedType, a.source.type).get_num_dims()
    ia, ib = list(a.indices)[:rank], list(b.indices)[:rank]
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
        read = defining(op.vector, vector.TransferReadOp)
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


FOLDERS: dict[type[Operation], Folder] = {
    vector.ExtractOp: fold_extract,
    vector.InsertOp: fold_insert,
    vector.BroadcastOp: fold_broadcast,
    vector.ShapeCastOp: fold_shape_cast,
    vector.TransposeOp: fold_transpose,
    vector.MultiDimReductionOp: fold_multi_reduction,
    vector.ExtractStridedSliceOp: fold_extract_strided_slice,
    vector.InsertStridedSliceOp: fold_insert_strided_slice,
    vector.ShuffleOp: fold_shuffle,
    vector.FromElementsOp: fold_from_elements,
    vector.ToElementsOp: fold_to_elements,
    vector.BitCastOp: fold_bitcast,
    vector.ConstantMaskOp: fold_constant_mask,
    vector.MaskOp: fold_mask,
    vector.TransferReadOp: fold_transfer_read,
    vector.TransferWriteOp: fold_transfer_write,
}
"""Folder of each vector op that has one upstream."""


# --- folds as patterns ---------------------------------------------------------------------------


def apply_fold(
    op: Operation, rw: CanonRewriter, result: list[Attribute | SSAValue] | bool | None
) -> bool:
    """Apply a folder's result the way the greedy driver does."""
    if result is None or result is False:
        return False
    if result is True:
        rw.modified(op)
        return True
    rw.set_insertion_point(op)
    replacements: list[SSAValue] = []
    made: list[Operation] = []
    for item, res in zip(result, op.results, strict=True):
        if isinstance(item, SSAValue):
            replacements.append(item)
            continue
        const = materialize_constant(rw, item, res.type, op.location)
        if const is None:
            for m in made:
                rw.erase(m)
            return False
        made.append(const)
        replacements.append(const.results[0])
    if all(r is old for r, old in zip(replacements, op.results, strict=True)):
        return False
    rw.replace_values(op, replacements)
    return True


def fold_pattern(folder: Folder) -> Pattern:
    """A pattern that applies `folder` as the greedy driver applies a folder (so that a
    vector pattern set carries the vector folds with it)."""
    return FoldPattern(folder, apply_fold)


_FOLD_PATTERNS = {root: fold_pattern(folder) for root, folder in FOLDERS.items()}
"""One pattern object per folder, so pattern sets can de-duplicate them."""


def with_folds(patterns: PatternSet) -> PatternSet:
    """`patterns` preceded by every vector op's folder (upstream folds every op it visits)."""
    result = PatternSet()
    for root, pattern in _FOLD_PATTERNS.items():
        result.add(root, pattern)
    result.add(vector.ExtractOp, resolve_insert_chain)
    return result.update(patterns)


__all__ = ["FOLDERS", "apply_fold", "fold_pattern", "with_folds"]
