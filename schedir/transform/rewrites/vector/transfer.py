"""Transfer-op rewrites: permutation-map lowering, lowering to loads/stores, and
rank-reducing subviews (upstream LowerVectorTransfer.cpp and
VectorTransferOpTransforms.cpp).

- `transfer_permutation_patterns`: a transfer whose map permutes or broadcasts becomes a
  minor-identity transfer plus `vector.transpose` / `vector.broadcast` (reads), or a
  transpose / unit-dim broadcast before a minor-identity write;
- `lower_transfer max_transfer_rank = N`: in-bounds transfers of rank <= N on memrefs whose
  innermost stride is 1 become `vector.load` / `vector.store` (masked: `maskedload` with
  the padding splat as pass-through / `maskedstore`), broadcast dims re-added by
  `vector.broadcast`;
- `rank_reducing_subview_patterns`: unit dims of the memref are dropped with a
  rank-reducing `memref.subview` and a `vector.shape_cast`.

Before (transfer_permutation_patterns):

    %v = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true, true],
           permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<4x2xf32>

After:

    %r = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
    %v = vector.transpose %r, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    AffineMapAttr,
    MemRefLayoutAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    VectorType,
)
from xdsl.dialects.memref import DimOp, SubviewOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects.vector.attributes import (
    bool_array,
    compress_unused_dims,
    in_bounds_values,
    inverse_permutation,
    is_minor_identity,
    is_zero,
    minor_identity_with_broadcasting,
    permutation_map,
    permutation_of_minor_identity_with_broadcasting,
    scalable_dims,
    vec,
)
from schedir.dialects.vector.transfer import is_last_dim_unit_stride
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import broadcast, masking_op, shape_cast, transpose

Xfer = vector.TransferReadOp | vector.TransferWriteOp


def _read(
    rw: CanonRewriter,
    op: vector.TransferReadOp,
    vtype: VectorType,
    perm: AffineMap,
    in_bounds: Sequence[bool],
    source: SSAValue | None = None,
    indices: Sequence[SSAValue] | None = None,
    mask: SSAValue | bool | None = True,
) -> SSAValue:
    """A transfer_read like `op` with another type / map / in_bounds (same mask unless
    `mask` is given)."""
    use_mask = op.mask if mask is True else (mask or None)
    new = vector.TransferReadOp(
        source if source is not None else op.source,
        list(indices if indices is not None else op.indices),
        op.padding,
        vtype,
        bool_array(in_bounds),
        AffineMapAttr(perm),
        use_mask,
    )
    new.attributes |= {k: v for k, v in op.attributes.items()}
    return rw.create(new, op).results[0]


def _write(
    rw: CanonRewriter,
    op: vector.TransferWriteOp,
    value: SSAValue,
    perm: AffineMap,
    in_bounds: Sequence[bool],
    mask: SSAValue | None,
    dest: SSAValue | None = None,
    indices: Sequence[SSAValue] | None = None,
) -> vector.TransferWriteOp:
    target = dest if dest is not None else op.source
    new = vector.TransferWriteOp(
        value,
        target,
        list(indices if indices is not None else op.indices),
        bool_array(in_bounds),
        mask,
        AffineMapAttr(perm),
        target.type if isinstance(target.type, TensorType) else None,
    )
    return cast(vector.TransferWriteOp, rw.create(new, op))


def _transfer_rank(op: Operation) -> int:
    return len(cast(AffineMapAttr, op.properties["permutation_map"]).data.results)


# --- permutation maps --------------------------------------------------------------------------


def read_permutation(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferReadPermutationLowering`."""
    assert isinstance(op, vector.TransferReadOp)
    if _transfer_rank(op) == 0:
        return False
    m = op.permutation_map.data
    perm = permutation_of_minor_identity_with_broadcasting(m)
    if perm is None:
        return False
    pmap = permutation_map(perm)
    if pmap == AffineMap.identity(len(perm)):
        return False
    new_map = inverse_permutation(pmap).compose(m)
    vtype = cast(VectorType, op.result.type)
    shape = [0] * len(perm)
    for i, p in enumerate(perm):
        shape[p] = vtype.get_shape()[i]
    old_in_bounds = in_bounds_values(op.in_bounds, len(perm))
    in_bounds = [False] * len(perm)
    for i, p in enumerate(perm):
        in_bounds[p] = old_in_bounds[i]
    new = _read(rw, op, vec(shape, vtype.get_element_type()), new_map, in_bounds)
    rw.replace_values(op, [transpose(rw, new, perm, op)])
    return True


