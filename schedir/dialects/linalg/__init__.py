"""The linalg dialect as schedir uses it, and the structured-op interface.

Ops (upstream syntax, see `_linalg_named` and `_linalg_ops`): generic, yield, index, map,
reduce, transpose, broadcast, softmax, fill, copy, matmul, batch_matmul, matvec, vecmat, dot,
conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc, conv_2d_nchw_fchw, depthwise_conv_2d_nhwc_hwc,
pooling_nchw_max, pooling_nchw_sum, pooling_nhwc_max, pooling_nhwc_min, pooling_nhwc_sum.
xDSL's named elementwise ops (linalg.add, linalg.exp, ...) are not registered: upstream
removed them (use linalg.map or linalg.generic).

The module-level functions are the one interface the transform and lowering layers use on
any structured op, whichever class implements it:

    is_structured(op)        dps_inputs(op) / dps_inits(op)
    indexing_maps(op)        iterator_types(op)        num_loops(op)
    static_loop_ranges(op)   as_generic(op)            decompose_softmax(op)
"""

from __future__ import annotations

import math
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
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from schedir.dialects.linalg.base import TypeFn, TypeFnAttr
from schedir.dialects.linalg.conv import (
    CONV_OPS,
    Conv2DNchwFchwOp,
    Conv2DNhwcFhwcOp,
    Conv2DNhwcHwcfOp,
    DepthwiseConv2DNhwcHwcOp,
    PoolingNchwMaxOp,
    PoolingNchwSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMinOp,
    PoolingNhwcSumOp,
    window_attr,
)
from schedir.dialects.linalg.generic import GenericOp, IndexOp, YieldOp
from schedir.dialects.linalg.named import (
    NAMED_OPS,
    BatchMatmulOp,
    CopyOp,
    DotOp,
    FillOp,
    MatmulOp,
    MatvecOp,
    NamedStructuredOp,
    VecmatOp,
)
from schedir.dialects.linalg.ops import BroadcastOp, MapOp, ReduceOp, SoftmaxOp, TransposeOp

# ---------------------------------------------------------------------------------------
# the structured-op interface


def is_structured(op: Operation) -> bool:
    """Whether `op` is a structured (LinalgOp-like) op: generic, a named op, map, reduce,
    transpose or broadcast. Softmax is not (upstream: an aggregate op, decomposed)."""
    return isinstance(op, LinalgStructuredOperation | MapOp)


def _require_structured(op: Operation) -> None:
    if not is_structured(op):
        raise TypeError(f"'{op.name}' is not a structured linalg op")


def dps_inputs(op: Operation) -> tuple[SSAValue, ...]:
    """The input operands (`ins`)."""
    _require_structured(op)
    return tuple(cast(LinalgStructuredOperation | MapOp, op).inputs)


def dps_inits(op: Operation) -> tuple[SSAValue, ...]:
    """The init operands (`outs`), one per result on tensors."""
    _require_structured(op)
    if isinstance(op, MapOp):
        return (op.init,)
    return tuple(cast(LinalgStructuredOperation, op).outputs)


def indexing_maps(op: Operation) -> tuple[AffineMap, ...]:
    """One indexing map per operand, inputs then inits (loops -> operand indices)."""
    _require_structured(op)
    maps = cast(LinalgStructuredOperation | MapOp, op).get_indexing_maps()
    return tuple(m.data for m in maps.data)


def iterator_types(op: Operation) -> tuple[str, ...]:
    """One of "parallel" / "reduction" / "window" per loop."""
    _require_structured(op)
    its = cast(LinalgStructuredOperation | MapOp, op).get_iterator_types()
    return tuple(str(it.data.value) for it in its.data)


def num_loops(op: Operation) -> int:
    """Number of loops of the iteration space."""
    return len(iterator_types(op))


