"""Pad the operands of a structured op to a static bounding box (upstream's
`rewriteAsPaddedOp`, mlir/lib/Dialect/Linalg/Transforms/Padding.cpp).

    %r = linalg.matmul ins(%a, %b : tensor<24x12xf32>, tensor<12x25xf32>)
                       outs(%c : tensor<24x25xf32>)
  padding_dimensions [0, 1, 2], pad_to_multiple_of [16, 16, 8]:
    %pa = tensor.pad %a low[0, 0] high[8, 4] { tensor.yield %zero } : ... to tensor<32x16xf32>
    %pb = tensor.pad %b ...                                           to tensor<16x32xf32>
    %pc = tensor.pad %c ...                                           to tensor<32x32xf32>
    %p = linalg.matmul ins(%pa, %pb) outs(%pc) -> tensor<32x32xf32>
    %s = tensor.extract_slice %p[0, 0] [24, 25] [1, 1]
    %r = bufferization.materialize_in_destination %s in %c      (or linalg.copy, or none)

An operand is left alone when its padded dims are static multiples already and it is
not `nofold`. A dynamic size is bounded as upstream's ValueBoundsOpInterface bounds the
sizes tiling produces: constants, `affine.min` with a constant result, `affine.max` of
bounded values, and sizes of slices, empties and structured-op results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith, bufferization
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    ContainerType,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap, AffineSymExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from schedir.dialects import affine, linalg
from schedir.dialects.linalg.interface import dps_inits, dps_inputs, indexing_maps, is_structured
from schedir.dialects.tensor import ExtractSliceOp, PadOp
from schedir.dialects.utils import mixed_values
from schedir.transform.rewrites.structured_misc import RewriteFailure

COPY_BACK_OPS = ("bufferization.materialize_in_destination", "linalg.copy", "none")


@dataclass(frozen=True)
class PaddingOptions:
    """Upstream's `LinalgPaddingOptions` as the pad transform op fills them."""

    padding_dimensions: tuple[int, ...]
    pad_to_multiple_of: tuple[int, ...]
    padding_values: tuple[Attribute, ...] = ()
    nofold_flags: tuple[bool, ...] = ()
    copy_back_op: str = "bufferization.materialize_in_destination"
    use_prescribed_tensor_shapes: bool = False
    """Pad dynamic dims to a multiple of their own size rather than to a static bound."""


@dataclass(frozen=True)
class PadResult:
    """The padded clone, the `tensor.pad` ops made and the ops replacing the results."""

    padded: Operation
    pads: tuple[Operation, ...]
    replacements: tuple[SSAValue, ...]
    copy_backs: tuple[Operation, ...] = field(default=())


class _Builder:
    """Inserts new ops in order after the op being padded, with its location."""

    def __init__(self, rewriter: PatternRewriter, after: Operation) -> None:
        self.rewriter = rewriter
        self.anchor = after
        self.location = after.location

    def add(self, op: Operation) -> Operation:
        op.location = self.location
        self.rewriter.insert(op, InsertPoint.after(self.anchor))
        self.anchor = op
        return op

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType()))).results[0]


# --- upper bounds (the part of ValueBoundsOpInterface tiling needs) ----------------------


def _constant_index(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def index_upper_bound(value: SSAValue, depth: int = 0) -> int | None:
    """A constant upper bound (closed) of an index value, or None when unknown."""
    if depth > 32:
        return None
    if (constant := _constant_index(value)) is not None:
        return constant
    if not isinstance(value, OpResult):
        return None
    op = value.op
    if isinstance(op, affine.MinOp | affine.MaxOp | affine.ApplyOp):
        map_ = op.properties["map"]
        assert isinstance(map_, AffineMapAttr)
        bounds = [_expr_bound(e, map_.data, op.operands, depth) for e in map_.data.results]
        if isinstance(op, affine.MinOp):
            known = [b for b in bounds if b is not None]
            return min(known) if known else None
        if any(b is None for b in bounds):
            return None
        return max(b for b in bounds if b is not None)
    return None


def _expr_bound(
    expr: object, map_: AffineMap, operands: Sequence[SSAValue], depth: int
) -> int | None:
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineDimExpr):
        return index_upper_bound(operands[expr.position], depth + 1)
    if isinstance(expr, AffineSymExpr):
        return index_upper_bound(operands[map_.num_dims + expr.position], depth + 1)
    return None


