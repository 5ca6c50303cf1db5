"""Decompositions of linalg's aggregate ops (upstream's AggregatedOpInterface): softmax."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import math as xmath
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from schedir.dialects.linalg.generic import GenericOp, YieldOp
from schedir.dialects.linalg.named import FillOp
from schedir.dialects.linalg.ops import SoftmaxOp


def decompose_softmax(op: SoftmaxOp) -> list[Operation]:
    """New, unattached ops computing `op` as upstream's `SoftmaxOp::decomposeOperation`:

        %max  = fill(NaN) + generic max-reduce (arith.maxnumf) along `dimension`
        %exp  = generic exp(x - max)
        %sum  = fill(0) + generic sum-reduce (arith.addf)
        %res  = generic exp / sum

    (preceded by `tensor.dim` for dynamic sizes and the `tensor.empty` of the reduced shape).
    The last op's result replaces the softmax result. Only tensor semantics, as upstream.
    """
    input_, output = op.input, op.output
    in_type = input_.type
    if not isinstance(in_type, TensorType) or not isinstance(output.type, TensorType):
        raise TypeError("decompose_softmax expects tensor operands")
    in_type = cast(TensorType[Attribute], in_type)
    element = cast(AnyFloat, in_type.get_element_type())
    shape = in_type.get_shape()
    rank = len(shape)
    reduction_dim = op.dimension.value.data
    new_ops: list[Operation] = []

    # Upstream materializes every dynamic size of the input, then drops the reduced one.
    sizes: list[int | SSAValue] = []
    for i, size in enumerate(shape):
        if size == DYNAMIC_INDEX:
            index = arith.ConstantOp(IntegerAttr(i, IndexType()))
            dim = xtensor.DimOp(input_, index)
            new_ops += [index, dim]
            sizes.append(dim.result)
        else:
            sizes.append(size)
    reduced_sizes = [s for i, s in enumerate(sizes) if i != reduction_dim]
    empty = xtensor.EmptyOp(
        [s for s in reduced_sizes if isinstance(s, SSAValue)],
        TensorType(element, [s if isinstance(s, int) else DYNAMIC_INDEX for s in reduced_sizes]),
    )
    new_ops.append(empty)

    identity = AffineMap.identity(rank)
    reduced_map = AffineMap(
        rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d != reduction_dim)
    )
    reduce_iters = [
        IteratorTypeAttr.reduction() if d == reduction_dim else IteratorTypeAttr.parallel()
        for d in range(rank)
    ]
    parallel_iters = [IteratorTypeAttr.parallel()] * rank

    def reduction(
        ins: list[SSAValue],
        init: SSAValue,
        maps: list[AffineMap],
        iters: list[IteratorTypeAttr],
        combine: Callable[[SSAValue, SSAValue], Operation],
    ) -> GenericOp:
        # Reduction body: combine(in, out).
        block = Block(arg_types=[element] * (len(ins) + 1))
        body_op = combine(block.args[0], block.args[1])
        block.add_op(body_op)
        block.add_op(YieldOp(body_op.results[0]))
        result = GenericOp(
            ins, [init], Region(block), [AffineMapAttr(m) for m in maps], iters, [init.type]
        )
        return result

    neg_nan = arith.ConstantOp(FloatAttr(-math.nan, element))
    max_init = FillOp([neg_nan.result], [empty.tensor])
    max_op = reduction(
        [input_], max_init.res[0], [identity, reduced_map], reduce_iters, arith.MaxnumfOp
    )
    new_ops += [neg_nan, max_init, max_op]

    # exp(x - max)
    block = Block(arg_types=[element] * 3)
    sub = arith.SubfOp(block.args[0], block.args[1])
    exp = xmath.ExpOp(sub.result)
    block.add_ops([sub, exp, YieldOp(exp.result)])
    exp_op = GenericOp(
        [input_, max_op.res[0]],
        [output],
        Region(block),
        [AffineMapAttr(m) for m in (identity, reduced_map, identity)],
        parallel_iters,
        [output.type],
    )
    new_ops.append(exp_op)

    zero = arith.ConstantOp(FloatAttr(0.0, element))
    sum_init = FillOp([zero.result], [empty.tensor])
    sum_op = reduction(
        [exp_op.res[0]], sum_init.res[0], [identity, reduced_map], reduce_iters, arith.AddfOp
    )
    new_ops += [zero, sum_init, sum_op]

    block = Block(arg_types=[element] * 3)
    div = arith.DivfOp(block.args[0], block.args[1])
    block.add_ops([div, YieldOp(div.result)])
    div_op = GenericOp(
        [exp_op.res[0], sum_op.res[0]],
        [output],
        Region(block),
        [AffineMapAttr(m) for m in (identity, reduced_map, identity)],
        parallel_iters,
        [output.type],
    )
    new_ops.append(div_op)
    for new_op in new_ops:
        new_op.location = op.location
    return new_ops


__all__ = ["decompose_softmax"]
