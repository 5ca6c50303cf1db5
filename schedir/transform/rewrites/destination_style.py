"""Tensor ops without a destination rewritten in destination-passing style (upstream
Linalg/Transforms/ConvertToDestinationStyle.cpp `rewriteInDestinationPassingStyle`).

- `tensor.from_elements` -> `tensor.empty` + one `tensor.insert` per element (row-major);
- `tensor.generate` -> `tensor.empty` + a `linalg.generic` whose body is the generate's,
  with `linalg.index` for the indices;
- `tensor.pad` -> `tensor.empty` (of the reified padded shape) + `linalg.fill` (a constant or
  loop-invariant padding value) or a `linalg.generic` (a padding value that depends on the
  indices) + `tensor.insert_slice` of the source at the low padding; a `nofold` pad of zero
  padding becomes `bufferization.alloc_tensor` + `linalg.copy`.

    %p = tensor.pad %t low[1, 2] high[2, %h] { tensor.yield %v } : tensor<5x?xf32> to ...
    // ->
    %e = tensor.empty(%n) : tensor<8x?xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8x?xf32>) -> tensor<8x?xf32>
    %r = tensor.insert_slice %t into %f[1, 2] [5, %d] [1, 1] : tensor<5x?xf32> into ...
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import bufferization, linalg
from schedir.dialects.tensor import GenerateOp, InsertSliceOp
from schedir.dialects.utils import mixed_values
from schedir.transform.rewrites.structured_misc import RewriteFailure
from schedir.transform.rewrites.tiling.affine import IndexBuilder, Ofr, compose
from schedir.transform.rewrites.tiling.interface import dim_of


def rewrite_in_destination_passing_style(rewriter: PatternRewriter, op: Operation) -> Operation:
    """Rewrite `op` (from_elements, generate or pad) and return the op that defines its
    replacement; any other op is returned unchanged (as upstream's transform does)."""
    rewriter.insertion_point = InsertPoint.before(op)
    b = IndexBuilder(rewriter, op.location)
    if isinstance(op, xtensor.FromElementsOp):
        return _from_elements(rewriter, b, op)
    if isinstance(op, GenerateOp):
        return _generate(rewriter, b, op)
    if isinstance(op, xtensor.PadOp):
        return _pad(rewriter, b, op)
    return op


def _tensor_type(op: Operation) -> TensorType[Attribute]:
    return cast(TensorType[Attribute], op.results[0].type)


def _from_elements(rw: PatternRewriter, b: IndexBuilder, op: xtensor.FromElementsOp) -> Operation:
    type_ = _tensor_type(op)
    shape = list(type_.get_shape())
    empty = b.insert(xtensor.EmptyOp([], type_)).results[0]
    elements = iter(op.elements)
    if not shape:
        insert = b.insert(xtensor.InsertOp(next(elements), empty, []))
        rw.replace(op, [], list(insert.results))
        return insert
    constants = [b.constant(i) for i in range(max(shape))]
    result = _inserts(b, 0, empty, shape, constants, elements, [constants[0]] * len(shape))
    rw.replace(op, [], [result])
    owner = result.owner
    assert isinstance(owner, Operation)
    return owner


def _inserts(
    b: IndexBuilder,
    dim: int,
    dest: SSAValue,
    shape: Sequence[int],
    constants: Sequence[SSAValue],
    elements: Iterator[SSAValue],
    indices: list[SSAValue],
) -> SSAValue:
    """Upstream `createInserts`: row-major inserts of the elements."""
    if dim == len(shape) - 1:
        for i in range(shape[dim]):
            indices[dim] = constants[i]
            dest = b.insert(xtensor.InsertOp(next(elements), dest, list(indices))).results[0]
        return dest
    for i in range(shape[dim]):
        indices[dim] = constants[i]
        dest = _inserts(b, dim + 1, dest, shape, constants, elements, indices)
    return dest


def _generic_over(
    rw: PatternRewriter, b: IndexBuilder, dest: SSAValue, body: Block
) -> linalg.GenericOp:
    """A `linalg.generic` writing all of `dest`, whose body is `body` (taken, its index
    arguments replaced by `linalg.index`, its `tensor.yield` by `linalg.yield`)."""
    type_ = cast(TensorType[Attribute], dest.type)
    rank = len(type_.get_shape())
    block = Block(arg_types=[type_.get_element_type()])
    generic = linalg.GenericOp(
        [],
        [dest],
        Region(block),
        [AffineMapAttr(AffineMap.identity(rank))],
        [IteratorTypeAttr(IteratorType.PARALLEL)] * rank,
        [type_],
    )
    b.insert(generic)
    indices = []
    for d in range(rank):
        index = linalg.IndexOp(d)
        index.location = generic.location
        block.add_op(index)
        indices.append(index.results[0])
    for arg, value in zip(body.args, indices, strict=True):
        arg.replace_all_uses_with(value)
    for inner in list(body.ops):
        inner.detach()
        if isinstance(inner, xtensor.YieldOp):
            yield_ = linalg.YieldOp(inner.operands[0])
            yield_.location = inner.location
            block.add_op(yield_)
            inner.erase()
            continue
        block.add_op(inner)
        rw.handle_operation_insertion(inner)
    return generic


def _generate(rw: PatternRewriter, b: IndexBuilder, op: GenerateOp) -> Operation:
    if len(op.body.blocks) != 1:
        raise RewriteFailure("only tensor.generate ops with one block are rewritten")
    type_ = _tensor_type(op)
    empty = b.insert(xtensor.EmptyOp(list(op.dynamicExtents), type_)).results[0]
    generic = _generic_over(rw, b, empty, op.body.block)
    rw.replace(op, [], list(generic.results))
    return generic


def _pad(rw: PatternRewriter, b: IndexBuilder, op: xtensor.PadOp) -> Operation:
    if len(op.region.blocks) != 1:
        raise RewriteFailure("only tensor.pad ops with one block are rewritten")
    type_ = _tensor_type(op)
    low = cast(list[Ofr], mixed_values(op.static_low, op.low))
    high = cast(list[Ofr], mixed_values(op.static_high, op.high))
    # The reified shape: low + source + high for each dynamic result dimension.
    dynamic: list[SSAValue] = []
    for d, size in enumerate(type_.get_shape()):
        if size == DYNAMIC_INDEX:
            total = compose(low[d]) + compose(dim_of(b, op.source, d)) + compose(high[d])
            dynamic.append(b.value(b.apply(total)))
    if (
        op.nofold is not None
        and all(compose(v).constant == 0 for v in low)
        and all(compose(v).constant == 0 for v in high)
    ):
        allocated = b.insert(bufferization.AllocTensorOp(type_, dynamic)).results[0]
        copy = b.insert(linalg.CopyOp([op.source], [allocated]))
        rw.replace(op, [], list(copy.results))
        return copy
    empty = b.insert(xtensor.EmptyOp(dynamic, type_)).results[0]
    fill = _fill_or_generic(rw, b, op, empty)
    # As upstream, the pad's discardable attributes move to the op that writes the padding.
    fill.attributes.update(op.attributes)
    sizes = [dim_of(b, op.source, d) for d in range(len(type_.get_shape()))]
    insert = b.insert(insert_slice(op.source, fill.results[0], low, sizes))
    rw.replace(op, [], list(insert.results))
    return insert


def insert_slice(
    source: SSAValue, dest: SSAValue, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> InsertSliceOp:
    """A unit-stride `tensor.insert_slice` of `source` into `dest`."""

    def split(values: Sequence[Ofr]) -> tuple[DenseArrayBase[IntegerType], list[SSAValue]]:
        static = [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
        return DenseArrayBase.from_list(i64, static), [v for v in values if not isinstance(v, int)]

    static_offsets, dyn_offsets = split([_folded(v) for v in offsets])
    static_sizes, dyn_sizes = split([_folded(v) for v in sizes])
    return InsertSliceOp.build(
        operands=[source, dest, dyn_offsets, dyn_sizes, []],
        result_types=[dest.type],
        properties={
            "static_offsets": static_offsets,
            "static_sizes": static_sizes,
            "static_strides": DenseArrayBase.from_list(i64, [1] * len(sizes)),
        },
    )


def _folded(value: Ofr) -> Ofr:
    constant = compose(value).constant
    return constant if constant is not None else value


def _fill_or_generic(
    rw: PatternRewriter, b: IndexBuilder, op: xtensor.PadOp, dest: SSAValue
) -> Operation:
    """Upstream `movePaddingToFillOrGenericOp`."""
    body = op.region.block
    terminator = body.last_op
    assert terminator is not None
    value = terminator.operands[0]
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        constant = b.insert(arith.ConstantOp(value.op.value, value.type)).results[0]
        return b.insert(linalg.FillOp([constant], [dest]))
    invariant = (isinstance(value, BlockArgument) and value.owner is not body) or (
        isinstance(value, OpResult) and value.op.parent_block() is not body
    )
    if invariant:
        return b.insert(linalg.FillOp([value], [dest]))
    return _generic_over(rw, b, dest, body)


__all__ = ["insert_slice", "rewrite_in_destination_passing_style"]