def dim_upper_bound(value: SSAValue, dim: int, depth: int = 0) -> int | None:
    """A constant upper bound of dimension `dim` of tensor `value`."""
    assert isinstance(value.type, TensorType)
    size = value.type.get_shape()[dim]
    if size != DYNAMIC_INDEX:
        return size
    if depth > 32 or not isinstance(value, OpResult):
        return None
    size_value = dynamic_size(value, dim)
    if size_value is not None:
        return index_upper_bound(size_value, depth + 1)
    op = value.op
    if is_structured(op):
        init = dps_inits(op)[value.index]
        return dim_upper_bound(init, dim, depth + 1)
    return None


def dynamic_size(value: SSAValue, dim: int) -> SSAValue | None:
    """The index value a dynamic dim of `value` was created with (slice size or empty
    operand), as `tensor.dim` folds to it; None when it must be queried."""
    if not isinstance(value, OpResult):
        return None
    op = value.op
    assert isinstance(value.type, TensorType)
    if isinstance(op, ExtractSliceOp):
        kept = _kept_slice_dims(op)
        sizes = op.mixed_sizes
        size = sizes[kept[dim]] if dim < len(kept) else None
        return size if isinstance(size, SSAValue) else None
    if isinstance(op, xtensor.EmptyOp):
        shape = value.type.get_shape()
        position = sum(1 for d in shape[:dim] if d == DYNAMIC_INDEX)
        return op.dynamic_sizes[position]
    return None


def _element_type(type_: Attribute) -> Attribute:
    """The element type of a shaped type (tensors and memrefs are containers), else the type."""
    if isinstance(type_, ShapedType):
        return cast(ContainerType[Attribute], type_).get_element_type()
    return type_


def _kept_slice_dims(op: ExtractSliceOp) -> list[int]:
    """Source dims that survive a (possibly rank-reducing) slice, in order."""
    sizes = mixed_values(op.static_sizes, op.sizes)
    assert isinstance(op.result.type, TensorType)
    result_rank = len(op.result.type.get_shape())
    if result_rank == len(sizes):
        return list(range(len(sizes)))
    dropped = len(sizes) - result_rank
    kept: list[int] = []
    for i, size in enumerate(sizes):
        if size == 1 and dropped > 0:
            dropped -= 1
            continue
        kept.append(i)
    return kept


def _mixed_dim(builder: _Builder, value: SSAValue, dim: int) -> int | SSAValue:
    """Upstream's `getMixedSize` folded: a static size, the creating size value, or a
    new `tensor.dim`."""
    assert isinstance(value.type, TensorType)
    size = value.type.get_shape()[dim]
    if size != DYNAMIC_INDEX:
        return size
    if (known := dynamic_size(value, dim)) is not None:
        return known
    index = builder.index(dim)
    return builder.add(xtensor.DimOp(value, index)).results[0]


# --- the rewrite ------------------------------------------------------------------------


