"""The pattern sets of the `transform.apply_patterns.tensor.*` descriptors that are not in
`canonicalize.driver`'s own table.

`schedir.transform.ops.tensor` joins each descriptor class to its set here.

    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op

`tensor.fold_tensor_empty`: ops that only reshape, slice or concatenate `tensor.empty`s
become a `tensor.empty` of their result (upstream's EmptyOpPatterns.cpp):

    %e = tensor.empty() : tensor<16x64xf32>
    %s = tensor.extract_slice %e[%i, 0] [4, 64] [1, 1] : tensor<16x64xf32> to tensor<4x64xf32>
    // ->
    %s = tensor.empty() : tensor<4x64xf32>

* `extract_slice` of an empty: an empty of the (possibly rank-reduced) slice type, with
  the slice's dynamic sizes;
* `expand_shape` / `collapse_shape` of an empty: an empty of the result shape (sizes from
  the expand's output shape; a collapse with a dynamic result is left alone, as schedir
  does not reify its sizes);
* `concat` of empties only: an empty of the result type (static results).

With `fold_single_use_only`, the reshape and slice folds require the `tensor.empty` to
have no other use.

`tensor.merge_consecutive_insert_extract_slice` (upstream's
MergeConsecutiveInsertExtractSlicePatterns.cpp), its extract half: a slice of a slice
that keeps every dim (not rank-reducing) becomes one slice of the first's source, with
the second's sizes and result type (so it may reduce the rank):

    %a = tensor.extract_slice %t[0, %g] [8192, 1] [1, 1] : tensor<8192x256xf32> to tensor<8192x1xf32>
    %b = tensor.extract_slice %a[0, 0] [8192, 1] [1, 1] : tensor<8192x1xf32> to tensor<8192xf32>
    // ->
    %b = tensor.extract_slice %t[0, %g] [8192, 1] [1, 1] : tensor<8192x256xf32> to tensor<8192xf32>

schedir merges unit-stride slices whose offsets add up without arithmetic (one of each
pair of offsets a static 0, or both static); other pairs, and consecutive insert_slices,
are left alone.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from schedir.dialects.tensor import ExtractSliceOp, GenerateOp
from schedir.dialects.utils import Mixed
from schedir.transform.rewrites.constants import constant_attr
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter

# --- tensor.fold_tensor_empty ------------------------------------------------------------


def _empty_source(value: SSAValue, single_use_only: bool) -> Operation | None:
    owner = value.owner if isinstance(value, OpResult) else None
    if not isinstance(owner, xtensor.EmptyOp):
        return None
    if single_use_only and len(list(owner.results[0].uses)) != 1:
        return None
    return owner


def _new_empty(rw: CanonRewriter, op: Operation, sizes: list[SSAValue], result: Attribute) -> None:
    empty = xtensor.EmptyOp(sizes, result)
    rw.replace_with_op(op, empty)


def fold_tensor_empty_patterns(single_use_only: bool = False) -> PatternSet:
    """The patterns of `tensor.fold_tensor_empty`."""

    def extract_slice(op: xtensor.ExtractSliceOp, rw: CanonRewriter) -> bool:
        if _empty_source(op.operands[0], single_use_only) is None:
            return False
        result = cast(TensorType[Attribute], op.results[0].type)
        sizes = list(op.sizes)
        static = list(op.static_sizes.get_values())
        # The dynamic sizes of the kept dims (a dropped dim is a static 1).
        kept = [s for s in static if s == DYNAMIC_INDEX]
        if len(kept) != sum(1 for d in result.get_shape() if d == DYNAMIC_INDEX):
            return False
        rw.set_insertion_point(op)
        _new_empty(rw, op, sizes, result)
        return True

    def reshape(op: xtensor.ExpandShapeOp | xtensor.CollapseShapeOp, rw: CanonRewriter) -> bool:
        if _empty_source(op.operands[0], single_use_only) is None:
            return False
        result = cast(TensorType[Attribute], op.results[0].type)
        dynamic = [d for d in result.get_shape() if d == DYNAMIC_INDEX]
        if isinstance(op, xtensor.ExpandShapeOp):
            sizes = list(op.operands[1:])
        elif dynamic:
            return False
        else:
            sizes = []
        if len(sizes) != len(dynamic):
            return False
        rw.set_insertion_point(op)
        _new_empty(rw, op, sizes, result)
        return True

    def concat(op: xtensor.ConcatOp, rw: CanonRewriter) -> bool:
        if not op.operands or any(_empty_source(v, False) is None for v in op.operands):
            return False
        result = cast(TensorType[Attribute], op.results[0].type)
        if any(d == DYNAMIC_INDEX for d in result.get_shape()):
            return False
        rw.set_insertion_point(op)
        _new_empty(rw, op, [], result)
        return True

    return (
        PatternSet()
        .add(xtensor.ExtractSliceOp, extract_slice)
        .add(xtensor.ExpandShapeOp, reshape)
        .add(xtensor.CollapseShapeOp, reshape)
        .add(xtensor.ConcatOp, concat)
    )


# --- tensor.merge_consecutive_insert_extract_slice ----------------------------------------


def _sum_without_arithmetic(a: Mixed, b: Mixed) -> Mixed | None:
    """a + b when it needs no new op (one is a static 0, or both are static)."""
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if a == 0:
        return b
    if b == 0:
        return a
    return None


def _merge_extract_of_extract(op: ExtractSliceOp, rw: CanonRewriter) -> bool:
    producer = op.source.owner if isinstance(op.source, OpResult) else None
    if not isinstance(producer, ExtractSliceOp):
        return False
    source_rank = len(cast(TensorType[Attribute], producer.source.type).get_shape())
    if len(cast(TensorType[Attribute], producer.result.type).get_shape()) != source_rank:
        return False  # a rank-reducing first slice: its dims no longer line up
    if any(s != 1 for s in (*producer.mixed_strides, *op.mixed_strides)):
        return False
    offsets: list[Mixed] = []
    for outer, inner in zip(producer.mixed_offsets, op.mixed_offsets, strict=True):
        total = _sum_without_arithmetic(outer, inner)
        if total is None:
            return False
        offsets.append(total)
    rw.set_insertion_point(op)
    merged = ExtractSliceOp(
        producer.source, offsets, op.mixed_sizes, [1] * source_rank, op.result.type
    )
    rw.replace_with_op(op, merged)
    return True


def merge_consecutive_insert_extract_slice_patterns() -> PatternSet:
    """The patterns of `tensor.merge_consecutive_insert_extract_slice` (its extract half)."""
    return PatternSet().add(ExtractSliceOp, _merge_extract_of_extract)


__all__ = [
    "fold_tensor_empty_patterns",
    "merge_consecutive_insert_extract_slice_patterns",
    "rewrite_as_constant_patterns",
]


def rewrite_as_constant_patterns(aggressive: bool = False) -> PatternSet:
    """The patterns of `tensor.rewrite_as_constant` (upstream RewriteAsConstant.cpp):

    * a `tensor.generate` of static shape yielding a constant is a splat `arith.constant`;
    * a `tensor.pad` of static shape, without `nofold`, of a constant source with a
      constant padding value is the padded `arith.constant` (without `aggressive`, only
      when the source constant has no other use).
    """

    def generate(op: GenerateOp, rw: CanonRewriter) -> bool:
        result = cast(TensorType[Attribute], op.results[0].type)
        terminator = op.body.block.last_op
        if terminator is None or DYNAMIC_INDEX in result.get_shape():
            return False
        value = constant_attr(terminator.operands[0])
        if not isinstance(value, IntegerAttr | FloatAttr):
            return False
        scalar = cast(int | float, value.value.data)
        attr = DenseIntOrFPElementsAttr.from_list(result, [scalar])  # type: ignore[arg-type]  # xDSL's from_list wants a narrower container type than the tensor type checked here
        rw.replace_with_op(op, arith.ConstantOp(attr, result))
        return True

    def pad(op: xtensor.PadOp, rw: CanonRewriter) -> bool:
        result = cast(TensorType[Attribute], op.results[0].type)
        shape = list(result.get_shape())
        if op.nofold is not None or DYNAMIC_INDEX in shape:
            return False
        source = op.source
        if not aggressive and len(list(source.uses)) != 1:
            return False
        source_attr = constant_attr(source)
        terminator = op.region.block.last_op
        padding = constant_attr(terminator.operands[0]) if terminator is not None else None
        if not isinstance(source_attr, DenseIntOrFPElementsAttr) or not isinstance(
            padding, IntegerAttr | FloatAttr
        ):
            return False
        low = list(op.static_low.get_values())
        if DYNAMIC_INDEX in low or DYNAMIC_INDEX in list(op.static_high.get_values()):
            return False
        source_shape = list(cast(TensorType[Attribute], source.type).get_shape())
        values = list(source_attr.get_values())
        if source_attr.is_splat() and len(values) == 1:
            values = values * _count(source_shape)
        padded = [cast(int | float, padding.value.data)] * _count(shape)
        for flat, value in enumerate(values):
            index = _unflatten(flat, source_shape)
            padded[_flatten([i + lo for i, lo in zip(index, low, strict=True)], shape)] = value
        attr = DenseIntOrFPElementsAttr.from_list(result, padded)  # type: ignore[arg-type]  # xDSL's from_list wants a narrower container type than the tensor type checked here
        rw.replace_with_op(op, arith.ConstantOp(attr, result))
        return True

    return PatternSet().add(GenerateOp, generate).add(xtensor.PadOp, pad)


def _count(shape: list[int]) -> int:
    total = 1
    for size in shape:
        total *= size
    return total


def _unflatten(flat: int, shape: list[int]) -> list[int]:
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return index[::-1]


def _flatten(index: list[int], shape: list[int]) -> int:
    flat = 0
    for i, size in zip(index, shape, strict=True):
        flat = flat * size + i
    return flat
