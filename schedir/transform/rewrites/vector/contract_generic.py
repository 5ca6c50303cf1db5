"""The generic lowering of `vector.contract` (upstream's ContractionOpLowering): unroll
a parallel dim of the lhs or rhs (or a reduction dim of both) into contractions of one
rank less, down to `vector.reduction`s of elementwise products. What the strategy
patterns fall back to when their special form does not apply.

Before:

    %r = vector.contract {... ["parallel", "reduction"] ...} %a, %b, %c
           : vector<2x3xf32>, vector<3xf32> into vector<2xf32>

After (per row i of %a):

    %ai = vector.extract %a[i] : vector<3xf32> from vector<2x3xf32>
    %ci = vector.extract %c[i] : f32 from vector<2xf32>
    %ri = vector.contract {... ["reduction"] ...} %ai, %b, %ci : ... into f32
    %r_i = vector.insert %ri, %acc [i] : f32 into vector<2xf32>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects.vector.attributes import (
    IteratorTypeAttr,
    element_type,
    kind_name,
    make_kind,
    vec,
)
from schedir.dialects.vector.contract import contract_maps, dim_map
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import (
    extract,
    insert,
    mask_operation,
    mul,
    result_index,
    zero,
)

# --- slices along one dim ----------------------------------------------------------------------


def _adjust_map(m: AffineMap, index: int) -> AffineMap:
    """`m` without loop `index` (the loops after it renumbered)."""
    results: list[AffineExpr] = []
    for e in m.results:
        pos = cast(AffineDimExpr, e).position
        if pos == index:
            continue
        results.append(AffineExpr.dimension(pos if pos < index else pos - 1))
    return AffineMap(m.num_dims - 1, 0, tuple(results))


def _drop_dim(t: VectorType, index: int) -> VectorType:
    """`t` without dim `index`."""
    shape = list(t.get_shape())
    del shape[index]
    return vec(shape, t.get_element_type())


def _reshape_load(
    rw: CanonRewriter, val: SSAValue, t: VectorType, index: int, pos: int, loc: Operation
) -> SSAValue:
    """Upstream's `reshapeLoad`: the slice `pos` of dimension `index` of `val`."""
    if index == -1:
        return val
    if index == 0:
        return extract(rw, val, [pos], loc)
    sub = _drop_dim(t, 0)
    res_t = _drop_dim(t, index)
    result = zero(rw, res_t, loc)
    for d in range(res_t.get_shape()[0]):
        ext = extract(rw, val, [d], loc)
        load = _reshape_load(rw, ext, sub, index - 1, pos, loc)
        result = insert(rw, load, result, [d], loc)
    return result


def _reshape_store(
    rw: CanonRewriter,
    val: SSAValue,
    result: SSAValue,
    t: VectorType,
    index: int,
    pos: int,
    loc: Operation,
) -> SSAValue:
    """Upstream's `reshapeStore`: `val` written as slice `pos` of dimension `index`."""
    if index == -1:
        return val
    if index == 0:
        return insert(rw, val, result, [pos], loc)
    sub = _drop_dim(t, 0)
    for d in range(t.get_shape()[0]):
        ext = extract(rw, result, [d], loc)
        ins = extract(rw, val, [d], loc)
        sto = _reshape_store(rw, ins, ext, sub, index - 1, pos, loc)
        result = insert(rw, sto, result, [d], loc)
    return result


def _new_contract(
    rw: CanonRewriter,
    op: vector.ContractionOp,
    lhs: SSAValue,
    rhs: SSAValue,
    acc: SSAValue,
    maps: Sequence[AffineMap],
    iterators: Sequence[Attribute],
) -> vector.ContractionOp:
    """A contraction like `op` (kind, fastmath) on other operands, maps and iterators."""
    new = vector.ContractionOp(
        lhs,
        rhs,
        acc,
        ArrayAttr(AffineMapAttr(m) for m in maps),
        ArrayAttr(cast(Sequence[IteratorTypeAttr], iterators)),
        op.kind,
        op.fastmath,
    )
    return cast(vector.ContractionOp, rw.create(new, op))


# --- generic unrolling -------------------------------------------------------------------------


def supported_generic(op: vector.ContractionOp) -> bool:
    acc_elem = element_type(op.acc.type)
    lhs_elem = cast(VectorType, op.lhs.type).get_element_type()
    rhs_elem = cast(VectorType, op.rhs.type).get_element_type()
    return lhs_elem == acc_elem and rhs_elem == acc_elem and kind_name(op.kind) == "add"


