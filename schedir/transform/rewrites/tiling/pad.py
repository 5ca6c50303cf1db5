"""The TilingInterface of `tensor.pad` (upstream's `PadOpTiling` and `bubbleUpPadSlice`,
mlir/lib/Dialect/Tensor/IR/TensorTilingInterfaceImpl.cpp).

A pad's iteration space is its result; every loop is parallel. The tile
`[offset, offset + length)` of one dimension reads the part of the source that falls into
it and pads the rest, so a tile of a pad is a smaller pad of a slice of the source:

    %s = tensor.extract_slice %src[%new_offset] [%new_length] [1]
    %p = tensor.pad %s low[%new_low] high[%new_high] { tensor.yield %cst : f32 }
    %t = tensor.cast %p : tensor<?xf32> to tensor<8xf32>

with, in source coordinates (the source occupies `[low, low + src)` of the result),

    new_low    = max(low - offset, 0)
    new_offset = min(max(offset - low, 0), src)
    new_length = max(min(src - new_offset, length - new_low), 0)
    new_high   = length - new_low - new_length

A tile that reads nothing of the source (`new_length == 0`) would make a slice of size 0;
it is a `tensor.generate` of the padding value instead, statically when the length folds
to 0 and behind an `scf.if` on `new_length == 0` otherwise. Only a padding value defined
outside the pad's body can be tiled (upstream's `getConstantPaddingValue`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, scf
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, TensorType, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from schedir.dialects.tensor import ExtractSliceOp, GenerateOp
from schedir.transform.rewrites.tiling.affine import Aff, IndexBuilder, Ofr, compose, is_zero
from schedir.transform.rewrites.vectorization.tensor import pad_high, pad_low, pad_value


@dataclass(frozen=True)
class PadTile:
    """A tile of a pad: the op computing it (the new pad, or a `tensor.generate`), its
    value (after a cast to the tile's type, or from the guarding `scf.if`), the slices."""

    tiled_op: Operation
    value: SSAValue
    slices: tuple[Operation, ...]


class PadTilingError(Exception):
    """A `tensor.pad` cannot be tiled (its padding value is computed in its body)."""


def pad_result_sizes(b: IndexBuilder, op: xtensor.PadOp) -> list[Ofr]:
    """Upstream's `reifyResultShapes` of a pad: static sizes, else `low + dim(src) + high`."""
    shape = cast(TensorType[Attribute], op.result.type).get_shape()
    lows, highs = pad_low(op), pad_high(op)
    sizes: list[Ofr] = []
    for d, size in enumerate(shape):
        if size != DYNAMIC_INDEX:
            sizes.append(size)
            continue
        sizes.append(b.apply(compose(lows[d]) + compose(_dim(b, op.source, d)) + compose(highs[d])))
    return sizes


def pad_destination(b: IndexBuilder, op: xtensor.PadOp) -> SSAValue:
    """A `tensor.empty` of the pad's result shape (upstream's `getOrCreateDestinations`
    for an op that is not in destination-passing style), created before `op`."""
    saved = b.rewriter.insertion_point
    b.rewriter.insertion_point = InsertPoint.before(op)
    try:
        sizes = pad_result_sizes(b, op)
        result_type = cast(TensorType[Attribute], op.result.type)
        dynamic = [s for s in sizes if isinstance(s, SSAValue)]
        return b.insert(xtensor.EmptyOp(dynamic, result_type)).results[0]
    finally:
        b.rewriter.insertion_point = saved


def _dim(b: IndexBuilder, value: SSAValue, dim: int) -> Ofr:
    """The size of `dim` of a tensor: static, or a new `tensor.dim`."""
    size = cast(TensorType[Attribute], value.type).get_shape()[dim]
    if size != DYNAMIC_INDEX:
        return size
    return b.insert(xtensor.DimOp(value, b.constant(dim))).results[0]


def _cast(b: IndexBuilder, value: SSAValue, result_type: TensorType[Attribute]) -> SSAValue:
    if value.type == result_type:
        return value
    return b.insert(xtensor.CastOp(value, result_type)).results[0]


def bubble_up_pad_slice(
    b: IndexBuilder,
    op: xtensor.PadOp,
    offsets: Sequence[Ofr],
    sizes: Sequence[Ofr],
    *,
    zero_slice_guard: bool = True,
) -> PadTile:
    """The tile `offsets`/`sizes` of `op`'s result, built at `b` (see the module docstring)."""
    padding = pad_value(op)
    if padding is None:
        # Upstream's bubbleUpPadSlice fails, and tiling reports it with this message.
        raise PadTilingError(f"'{op.name}' op failed to tile operation")
    lows, highs = pad_low(op), pad_high(op)
    new_offsets: list[Ofr] = []
    new_lengths: list[Ofr] = []
    new_lows: list[Ofr] = []
    new_highs: list[Ofr] = []
    has_zero_length = False
    zero_checks: list[SSAValue] = []
    for d, (low, high, offset, length) in enumerate(zip(lows, highs, offsets, sizes, strict=True)):
        src = compose(_dim(b, op.source, d))
        has_low = not is_zero(low)
        new_low: Ofr = b.max([compose(low) - compose(offset), Aff.const(0)]) if has_low else 0
        start = (
            compose(b.max([compose(offset) - compose(low), Aff.const(0)]))
            if has_low
            else compose(offset)
        )
        new_offset = b.min([start, src])
        available = b.min([src - compose(new_offset), compose(length) - compose(new_low)])
        new_length = b.max([compose(available), Aff.const(0)]) if has_low else available
        new_high: Ofr = (
            b.apply(compose(length) - compose(new_low) - compose(new_length))
            if not is_zero(high)
            else 0
        )
        if isinstance(new_length, int):
            has_zero_length |= new_length == 0
        else:
            zero = b.constant(0)
            check = b.insert(arith.CmpiOp(new_length, zero, "eq")).results[0]
            if zero_checks:
                check = b.insert(arith.OrIOp(check, zero_checks[-1])).results[0]
            zero_checks.append(check)
        new_offsets.append(new_offset)
        new_lengths.append(new_length)
        new_lows.append(new_low)
        new_highs.append(new_high)

    element = cast(TensorType[Attribute], op.result.type).get_element_type()
    result_type = TensorType(element, [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes])
    dynamic_sizes = [s for s in sizes if isinstance(s, SSAValue)]

    def generate() -> PadTile:
        body = Block(arg_types=[IndexType()] * len(sizes))
        body.add_op(xtensor.YieldOp(padding))
        gen = b.insert(GenerateOp(dynamic_sizes, result_type, Region(body)))
        return PadTile(gen, gen.results[0], ())

    def pad_of_slice() -> PadTile:
        source_type = TensorType(
            element, [s if isinstance(s, int) else DYNAMIC_INDEX for s in new_lengths]
        )
        ones: list[Ofr] = [1] * len(new_lengths)
        slice_op = b.insert(ExtractSliceOp(op.source, new_offsets, new_lengths, ones, source_type))
        source = slice_op.results[0]
        padded_shape = [
            length + low + high
            if isinstance(length, int) and isinstance(low, int) and isinstance(high, int)
            else DYNAMIC_INDEX
            for length, low, high in zip(new_lengths, new_lows, new_highs, strict=True)
        ]
        pad = type(op).build(
            operands=[
                source,
                [v for v in new_lows if isinstance(v, SSAValue)],
                [v for v in new_highs if isinstance(v, SSAValue)],
            ],
            result_types=[TensorType(element, padded_shape)],
            properties={
                **op.properties,
                "static_low": _static(new_lows),
                "static_high": _static(new_highs),
            },
            attributes=dict(op.attributes),
            regions=[op.region.clone()],
        )
        b.insert(pad)
        return PadTile(pad, _cast(b, pad.results[0], result_type), (slice_op,))

    if has_zero_length:
        return generate()
    if zero_slice_guard and zero_checks:
        saved = b.rewriter.insertion_point
        if_op = b.insert(scf.IfOp(zero_checks[-1], [result_type], Region(Block()), Region(Block())))
        tiles: list[PadTile] = []
        try:
            for region, build in ((if_op.regions[0], generate), (if_op.regions[1], pad_of_slice)):
                block = region.blocks.first
                assert block is not None  # built with one block above
                b.rewriter.insertion_point = InsertPoint.at_end(block)
                tiles.append(build())
                b.insert(scf.YieldOp(tiles[-1].value))
        finally:
            b.rewriter.insertion_point = saved
        # As upstream: the tiled op is the pad of the `else` branch, the value the `scf.if`'s.
        return PadTile(tiles[1].tiled_op, if_op.results[0], tiles[1].slices)
    return pad_of_slice()


def _static(values: Sequence[Ofr]) -> Attribute:
    return DenseArrayBase.from_list(
        i64, [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    )


__all__ = [
    "PadTile",
    "PadTilingError",
    "bubble_up_pad_slice",
    "pad_destination",
    "pad_result_sizes",
]