def static_loop_ranges(op: Operation) -> tuple[int, ...]:
    """The size of each loop, read off the operand shapes (-1 where dynamic or unknown).

    As upstream's `getStaticLoopRanges`: loop d takes the size of the first operand
    dimension indexed by exactly `d`."""
    maps = indexing_maps(op)
    operands = (*dps_inputs(op), *dps_inits(op))
    ranges = [-1] * num_loops(op)
    found = [False] * len(ranges)
    for operand, map_ in zip(operands, maps, strict=True):
        shape = operand.type.get_shape() if isinstance(operand.type, ShapedType) else ()
        for expr, size in zip(map_.results, shape, strict=True):
            if isinstance(expr, AffineDimExpr) and not found[expr.position]:
                found[expr.position] = True
                ranges[expr.position] = -1 if size == DYNAMIC_INDEX else size
    return tuple(ranges)


def as_generic(op: Operation) -> GenericOp:
    """A new, unattached `linalg.generic` equivalent to structured op `op` (upstream's
    `generalizeNamedOp`): same operands, result types, discardable attributes and location;
    the body takes one argument per input and per init element type and ends in
    `linalg.yield`."""
    _require_structured(op)
    if isinstance(op, GenericOp):
        generic = op.clone()
        generic.location = op.location
        return generic
    body = cast(LinalgStructuredOperation, op).body if not isinstance(op, MapOp) else op.mapper
    generic = GenericOp(
        list(dps_inputs(op)),
        list(dps_inits(op)),
        body.clone(),
        [AffineMapAttr(m) for m in indexing_maps(op)],
        [IteratorTypeAttr(IteratorType(t)) for t in iterator_types(op)],
        list(op.result_types),
    )
    generic.attributes |= dict(op.attributes)
    generic.location = op.location
    return generic


# ---------------------------------------------------------------------------------------
# softmax decomposition


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

    def generic(
        ins: list[SSAValue],
        init: SSAValue,
        maps: list[AffineMap],
        iters: list[IteratorTypeAttr],
        build: type[Operation] | None,
        combine: type[Operation],
    ) -> GenericOp:
        block = Block(arg_types=[element] * (len(ins) + 1))
        args = block.args
        if build is None:
            # Reduction body: combine(in, out).
            body_op = combine(args[0], args[1])
            block.add_op(body_op)
            block.add_op(YieldOp(body_op.results[0]))
        else:
            first = build(args[0], args[1])
            block.add_op(first)
            second = combine(first.results[0])
            block.add_op(second)
            block.add_op(YieldOp(second.results[0]))
        result = GenericOp(
            ins, [init], Region(block), [AffineMapAttr(m) for m in maps], iters, [init.type]
        )
        return result

    neg_nan = arith.ConstantOp(FloatAttr(-math.nan, element))
    max_init = FillOp([neg_nan.result], [empty.tensor])
    max_op = generic(
        [input_], max_init.res[0], [identity, reduced_map], reduce_iters, None, arith.MaxnumfOp
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
    sum_op = generic(
        [exp_op.res[0]], sum_init.res[0], [identity, reduced_map], reduce_iters, None, arith.AddfOp
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


Linalg = Dialect(
    "linalg",
    [
        GenericOp,
        YieldOp,
        IndexOp,
        *NAMED_OPS,
        *CONV_OPS,
        MapOp,
        ReduceOp,
        TransposeOp,
        BroadcastOp,
        SoftmaxOp,
    ],
    [IteratorTypeAttr, TypeFnAttr],
)

__all__ = [
    "BatchMatmulOp",
    "BroadcastOp",
    "Conv2DNchwFchwOp",
    "Conv2DNhwcFhwcOp",
    "Conv2DNhwcHwcfOp",
    "CopyOp",
    "DepthwiseConv2DNhwcHwcOp",
    "DotOp",
    "FillOp",
    "GenericOp",
    "IndexOp",
    "Linalg",
    "MapOp",
    "MatmulOp",
    "MatvecOp",
    "NamedStructuredOp",
    "PoolingNchwMaxOp",
    "PoolingNchwSumOp",
    "PoolingNhwcMaxOp",
    "PoolingNhwcMinOp",
    "PoolingNhwcSumOp",
    "ReduceOp",
    "SoftmaxOp",
    "TransposeOp",
    "TypeFn",
    "TypeFnAttr",
    "VecmatOp",
    "YieldOp",
    "as_generic",
    "decompose_softmax",
    "dps_inits",
    "dps_inputs",
    "indexing_maps",
    "is_structured",
    "iterator_types",
    "num_loops",
    "static_loop_ranges",
    "window_attr",
]