def _lower_parallel(
    rw: CanonRewriter,
    op: vector.ContractionOp,
    lhs_index: int,
    rhs_index: int,
    mask: SSAValue | None,
) -> SSAValue | None:
    lhs_t, rhs_t = cast(VectorType, op.lhs.type), cast(VectorType, op.rhs.type)
    res_t = cast(VectorType, op.result.type)
    maps = contract_maps(op)
    if lhs_index >= 0:
        iter_index = cast(AffineDimExpr, maps[0].results[lhs_index]).position
        if (
            rhs_index >= 0
            and iter_index != cast(AffineDimExpr, maps[1].results[rhs_index]).position
        ):
            return None
        size = lhs_t.get_shape()[lhs_index]
    elif rhs_index >= 0:
        iter_index = cast(AffineDimExpr, maps[1].results[rhs_index]).position
        size = rhs_t.get_shape()[rhs_index]
    else:
        return None
    res_index = result_index(maps[2], iter_index)
    if res_index is None:
        if size != 1:
            return None
        res_index = -1
    low_maps = [_adjust_map(m, iter_index) for m in maps]
    iterators = [it for i, it in enumerate(op.iterator_types.data) if i != iter_index]
    result = zero(rw, res_t, op)
    for d in range(size):
        lhs = _reshape_load(rw, op.lhs, lhs_t, lhs_index, d, op)
        rhs = _reshape_load(rw, op.rhs, rhs_t, rhs_index, d, op)
        acc = _reshape_load(rw, op.acc, res_t, res_index, d, op)
        low_mask = None
        if mask is not None:
            low_mask = _reshape_load(rw, mask, cast(VectorType, mask.type), iter_index, d, op)
        low = _new_contract(rw, op, lhs, rhs, acc, low_maps, iterators)
        masked = mask_operation(rw, low, low_mask)
        result = _reshape_store(rw, masked.results[0], result, res_t, res_index, d, op)
    return result


def _lower_reduction(
    rw: CanonRewriter, op: vector.ContractionOp, mask: SSAValue | None
) -> SSAValue | None:
    lhs_t, rhs_t = cast(VectorType, op.lhs.type), cast(VectorType, op.rhs.type)
    if isinstance(op.result.type, VectorType):
        return None
    is_int = isinstance(op.result.type, IntegerType)
    maps = contract_maps(op)
    lhs_index = result_index(maps[0], 0)
    rhs_index = result_index(maps[1], 0)
    if lhs_index is None or rhs_index is None:
        return None
    size = lhs_t.get_shape()[lhs_index]
    if size != rhs_t.get_shape()[rhs_index]:
        return None
    if lhs_t.get_num_dims() == 1:
        if rhs_t.get_num_dims() != 1:
            return None
        product = mul(rw, op.lhs, op.rhs, is_int, op, op.fastmath)
        red = rw.create(vector.ReductionOp(product, make_kind("add"), op.acc, op.fastmath), op)
        return mask_operation(rw, red, mask).results[0]
    low_maps = [_adjust_map(m, 0) for m in maps]
    iterators = list(op.iterator_types.data)[1:]
    result = op.acc
    for d in range(size):
        lhs = _reshape_load(rw, op.lhs, lhs_t, lhs_index, d, op)
        rhs = _reshape_load(rw, op.rhs, rhs_t, rhs_index, d, op)
        new_mask = None
        if mask is not None:
            new_mask = _reshape_load(rw, mask, cast(VectorType, mask.type), 0, d, op)
        low = _new_contract(rw, op, lhs, rhs, result, low_maps, iterators)
        result = mask_operation(rw, low, new_mask).results[0]
    return result


def lower_generic(
    op: vector.ContractionOp, rw: CanonRewriter, mask: SSAValue | None
) -> SSAValue | None:
    """Upstream's `lowerGenericContraction`: peel one batch, free or reduction dim."""
    batch = dim_map(op, "parallel")
    if batch:
        return _lower_parallel(rw, op, batch[0][0], batch[0][1], mask)
    contracting = dim_map(op, "reduction")
    lhs_contracting = {a for a, _ in contracting}
    rhs_contracting = {b for _, b in contracting}
    for i in range(cast(VectorType, op.lhs.type).get_num_dims()):
        if i not in lhs_contracting:
            return _lower_parallel(rw, op, i, -1, mask)
    for i in range(cast(VectorType, op.rhs.type).get_num_dims()):
        if i not in rhs_contracting:
            return _lower_parallel(rw, op, -1, i, mask)
    if contracting:
        return _lower_reduction(rw, op, mask)
    return None


__all__ = ["lower_generic", "supported_generic"]
