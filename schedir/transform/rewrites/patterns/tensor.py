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
becomes one slice of the first's source, with the second's sizes and result type:

    %a = tensor.extract_slice %t[0, %g] [8192, 1] [1, 1] : tensor<8192x256xf32> to tensor<8192x1xf32>
    %b = tensor.extract_slice %a[0, 0] [8192, 1] [1, 1] : tensor<8192x1xf32> to tensor<8192xf32>
    // ->
    %b = tensor.extract_slice %t[0, %g] [8192, 1] [1, 1] : tensor<8192x256xf32> to tensor<8192xf32>

The offsets combine as upstream's `mergeOffsetsSizesAndStrides` (first + second * first's
stride, an `affine.apply` where not static), the strides multiply, a dim the first slice
dropped keeps its offset; where that needs a product of two dynamic values (strides,
or an offset and a stride: upstream's semi-affine `s0 * s1`) the pair is left alone, as are
consecutive insert_slices (their half of upstream's set is not implemented).
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from schedir.dialects.affine import ApplyOp
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


def _kept_dims(sizes: list[Mixed], result: TensorType[Attribute]) -> list[bool] | None:
    """Which dims of a slice its result keeps (unit dims of the sizes that the result
    lacks are dropped; which of two equal unit dims is dropped does not matter here)."""
    shape = result.get_shape()
    kept: list[bool] = []
    j = 0
    for size in sizes:
        static = size if isinstance(size, int) else DYNAMIC_INDEX
        if j < len(shape) and shape[j] == static:
            kept.append(True)
            j += 1
        elif size == 1:
            kept.append(False)
        else:
            return None
    return kept if j == len(shape) else None


def _offset(rw: CanonRewriter, op: Operation, outer: Mixed, inner: Mixed, stride: Mixed) -> Mixed:
    """outer + inner * stride, folded where static (an affine.apply of symbols otherwise)."""
    if isinstance(outer, int) and isinstance(inner, int) and isinstance(stride, int):
        return outer + inner * stride
    if inner == 0:
        return outer
    symbols: list[SSAValue] = []

    def term(value: Mixed) -> AffineExpr:
        if isinstance(value, int):
            return AffineExpr.constant(value)
        symbols.append(value)
        return AffineExpr.symbol(len(symbols) - 1)

    expr = term(outer) + term(inner) * term(stride)
    map_ = AffineMap(0, len(symbols), (expr,))
    return rw.create(ApplyOp(symbols, AffineMapAttr(map_)), op).results[0]


def _stride(outer: Mixed, inner: Mixed) -> Mixed | None:
    """outer * inner (None for two dynamic strides: left to upstream)."""
    if isinstance(outer, int) and isinstance(inner, int):
        return outer * inner
    if outer == 1:
        return inner
    if inner == 1:
        return outer
    return None


def _merge_extract_of_extract(op: ExtractSliceOp, rw: CanonRewriter) -> bool:
    producer = op.source.owner if isinstance(op.source, OpResult) else None
    if not isinstance(producer, ExtractSliceOp):
        return False
    kept = _kept_dims(producer.mixed_sizes, cast(TensorType[Attribute], producer.result.type))
    if kept is None:
        return False
    # Per dim of the first slice's source: (first offset, stride; second offset, size,
    # stride), the second's entries None where the first slice dropped the dim.
    consumer = iter(zip(op.mixed_offsets, op.mixed_sizes, op.mixed_strides, strict=True))
    dims = [
        (p_off, p_stride, next(consumer) if keep else None)
        for keep, p_off, p_stride in zip(
            kept, producer.mixed_offsets, producer.mixed_strides, strict=True
        )
    ]
    strides: list[Mixed] = []
    for _, p_stride, second in dims:
        stride = p_stride if second is None else _stride(p_stride, second[2])
        if stride is None:
            return False
        if second is not None and not isinstance(second[0], int) and not isinstance(p_stride, int):
            return False  # a product of two symbols: semi-affine, left alone
        strides.append(stride)
    rw.set_insertion_point(op)
    offsets: list[Mixed] = []
    sizes: list[Mixed] = []
    for p_off, p_stride, second in dims:
        if second is None:  # dropped by the first slice: its one index
            offsets.append(p_off)
            sizes.append(1)
            continue
        offsets.append(_offset(rw, op, p_off, second[0], p_stride))
        sizes.append(second[1])
    merged = ExtractSliceOp(producer.source, offsets, sizes, strides, op.result.type)
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
