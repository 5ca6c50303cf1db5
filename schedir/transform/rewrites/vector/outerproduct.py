"""`lower_outerproduct` (upstream's OuterProductOpLowering, LowerVectorContract.cpp).

A `vector.outerproduct` becomes, per row of the result, a splat of the lhs element times
the rhs vector combined with the accumulator row (an fma for `add` on floats); with a
scalar rhs it is one AXPY. Masked outer products (in a `vector.mask`) select the
accumulator where the mask is off.

Before:

    %r = vector.outerproduct %a, %b, %c {kind = #vector.kind<add>} : vector<2xf32>, vector<3xf32>

After:

    %a0 = vector.extract %a[0] : f32 from vector<2xf32>
    %s0 = vector.broadcast %a0 : f32 to vector<3xf32>
    %c0 = vector.extract %c[0] : vector<3xf32> from vector<2x3xf32>
    %f0 = vector.fma %s0, %b, %c0 : vector<3xf32>
    %r0 = vector.insert %f0, %zero [0] : vector<3xf32> into vector<2x3xf32>
    ... (row 1)
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import IndexType, IntegerType, VectorType
from xdsl.ir import Operation

from schedir.dialects import vector
from schedir.dialects.vector.attributes import kind_name
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import (
    contract_arith,
    extract,
    insert,
    masking_op,
    zero,
)

# --- vector.outerproduct -----------------------------------------------------------------------


def lower_outer_product(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `OuterProductOpLowering`: per-row fma/mul + combine of broadcast lhs
    elements (AXPY for a scalar rhs)."""
    assert isinstance(op, vector.OuterProductOp)
    res_t = cast(VectorType, op.result.type)
    lhs_t = cast(VectorType, op.lhs.type)
    rhs_t = op.rhs.type
    is_int = isinstance(res_t.get_element_type(), IntegerType | IndexType)
    acc = op.acc
    kind = kind_name(op.kind)
    mask_op = masking_op(op)
    root: Operation = mask_op if mask_op is not None else op
    mask = mask_op.mask if mask_op is not None else None
    rw.set_insertion_point(root)
    if not isinstance(rhs_t, VectorType):
        b = rw.create(vector.BroadcastOp(op.rhs, lhs_t), op).results[0]
        mult = contract_arith(rw, op.lhs, b, acc, kind, is_int, op, mask)
        if mult is None:
            return False
        rw.replace_values(root, [mult])
        return True
    result = zero(rw, res_t, op)
    for d in range(res_t.get_shape()[0]):
        x = extract(rw, op.lhs, [d], op)
        a = rw.create(vector.BroadcastOp(x, rhs_t), op).results[0]
        r = extract(rw, acc, [d], op) if acc is not None else None
        m = extract(rw, mask, [d], op) if mask is not None else None
        value = contract_arith(rw, a, op.rhs, r, kind, is_int, op, m)
        if value is None:
            return False
        result = insert(rw, value, result, [d], op)
    rw.replace_values(root, [result])
    return True


def lower_outer_product_patterns() -> PatternSet:
    return PatternSet().add(vector.OuterProductOp, lower_outer_product)


__all__ = ["lower_outer_product", "lower_outer_product_patterns"]
