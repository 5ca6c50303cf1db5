"""Flattening elementwise structured ops to one loop (upstream LinalgTransformOps.cpp
`FlattenElementwiseLinalgOp` through `collapseOpIterationDims` with one group of all the
loops).

Every operand indexed by all loops in order is collapsed to one dimension
(`tensor.collapse_shape` / `memref.collapse_shape`), scalars and rank-0 operands stay as they
are, the op is rebuilt on the collapsed operands (a generic gets identity maps of one loop),
and each tensor result is expanded back to the original shape:

    %r = linalg.generic {maps = [(d0, d1) -> (d0, d1)] x 2} ins(%a : tensor<3x5xf32>) ...
    // ->
    %ca = tensor.collapse_shape %a [[0, 1]] : tensor<3x5xf32> into tensor<15xf32>
    %g = linalg.generic {maps = [(d0) -> (d0)] x 2} ins(%ca : tensor<15xf32>) ...
    %r = tensor.expand_shape %g [[0, 1]] output_shape [3, 5] : tensor<15xf32> into ...
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    MemRefType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import linalg
from schedir.dialects import memref as smemref
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    iterator_types,
    num_loops,
)
from schedir.dialects.tensor import CollapseShapeOp, ExpandShapeOp
from schedir.dialects.utils import reassociation_attr
from schedir.transform.rewrites.structured_misc import RewriteFailure
from schedir.transform.rewrites.tiling.affine import IndexBuilder
from schedir.transform.rewrites.tiling.interface import dim_of


def _all_loops_in_order(map_: AffineMap, loops: int) -> bool:
    return list(map_.results) == [AffineDimExpr(d) for d in range(loops)]


def flatten_elementwise(rewriter: PatternRewriter, op: Operation) -> Operation:
    """Collapse all loops of elementwise structured op `op` into one; returns the new op
    (or `op` itself when it has at most one loop)."""
    loops = num_loops(op)
    if loops <= 1:
        return op
    if any(t != "parallel" for t in iterator_types(op)):
        raise RewriteFailure("not all loops are parallel")
    maps = indexing_maps(op)
    if any(m.results and not _all_loops_in_order(m, loops) for m in maps):
        raise RewriteFailure("an operand is not indexed by all loops in order")
    if any(isinstance(inner, linalg.IndexOp) for inner in op.walk()):
        raise RewriteFailure("linalg.index in the body")
    b = IndexBuilder(rewriter, op.location)
    rewriter.insertion_point = InsertPoint.before(op)
    group = reassociation_attr([list(range(loops))])
    inputs, inits = list(dps_inputs(op)), list(dps_inits(op))

    def collapse(value: SSAValue, map_: AffineMap) -> SSAValue:
        if not map_.results:
            return value
        shaped = cast(TensorType[Attribute] | MemRefType[Attribute], value.type)
        shape = shaped.get_shape()
        size = DYNAMIC_INDEX if DYNAMIC_INDEX in shape else _product(shape)
        if isinstance(value.type, MemRefType):
            collapsed: Operation = smemref.CollapseShapeOp.build(
                operands=[value],
                result_types=[MemRefType(shaped.get_element_type(), [size])],
                properties={"reassociation": group},
            )
        else:
            collapsed = CollapseShapeOp.build(
                operands=[value],
                result_types=[TensorType(shaped.get_element_type(), [size])],
                properties={"reassociation": group},
            )
        return b.insert(collapsed).results[0]

    new_inputs = [collapse(v, m) for v, m in zip(inputs, maps, strict=False)]
    new_inits = [collapse(v, m) for v, m in zip(inits, maps[len(inputs) :], strict=True)]
    result_types: list[Attribute] = [v.type for v in new_inits if isinstance(v.type, TensorType)]
    if isinstance(op, linalg.GenericOp):
        one = [
            AffineMapAttr(AffineMap.identity(1) if m.results else AffineMap(1, 0, ())) for m in maps
        ]
        new = linalg.GenericOp(
            new_inputs,
            new_inits,
            op.body.clone(),
            one,
            [IteratorTypeAttr(IteratorType.PARALLEL)],
            result_types,
        )
        new.attributes |= dict(op.attributes)
    else:
        operands = list(op.operands)
        replaced = dict(zip([*inputs, *inits], [*new_inputs, *new_inits], strict=True))
        new = type(op).create(
            operands=[replaced.get(v, v) for v in operands],
            result_types=result_types,
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[r.clone() for r in op.regions],
        )
    b.insert(new)
    results: list[SSAValue] = []
    tensor_inits = [v for v in inits if isinstance(v.type, TensorType)]
    for result, init in zip(new.results, tensor_inits, strict=True):
        init_type = cast(TensorType[Attribute], init.type)
        sizes = [dim_of(b, init, d) for d in range(loops)]
        static = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
        dynamic = [s for s in sizes if isinstance(s, SSAValue)]
        expand = b.insert(ExpandShapeOp(result, dynamic, group, static, init_type))
        results.append(expand.results[0])
    rewriter.replace(op, [], results)
    return new


def _product(shape: tuple[int, ...] | list[int]) -> int:
    total = 1
    for size in shape:
        total *= size
    return total


__all__ = ["flatten_elementwise"]
