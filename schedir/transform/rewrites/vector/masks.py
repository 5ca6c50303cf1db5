"""Mask lowering (upstream LowerVectorMask.cpp).

- `lower_masks` / `lower_create_mask` (upstream's `populateVectorMaskOpLoweringPatterns`):
  an n-D `vector.create_mask` becomes rows of its (n-1)-D mask selected by `i < bound`; an
  n-D `vector.constant_mask` becomes rows of its (n-1)-D mask, a 1-D one a constant;
- `lower_masked_transfers`: a `vector.mask` around a transfer becomes the transfer with the
  mask as its mask operand (not when the mask has a pass-through value).

Before (lower_masks):

    %m = vector.create_mask %a, %b : vector<2x4xi1>

After:

    %row = vector.create_mask %b : vector<4xi1>
    %c0 = arith.constant 0 : index
    %in0 = arith.cmpi slt, %c0, %a : index
    %r0 = arith.select %in0, %row, %false : vector<4xi1>
    %m0 = vector.insert %r0, %zero [0] : vector<4xi1> into vector<2x4xi1>
    ... (row 1)
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    TensorType,
    VectorType,
    i1,
)
from xdsl.ir import Operation

from schedir.dialects import arith as shaped_arith
from schedir.dialects import vector
from schedir.dialects.vector.attributes import scalable_dims, vec
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import constant, index, insert, zero


def lower_create_mask(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CreateMaskOpLowering` (rank >= 2)."""
    assert isinstance(op, vector.CreateMaskOp)
    dst = cast(VectorType, op.mask_vector.type)
    if dst.get_num_dims() <= 1 or scalable_dims(dst)[0]:
        return False
    low = vec(dst.get_shape()[1:], i1, scalable_dims(dst)[1:])
    true_val = rw.create(vector.CreateMaskOp(list(op.mask_dim_sizes[1:]), low), op).results[0]
    false_val = zero(rw, low, op)
    result = zero(rw, dst, op)
    bound = op.mask_dim_sizes[0]
    for d in range(dst.get_shape()[0]):
        position = index(rw, d, op)
        inside = rw.create(shaped_arith.CmpiOp(position, bound, "slt"), op).results[0]
        row = rw.create(shaped_arith.SelectOp(inside, true_val, false_val), op).results[0]
        result = insert(rw, row, result, [d], op)
    rw.replace_values(op, [result])
    return True


def lower_constant_mask(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `ConstantMaskOpLowering`."""
    assert isinstance(op, vector.ConstantMaskOp)
    dst = cast(VectorType[IntegerType], op.result.type)
    sizes = op.sizes()
    rank = dst.get_num_dims()
    if rank == 0:
        attr = DenseIntOrFPElementsAttr.from_list(dst, [int(sizes[0] == 1)])
        rw.replace_values(op, [constant(rw, attr, dst, op)])
        return True
    first = sizes[0]
    if rank == 1:
        values = [int(d < first) for d in range(dst.get_shape()[0])]
        if first in (0, dst.get_shape()[0]):
            values = values[:1]
        attr = DenseIntOrFPElementsAttr.from_list(dst, values)
        rw.replace_values(op, [constant(rw, attr, dst, op)])
        return True
    if scalable_dims(dst)[0]:
        return False
    low = vec(dst.get_shape()[1:], i1, scalable_dims(dst)[1:])
    true_val = rw.create(vector.ConstantMaskOp(sizes[1:], low), op).results[0]
    result = zero(rw, dst, op)
    for d in range(first):
        result = insert(rw, true_val, result, [d], op)
    rw.replace_values(op, [result])
    return True


def lower_masks_patterns() -> PatternSet:
    """`lower_masks` and `lower_create_mask` (the same set upstream)."""
    return (
        PatternSet()
        .add(vector.CreateMaskOp, lower_create_mask)
        .add(vector.ConstantMaskOp, lower_constant_mask)
    )


def masked_transfer(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `MaskedTransferReadOpPattern` / `MaskedTransferWriteOpPattern`: the
    `vector.mask` becomes the transfer's own mask operand."""
    assert isinstance(op, vector.MaskOp)
    masked = op.maskable_op()
    if isinstance(masked, vector.TransferReadOp):
        if op.passthru is not None:
            return False
        new: Operation = vector.TransferReadOp(
            masked.source,
            list(masked.indices),
            masked.padding,
            masked.result.type,
            masked.in_bounds,
            masked.permutation_map,
            op.mask,
        )
    elif isinstance(masked, vector.TransferWriteOp):
        shaped = masked.source.type
        new = vector.TransferWriteOp(
            masked.vector,
            masked.source,
            list(masked.indices),
            masked.in_bounds,
            op.mask,
            masked.permutation_map,
            shaped if isinstance(shaped, TensorType) else None,
        )
    else:
        return False
    new.attributes |= dict(masked.attributes)
    rw.create(new, masked)
    rw.replace_values(op, list(new.results))
    return True


def lower_masked_transfers_patterns() -> PatternSet:
    return PatternSet().add(vector.MaskOp, masked_transfer)


__all__ = ["lower_masked_transfers_patterns", "lower_masks_patterns"]