def write_permutation(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferWritePermutationLowering`."""
    assert isinstance(op, vector.TransferWriteOp)
    if _transfer_rank(op) == 0:
        return False
    m = op.permutation_map.data
    if is_minor_identity(m):
        return False
    perm = permutation_of_minor_identity_with_broadcasting(m)
    if perm is None:
        return False
    inverse = inverse_permutation(compress_unused_dims(m))
    indices = [cast(AffineDimExpr, e).position for e in inverse.results]
    old_in_bounds = in_bounds_values(op.in_bounds, len(perm))
    in_bounds = [False] * len(perm)
    for i, p in enumerate(perm):
        in_bounds[p] = old_in_bounds[i]
    value = transpose(rw, op.vector, indices, op)
    new_map = AffineMap.minor_identity(m.num_dims, len(m.results))
    new = _write(rw, op, value, new_map, in_bounds, op.mask)
    rw.replace_values(op, list(new.results))
    return True


def write_non_permutation(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferWriteNonPermutationLowering`: missing inner dims become unit
    dims of the written vector."""
    assert isinstance(op, vector.TransferWriteOp)
    if _transfer_rank(op) == 0:
        return False
    m = op.permutation_map.data
    if permutation_of_minor_identity_with_broadcasting(m) is not None:
        return False
    found = [False] * m.num_dims
    for e in m.results:
        found[cast(AffineDimExpr, e).position] = True
    exprs: list[AffineExpr] = []
    missing: list[int] = []
    seen_first = False
    for i, f in enumerate(found):
        if f:
            seen_first = True
            continue
        if seen_first:
            missing.append(i)
            exprs.append(AffineExpr.dimension(i))
    vtype = cast(VectorType, op.vector.type)
    new_vtype = vec([1] * len(missing) + list(vtype.get_shape()), vtype.get_element_type())
    value = broadcast(rw, op.vector, new_vtype, op)
    mask = None
    if op.mask is not None:
        mtype = cast(VectorType, op.mask.type)
        extended = broadcast(
            rw,
            op.mask,
            vec([1] * len(missing) + list(mtype.get_shape()), mtype.get_element_type()),
            op,
        )
        rank = mtype.get_num_dims() + len(missing)
        mask = transpose(
            rw, extended, list(range(len(missing), rank)) + list(range(len(missing))), op
        )
    new_map = AffineMap(m.num_dims, 0, (*exprs, *m.results))
    in_bounds = [True] * len(missing) + in_bounds_values(op.in_bounds, len(m.results))
    new = _write(rw, op, value, new_map, in_bounds, mask)
    rw.replace_values(op, list(new.results))
    return True


def read_reduce_rank(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferOpReduceRank`: leading broadcast dims become a
    `vector.broadcast` of a lower-rank read (a 0-d read when nothing is left)."""
    assert isinstance(op, vector.TransferReadOp)
    if _transfer_rank(op) == 0:
        return False
    m = op.permutation_map.data
    leading = 0
    for e in m.results:
        if not is_zero(e):
            break
        leading += 1
    if leading == 0:
        return False
    vtype = cast(VectorType, op.result.type)
    reduced = vtype.get_num_dims() - leading
    new_map = AffineMap(m.num_dims, 0, tuple(m.results[leading:]))
    if minor_identity_with_broadcasting(new_map) is None:
        return False
    if op.mask is not None and reduced == 0:
        return False
    shape = list(vtype.get_shape()[leading:])
    in_bounds = in_bounds_values(op.in_bounds, len(m.results))[leading:]
    new = _read(rw, op, vec(shape, vtype.get_element_type()), new_map, in_bounds)
    rw.replace_values(op, [broadcast(rw, new, vtype, op)])
    return True


def permutation_patterns() -> PatternSet:
    """`transform.apply_patterns.vector.transfer_permutation_patterns`."""
    return (
        PatternSet()
        .add(vector.TransferReadOp, read_permutation, read_reduce_rank)
        .add(vector.TransferWriteOp, write_permutation, write_non_permutation)
    )


# --- loads and stores ----------------------------------------------------------------------------


def _load_lowering(max_rank: int | None):
    def read_to_load(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `TransferReadToVectorLoadLowering`."""
        assert isinstance(op, vector.TransferReadOp)
        vtype = cast(VectorType, op.result.type)
        if max_rank is not None and vtype.get_num_dims() > max_rank:
            return False
        bcast = minor_identity_with_broadcasting(op.permutation_map.data)
        if bcast is None:
            return False
        mtype = op.source.type
        if not isinstance(mtype, MemRefType) or not is_last_dim_unit_stride(mtype):
            return False
        shape = list(vtype.get_shape())
        for i in bcast:
            shape[i] = 1
        unbcast = vec(shape, vtype.get_element_type())
        elem = mtype.get_element_type()
        if isinstance(elem, VectorType) and elem != unbcast:
            return False
        if not isinstance(elem, VectorType) and elem != vtype.get_element_type():
            return False
        if not all(in_bounds_values(op.in_bounds, len(shape))):
            return False
        if op.mask is not None:
            fill = broadcast(rw, op.padding, unbcast, op)
            load: Operation = vector.MaskedLoadOp(
                op.source, list(op.indices), op.mask, fill, unbcast
            )
        else:
            load = vector.LoadOp(op.source, list(op.indices), unbcast)
        value = rw.create(load, op).results[0]
        if bcast:
            value = broadcast(rw, value, vtype, op)
        rw.replace_values(op, [value])
        return True

    def write_to_store(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `TransferWriteToVectorStoreLowering`."""
        assert isinstance(op, vector.TransferWriteOp)
        vtype = cast(VectorType, op.vector.type)
        if max_rank is not None and vtype.get_num_dims() > max_rank:
            return False
        if not is_minor_identity(op.permutation_map.data):
            return False
        mtype = op.source.type
        if not isinstance(mtype, MemRefType) or not is_last_dim_unit_stride(mtype):
            return False
        elem = mtype.get_element_type()
        if isinstance(elem, VectorType) and elem != vtype:
            return False
        if not isinstance(elem, VectorType) and elem != vtype.get_element_type():
            return False
        if not all(in_bounds_values(op.in_bounds, vtype.get_num_dims())):
            return False
        if op.mask is not None:
            store: Operation = vector.MaskedStoreOp(op.source, list(op.indices), op.mask, op.vector)
        else:
            store = vector.StoreOp(op.vector, op.source, list(op.indices))
        rw.create(store, op)
        rw.erase(op)
        return True

    return read_to_load, write_to_store


def lower_transfer_patterns(max_rank: int | None = 1) -> PatternSet:
    """`transform.apply_patterns.vector.lower_transfer max_transfer_rank = N`."""
    read, write = _load_lowering(max_rank)
    return PatternSet().add(vector.TransferReadOp, read).add(vector.TransferWriteOp, write)


# --- rank-reducing subviews ----------------------------------------------------------------------


def _layout_strides(mtype: MemRefType) -> tuple[list[int | None], int | None] | None:
    """Static strides and offset of a memref layout (None entries: dynamic)."""
    shape = list(mtype.get_shape())
    layout = mtype.layout
    if isinstance(layout, NoneAttr):
        strides: list[int | None] = []
        running: int | None = 1
        for size in reversed(shape):
            strides.append(running)
            running = None if running is None or size < 0 else running * size
        return strides[::-1], 0
    if isinstance(layout, StridedLayoutAttr):
        return [None if s is None else s for s in layout.get_strides()], layout.get_offset()
    return None


def _rank_reduced_type(mtype: MemRefType) -> MemRefType | None:
    """The type of a full subview of `mtype` without its static unit dims, with the
    strided layout canonicalized (identity when it is one): upstream's `dropUnitDims`."""
    found = _layout_strides(mtype)
    if found is None:
        return None
    strides, offset = found
    kept = [i for i, s in enumerate(mtype.get_shape()) if s != 1]
    new_shape = [mtype.get_shape()[i] for i in kept]
    new_strides = [strides[i] for i in kept]
    identity: list[int | None] = []
    running: int | None = 1
    for size in reversed(new_shape):
        identity.append(running)
        running = None if running is None or size < 0 else running * size
    identity.reverse()
    elem = mtype.get_element_type()
    return MemRefType(
        elem, new_shape, _canonical_layout(new_strides, offset, identity), mtype.memory_space
    )


def _canonical_layout(
    strides: list[int | None], offset: int | None, identity: list[int | None]
) -> MemRefLayoutAttr | NoneAttr:
    """Upstream's `canonicalizeStridedLayout` of `strided<strides, offset>`: kept when its
    map is the identity (1-D, stride 1, offset 0), dropped when it is row-major, else
    its affine map (symbols: offset first, then dynamic strides)."""
    rank = len(strides)
    if rank == 1 and strides == [1] and offset == 0:
        return StridedLayoutAttr([1], 0)
    if offset == 0 and strides == identity:
        return NoneAttr()
    if rank == 0:
        return StridedLayoutAttr([], offset)
    num_symbols = (1 if offset is None else 0) + sum(1 for st in strides if st is None)
    symbol = 1 if offset is None else 0
    expr: AffineExpr | None = None
    for i, stride in enumerate(strides):
        if stride is None:
            term = AffineExpr.dimension(i) * AffineExpr.symbol(symbol)
            symbol += 1
        elif stride == 1:
            term = AffineExpr.dimension(i)
        else:
            term = AffineExpr.dimension(i) * stride
        expr = term if expr is None else expr + term
    assert expr is not None
    if offset is None:
        expr = expr + AffineExpr.symbol(0)
    elif offset:
        expr = expr + offset
    return AffineMapAttr(AffineMap(rank, num_symbols, (expr,)))


def _drop_unit_dims_view(
    rw: CanonRewriter, source: SSAValue, target: MemRefType, loc: Operation
) -> SSAValue:
    """Upstream's `rankReducingSubviewDroppingUnitDims`."""
    mtype = cast(MemRefType, source.type)
    sizes: list[int | SSAValue] = []
    for i, size in enumerate(mtype.get_shape()):
        if size >= 0:
            sizes.append(size)
        else:
            dim = rw.create(DimOp(source, rw.constant_index(i, loc)), loc)
            sizes.append(dim.results[0])
    rank = mtype.get_num_dims()
    view = SubviewOp.get(source, [0] * rank, sizes, [1] * rank, target)
    return rw.create(view, loc).results[0]


def _trim_unit_dims(vtype: VectorType) -> VectorType:
    scal = scalable_dims(vtype)
    keep = [i for i, s in enumerate(vtype.get_shape()) if s != 1 or scal[i]]
    return vec(
        [vtype.get_shape()[i] for i in keep], vtype.get_element_type(), [scal[i] for i in keep]
    )


def _reduced_mask(
    rw: CanonRewriter, mask: SSAValue | None, loc: Operation
) -> SSAValue | bool | None:
    """Upstream's `createMaskDropNonScalableUnitDims` (False: cannot be reduced)."""
    if mask is None:
        return None
    owner = mask.owner
    if not isinstance(owner, vector.CreateMaskOp):
        return False
    mtype = cast(VectorType, mask.type)
    reduced_t = _trim_unit_dims(mtype)
    if reduced_t.get_num_dims() == mtype.get_num_dims():
        return False
    operands: list[SSAValue | Operation] = []
    for size, operand in zip(mtype.get_shape(), owner.mask_dim_sizes, strict=True):
        if size == 1:
            if constant_int(operand) != 1:
                return False
            continue
        operands.append(operand)
    return rw.create(
        vector.CreateMaskOp(operands, vec(reduced_t.get_shape(), reduced_t.get_element_type())), loc
    ).results[0]


def _drop_unit_dims_match(op: Xfer) -> tuple[MemRefType, VectorType] | None:
    if masking_op(op) is not None:
        return None
    mtype = op.source.type
    if not isinstance(mtype, MemRefType):
        return None
    vtype = cast(
        VectorType, op.result.type if isinstance(op, vector.TransferReadOp) else op.vector.type
    )
    if not all(in_bounds_values(op.in_bounds, vtype.get_num_dims())):
        return None
    if not is_minor_identity(op.permutation_map.data):
        return None
    reduced_rank = sum(1 for s in mtype.get_shape() if s != 1)
    if reduced_rank == mtype.get_num_dims():
        return None
    reduced_v = _trim_unit_dims(vtype)
    if reduced_v.get_num_dims() != reduced_rank:
        return None
    if any(constant_int(i) != 0 for i in op.indices):
        return None
    reduced_m = _rank_reduced_type(mtype)
    if reduced_m is None:
        return None
    return reduced_m, reduced_v


def read_drop_unit_dims(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferReadDropUnitDimsPattern`: read through a rank-reducing subview
    (in-bounds, minor-identity, zero indices), then shape_cast back."""
    assert isinstance(op, vector.TransferReadOp)
    found = _drop_unit_dims_match(op)
    if found is None:
        return False
    reduced_m, reduced_v = found
    mask = _reduced_mask(rw, op.mask, op)
    if mask is False:
        return False
    source = op.source
    if reduced_m != source.type:
        source = _drop_unit_dims_view(rw, source, reduced_m, op)
    c0 = rw.constant_index(0, op)
    rank = reduced_v.get_num_dims()
    new = _read(
        rw, op, reduced_v, AffineMap.identity(rank), [True] * rank, source, [c0] * rank, mask
    )
    rw.replace_values(op, [shape_cast(rw, new, cast(VectorType, op.result.type), op)])
    return True


def write_drop_unit_dims(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferWriteDropUnitDimsPattern`."""
    assert isinstance(op, vector.TransferWriteOp)
    found = _drop_unit_dims_match(op)
    if found is None:
        return False
    reduced_m, reduced_v = found
    mask = _reduced_mask(rw, op.mask, op)
    if mask is False:
        return False
    dest = op.source
    if reduced_m != dest.type:
        dest = _drop_unit_dims_view(rw, dest, reduced_m, op)
    c0 = rw.constant_index(0, op)
    rank = reduced_v.get_num_dims()
    value = shape_cast(rw, op.vector, reduced_v, op)
    write_mask = mask if isinstance(mask, SSAValue) else None
    _write(rw, op, value, AffineMap.identity(rank), [True] * rank, write_mask, dest, [c0] * rank)
    rw.erase(op)
    return True


def rank_reducing_subview_patterns() -> PatternSet:
    """`transform.apply_patterns.vector.rank_reducing_subview_patterns`."""
    return (
        PatternSet()
        .add(vector.TransferReadOp, read_drop_unit_dims)
        .add(vector.TransferWriteOp, write_drop_unit_dims)
    )


__all__ = [
    "lower_transfer_patterns",
    "permutation_patterns",
    "rank_reducing_subview_patterns",
    "read_permutation",
    "read_reduce_rank",
    "write_non_permutation",
    "write_permutation",
]