def _padded_shape(
    op: Operation, operand: SSAValue, map_: AffineMap, options: PaddingOptions
) -> tuple[list[int], dict[int, int], bool]:
    """Upstream's `computePaddedShape`: the bounding box, the multiples of the dims left
    dynamic (prescribed shapes only) and whether the shape is already as asked."""
    assert isinstance(operand.type, TensorType)
    shape = list(operand.type.get_shape())
    multiples: dict[int, int] = {}
    already = True
    for index, dim in enumerate(options.padding_dimensions):
        for position, expr in enumerate(map_.results):
            if dim in expr.used_dims():
                multiples[position] = options.pad_to_multiple_of[index]
                size = shape[position]
                if size == DYNAMIC_INDEX or size % multiples[position] != 0:
                    already = False
    padded = list(shape)
    dynamic: dict[int, int] = {}
    for position, multiple in multiples.items():
        if options.use_prescribed_tensor_shapes and shape[position] == DYNAMIC_INDEX:
            dynamic[position] = multiple
            continue
        bound = shape[position]
        if not options.use_prescribed_tensor_shapes:
            bound = dim_upper_bound(operand, position)
        if bound is None:
            raise RewriteFailure("operand cannot be bound statically")
        padded[position] = -(-bound // multiple) * multiple
    return padded, dynamic, already


def _compose_pad(
    source: SSAValue, padded_type: TensorType[Attribute], padding: SSAValue
) -> SSAValue | None:
    """Upstream's `makeComposedPadHighOp` short cut: the slice of a padded producer chain
    with the same sizes and padding value is that padded producer's result."""
    if not isinstance(source, OpResult) or not isinstance(source.op, ExtractSliceOp):
        return None
    slice_op = source.op
    current: SSAValue | None = slice_op.source
    while isinstance(current, OpResult) and is_structured(current.op):
        current = dps_inits(current.op)[current.index]
    if not isinstance(current, OpResult) or not isinstance(current.op, xtensor.PadOp):
        return None
    pad = current.op
    if slice_op.source.type != padded_type or any(pad.static_low.get_values()) or pad.low:
        return None
    if not isinstance(pad.source, OpResult) or not isinstance(pad.source.op, ExtractSliceOp):
        return None
    pad_slice = pad.source.op
    if len(slice_op.mixed_sizes) != len(pad_slice.mixed_sizes):
        return None
    for a, b in zip(slice_op.mixed_sizes, pad_slice.mixed_sizes, strict=True):
        if a is not b and not (isinstance(a, int) and a == b):
            return None
    yielded = pad.region.block.last_op
    pad_value = yielded.operands[0] if yielded is not None and yielded.operands else None
    if pad_value is None or _constant_attr(pad_value) is None:
        return None
    if _constant_attr(pad_value) != _constant_attr(padding):
        return None
    return slice_op.source


def _constant_attr(value: SSAValue) -> Attribute | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        return value.op.value
    return None


def _pad_high(
    builder: _Builder,
    source: SSAValue,
    padded_type: TensorType[Attribute],
    padding: SSAValue,
    nofold: bool,
    dynamic_multiples: dict[int, int],
) -> tuple[Operation, SSAValue]:
    """Upstream's `createPadHighOp`: pad at the high end to `padded_type`; a dynamic dim
    is padded to the next multiple of its size in `dynamic_multiples` (else not at all)."""
    assert isinstance(source.type, TensorType)
    high_static: list[int] = []
    high_dynamic: list[SSAValue] = []
    for dim, size in enumerate(padded_type.get_shape()):
        source_size = _mixed_dim(builder, source, dim)
        if isinstance(source_size, int):
            high_static.append(size - source_size)
            continue
        d0 = AffineDimExpr(0)
        if size == DYNAMIC_INDEX:
            multiple = dynamic_multiples.get(dim, 1)
            if multiple == 1:
                high_static.append(0)
                continue
            # ceil(d0 / m) * m - d0
            expr = d0.ceil_div(multiple) * multiple - d0
        else:
            # size - d0, folded into one affine.apply as makeComposedFoldedAffineApply does.
            expr = AffineConstantExpr(size) - d0
        map_ = AffineMap(1, 0, (expr,))
        apply = builder.add(affine.ApplyOp([source_size], AffineMapAttr(map_)))
        high_static.append(DYNAMIC_INDEX)
        high_dynamic.append(apply.results[0])

    def body() -> Region:
        block = Block(arg_types=[IndexType()] * len(padded_type.get_shape()))
        block.add_op(xtensor.YieldOp(padding))
        return Region(block)

    pad = PadOp(
        source,
        [],
        high_dynamic,
        body(),
        [0] * len(high_static),
        high_static,
        padded_type,
        UnitAttr() if nofold else None,
    )
    try:
        pad.verify()
    except VerifyException:
        pad.erase()
        # xDSL's tensor.pad verifier (unlike upstream's) rejects a result dim more static
        # than the source's: pad to the inferred type and cast, which means the same.
        inferred = TensorType(
            padded_type.get_element_type(),
            [
                DYNAMIC_INDEX if high == DYNAMIC_INDEX or src == DYNAMIC_INDEX else size
                for size, src, high in zip(
                    padded_type.get_shape(), source.type.get_shape(), high_static, strict=True
                )
            ],
        )
        pad = PadOp(
            source,
            [],
            high_dynamic,
            body(),
            [0] * len(high_static),
            high_static,
            inferred,
            UnitAttr() if nofold else None,
        )
        builder.add(pad)
        cast = builder.add(xtensor.CastOp(pad.results[0], padded_type))
        return pad, cast.results[0]
    return builder.add(pad), pad.results[0]


def _padding_constant(builder: _Builder, attr: Attribute) -> SSAValue:
    return builder.add(arith.ConstantOp(attr)).results[0]  # type: ignore[arg-type]  # xDSL's ConstantOp wants a narrower attribute type than the typed attribute built here


def zero_attr(type_: Attribute) -> Attribute:
    """`rewriter.getZeroAttr` for the element types schedir supports."""
    if isinstance(type_, IntegerType | IndexType):
        return IntegerAttr(0, type_)
    if isinstance(type_, AnyFloat):
        return FloatAttr(0.0, type_)
    raise RewriteFailure(f"no zero padding value for {type_}")


def pad_op(rewriter: PatternRewriter, op: Operation, options: PaddingOptions) -> PadResult:
    """Rewrite structured op `op` on padded operands (upstream's `rewriteAsPaddedOp`) and
    replace its results with slices of the padded results (copied back as asked)."""
    operands = [*dps_inputs(op), *dps_inits(op)]
    if not all(isinstance(v.type, TensorType) for v in dps_inits(op)) or any(
        not isinstance(t, TensorType) for t in op.result_types
    ):
        raise RewriteFailure("expected operation on tensors")
    padding_values = list(options.padding_values)
    if not padding_values:
        padding_values = [
            zero_attr(_element_type(t)) for t in [*(v.type for v in operands), *op.result_types]
        ]
    maps = indexing_maps(op)
    builder = _Builder(rewriter, op)
    new_operands: list[SSAValue] = []
    pads: list[Operation] = []
    for number, (operand, map_) in enumerate(zip(operands, maps, strict=True)):
        if not isinstance(operand.type, TensorType):
            new_operands.append(operand)  # a scalar operand has nothing to pad
            continue
        shape, dynamic_multiples, already = _padded_shape(op, operand, map_, options)
        nofold = number < len(options.nofold_flags) and options.nofold_flags[number]
        if already and not nofold:
            new_operands.append(operand)
            continue
        if number >= len(padding_values):
            raise RewriteFailure("no padding value specified")
        padding = _padding_constant(builder, padding_values[number])
        padded_type = TensorType(operand.type.get_element_type(), shape)
        composed = _compose_pad(operand, padded_type, padding)
        if composed is not None:
            new_operands.append(composed)
            continue
        pad, padded_value = _pad_high(
            builder, operand, padded_type, padding, nofold, dynamic_multiples
        )
        pads.append(pad)
        new_operands.append(padded_value)
    # Result shapes of the original op (its inits'), for the slices of the padded results.
    num_inputs = len(dps_inputs(op))
    result_sizes = [
        [_mixed_dim(builder, init, d) for d in range(len(init.type.get_shape()))]  # type: ignore[union-attr]  # the operand is a ranked shaped type (the op verifies it)
        for init in dps_inits(op)
    ]
    padded = type(op).create(
        operands=new_operands,
        result_types=[v.type for v in new_operands[num_inputs:]],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[region.clone() for region in op.regions],
    )
    builder.add(padded)
    slices: list[SSAValue] = []
    for result, sizes in zip(padded.results, result_sizes, strict=True):
        rank = len(sizes)
        assert isinstance(result.type, TensorType)
        slice_type = TensorType(
            result.type.get_element_type(),
            [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes],
        )
        slice_op = ExtractSliceOp(result, [0] * rank, sizes, [1] * rank, slice_type)
        slices.append(builder.add(slice_op).results[0])
    copy_backs: list[Operation] = []
    replacements = list(slices)
    if options.copy_back_op != "none":
        replacements = []
        for value, init in zip(slices, dps_inits(op), strict=True):
            if options.copy_back_op == "linalg.copy":
                copy: Operation = linalg.CopyOp([value], [init])
            else:
                copy = bufferization.MaterializeInDestinationOp.create(
                    operands=[value, init], result_types=[init.type]
                )
            builder.add(copy)
            copy_backs.append(copy)
            replacements.append(copy.results[0])
    rewriter.replace(op, [], replacements)
    return PadResult(padded, tuple(pads), tuple(replacements), tuple(copy_backs))


__all__ = [
    "COPY_BACK_OPS",
    "PadResult",
    "PaddingOptions",
    "dim_upper_bound",
    "index_upper_bound",
    "pad_op",
    "zero_attr",
]
