"""The TilingInterface of payload ops: what a tile of an op is, as upstream computes it.

Upstream implements `TilingInterface` for every structured linalg op in
mlir/lib/Dialect/Linalg/Transforms/TilingInterfaceImpl.cpp (and for `linalg.softmax` in
LinalgOps.cpp), and for `tensor.pad` in TensorTilingInterfaceImpl.cpp (`tiling.pad`: a
tile of a pad is a pad of a slice of its source). For a tile of the iteration space, given by one offset and one size per
loop, an op is tiled by slicing each operand through its indexing map
(`computeSliceParameters`: offset `m(offsets) - m(0)`, size `m(sizes - 1) + 1`, so a
convolution window `d1 + d4` gets `s1 + s4 - 1`) and cloning the op on the slices:

    %a = tensor.extract_slice %A[%i, 0] [%sz, 29] [1, 1] : tensor<37x29xf32> to tensor<?x29xf32>
    %c = tensor.extract_slice %C[%i, 0] [%sz, 53] [1, 1] : ...
    %t = linalg.matmul ins(%a, %b : ...) outs(%c : tensor<?x53xf32>) -> tensor<?x53xf32>

Init operands are always sliced, inputs only when some loop of their map is tiled (a size
of 0 means untiled), scalars never. `linalg.index` results in the body are shifted by the
tile offset. Fusion needs the inverse direction too: the iteration-space tile that
computes a given tile of a result (`generate_result_tile_value`).

An op with pure buffer semantics (memref operands, no results) tiles the same way with
`memref.subview`s instead of slices (upstream's `materializeTiledShape`); the tiled op has
no results and nothing is inserted back:

    %a = memref.subview %A[%i, 0] [%sz, 29] [1, 1] : memref<37x29xf32> to
        memref<?x29xf32, strided<[29, 1], offset: ?>>
    linalg.matmul ins(%a, %b : ...) outs(%c : memref<?x53xf32, strided<[53, 1], offset: ?>>)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import memref as xmemref
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    MemRefType,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint

from schedir.dialects import linalg
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
    iterator_types,
    num_loops,
)
from schedir.dialects.tensor import ExtractSliceOp
from schedir.transform.rewrites.tiling.affine import (
    Aff,
    IndexBuilder,
    Ofr,
    compose,
    constant_of,
    is_zero,
    substitute,
)
from schedir.transform.rewrites.tiling.pad import (
    PadTilingError,
    bubble_up_pad_slice,
    pad_destination,
    pad_result_sizes,
)


class TilingError(Exception):
    """An op cannot be tiled as asked (the message is upstream's, when it has one)."""


class OpTilingError(TilingError):
    """The tiled implementation of payload op `op` failed; upstream reports the message
    at that op, followed by "failed to generate tiling loops" there."""

    def __init__(self, message: str, op: Operation) -> None:
        super().__init__(message)
        self.op = op


@dataclass(frozen=True)
class Range:
    """One loop of an iteration space: `offset`, `size` (trip extent) and `stride`."""

    offset: Ofr
    size: Ofr
    stride: Ofr = 1


@dataclass(frozen=True)
class TiledValues:
    """What tiling one op produced: the tiled ops, their values and the operand slices."""

    tiled_ops: tuple[Operation, ...]
    tiled_values: tuple[SSAValue, ...]
    generated_slices: tuple[Operation, ...]


# --- which ops tile ----------------------------------------------------------------------


def is_tileable(op: Operation) -> bool:
    """Whether `op` implements the TilingInterface: upstream gives it to the structured ops,
    `linalg.softmax` and `tensor.pad` (`linalg.pack`/`unpack` are not tiled by schedir)."""
    return is_structured(op) or isinstance(op, linalg.SoftmaxOp | xtensor.PadOp)


def loop_iterator_types(op: Operation) -> tuple[str, ...]:
    """Each loop's iterator type: "parallel", "reduction" or "window"."""
    if isinstance(op, xtensor.PadOp):
        return ("parallel",) * len(cast(ShapedType, op.result.type).get_shape())
    if isinstance(op, linalg.SoftmaxOp):
        rank = len(cast(ShapedType, op.output.type).get_shape())
        dim = op.dimension.value.data
        return tuple("reduction" if d == dim else "parallel" for d in range(rank))
    return iterator_types(op)


def whole_dims(op: Operation) -> tuple[int, ...]:
    """The loops a tile of `op` must cover whole: every result element of a softmax depends
    on its entire softmax dimension, so a partial tile of it computes a different softmax.
    (Reduction loops of structured ops are not among them: tiling them accumulates.)"""
    if isinstance(op, linalg.SoftmaxOp):
        return (op.dimension.value.data,)
    return ()


def covers_whole_loop(tile_size: Ofr, loop: Range) -> bool:
    """Whether a tile of `tile_size` (0 = untiled) spans all of `loop` statically."""
    size = constant_of(tile_size)
    if size == 0:
        return True
    extent, start = constant_of(loop.size), constant_of(loop.offset)
    return size is not None and extent is not None and start is not None and size >= extent - start


def destinations(op: Operation) -> tuple[SSAValue, ...]:
    """The destination (init) operands, one per result; none for a `tensor.pad`, which is
    not in destination-passing style (`create_destinations` makes one)."""
    if isinstance(op, linalg.SoftmaxOp):
        return (op.output,)
    if isinstance(op, xtensor.PadOp):
        return ()
    return dps_inits(op)


def create_destinations(b: IndexBuilder, op: Operation) -> tuple[SSAValue, ...]:
    """Upstream's `getOrCreateDestinations`: the destination operands, or for an op
    without them a new `tensor.empty` of each result's shape (before `op`)."""
    if isinstance(op, xtensor.PadOp):
        return (pad_destination(b, op),)
    return destinations(op)


def _operands_and_maps(op: Operation) -> tuple[list[SSAValue], tuple[AffineMap, ...], int]:
    inputs = dps_inputs(op)
    return [*inputs, *dps_inits(op)], indexing_maps(op), len(inputs)


# --- building blocks ---------------------------------------------------------------------


@contextmanager
def insertion_point(b: IndexBuilder, point: InsertPoint) -> Iterator[None]:
    """Temporarily build at `point` (upstream's `OpBuilder::InsertionGuard`)."""
    saved = b.rewriter.insertion_point
    b.rewriter.insertion_point = point
    try:
        yield
    finally:
        b.rewriter.insertion_point = saved


def dim_of(b: IndexBuilder, value: SSAValue, dim: int) -> Ofr:
    """The size of `dim` of a shaped value: its static size or a new `tensor.dim` (or
    `memref.dim`), as upstream's `createOrFoldDimOp`."""
    size = cast(ShapedType, value.type).get_shape()[dim]
    if size != DYNAMIC_INDEX:
        return size
    index = b.constant(dim)
    if isinstance(value.type, MemRefType):
        return b.insert(xmemref.DimOp(value, index)).results[0]
    return b.insert(xtensor.DimOp(value, index)).results[0]


def extract_slice(
    b: IndexBuilder, source: SSAValue, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> ExtractSliceOp:
    """A unit-stride `tensor.extract_slice`; static sizes give static result dims."""
    source_type = cast(TensorType[Attribute], source.type)
    result_type = TensorType(
        source_type.get_element_type(), [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
    )
    op = ExtractSliceOp(source, list(offsets), list(sizes), [1] * len(sizes), result_type)
    b.insert(op)
    return op


def subview(
    b: IndexBuilder, source: SSAValue, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> xmemref.SubviewOp:
    """A unit-stride `memref.subview` with upstream's inferred (strided) result type."""
    source_type = cast(MemRefType[Attribute], source.type)
    strides: list[Ofr] = [1] * len(sizes)
    result_type = xmemref.SubviewOp.infer_result_type(
        source_type, list(offsets), list(sizes), strides
    )
    static_offsets, dynamic_offsets = _split(offsets)
    static_sizes, dynamic_sizes = _split(sizes)
    op = xmemref.SubviewOp.build(
        operands=[source, dynamic_offsets, dynamic_sizes, []],
        result_types=[result_type],
        properties={
            "static_offsets": static_offsets,
            "static_sizes": static_sizes,
            "static_strides": DenseArrayBase.from_list(i64, [1] * len(sizes)),
        },
    )
    b.insert(op)
    return op


def tiled_shape(
    b: IndexBuilder, value: SSAValue, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> xmemref.SubviewOp | ExtractSliceOp:
    """Upstream's `materializeTiledShape`: a subview of a buffer, a slice of a tensor."""
    if isinstance(value.type, MemRefType):
        return subview(b, value, offsets, sizes)
    return extract_slice(b, value, offsets, sizes)


def _split(values: Sequence[Ofr]) -> tuple[DenseArrayBase, list[SSAValue]]:
    static = [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    return DenseArrayBase.from_list(i64, static), [v for v in values if isinstance(v, SSAValue)]


def clone_with_operands(
    b: IndexBuilder, op: Operation, operands: Sequence[SSAValue], result_types: Sequence[Attribute]
) -> Operation:
    """Upstream's `clone(b, op, resultTypes, operands)`: same properties, attributes, body."""
    new = type(op).create(
        operands=list(operands),
        result_types=list(result_types),
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[region.clone() for region in op.regions],
    )
    new.location = op.location
    b.rewriter.insert(new)
    return new


def clone_with_destinations(b: IndexBuilder, op: Operation, inits: Sequence[SSAValue]) -> Operation:
    """A copy of `op` whose init operands are `inits` (upstream's
    `cloneOpAndUpdateDestinationArgs`); result types follow the new inits. No inits (an
    op with buffer semantics has no destinations) is a plain clone."""
    old_inits = destinations(op)
    if not inits or not old_inits:
        return clone_with_operands(b, op, list(op.operands), [r.type for r in op.results])
    operands = list(op.operands)
    first = len(operands) - len(old_inits)
    operands[first:] = inits
    result_types = [v.type for v in inits] if op.results else []
    return clone_with_operands(b, op, operands, result_types)


def _is_tiled(expr: AffineExpr, sizes: Sequence[Ofr]) -> bool:
    """Upstream's `isTiled`: some loop of `expr` has a non-zero tile size."""
    return any(not is_zero(sizes[d]) for d in expr.used_dims())


def slice_parameters(
    b: IndexBuilder,
    value: SSAValue,
    map_: AffineMap,
    offsets: Sequence[Ofr],
    sizes: Sequence[Ofr],
) -> tuple[list[Ofr], list[Ofr]]:
    """Upstream's `computeSliceParameters` with the partial-tile check omitted.

    Each dimension of `value` is indexed by one result `m` of `map_`: untiled ones take
    the whole dimension, tiled ones offset `m(offsets) - m(0)` and size `m(sizes - 1) + 1`.
    """
    if map_.num_symbols:
        raise TilingError("indexing maps with symbols are not supported")
    lbs = [compose(o) for o in offsets]
    closed = [compose(s) - 1 for s in sizes]
    slice_offsets: list[Ofr] = []
    slice_sizes: list[Ofr] = []
    for r, expr in enumerate(map_.results):
        if not _is_tiled(expr, sizes):
            slice_offsets.append(0)
            slice_sizes.append(dim_of(b, value, r))
            continue
        at_zero = expr.eval([0] * map_.num_dims, [])
        try:
            offset = substitute(expr, map_.num_dims, lbs) - at_zero
            size = substitute(expr, map_.num_dims, closed) + 1
        except ValueError as err:
            raise TilingError(f"cannot tile through indexing expression {expr}") from err
        slice_offsets.append(b.apply(offset))
        slice_sizes.append(b.apply(size))
    return slice_offsets, slice_sizes


def offset_indices(b: IndexBuilder, tiled: Operation, offsets: Sequence[Ofr]) -> None:
    """Shift the `linalg.index` results of a tiled op's body by the tile offsets."""
    if not tiled.regions or not tiled.regions[0].blocks:
        return
    body = tiled.regions[0].blocks.first
    assert body is not None  # checked above: the region has a block
    for index_op in list(body.ops):
        if not isinstance(index_op, linalg.IndexOp):
            continue
        dim = index_op.dim.value.data
        if dim >= len(offsets) or is_zero(offsets[dim]):
            continue
        index = index_op.results[0]
        with insertion_point(b, InsertPoint.after(index_op)):
            shifted = b.value(b.apply(Aff.opaque(index) + compose(offsets[dim])))
        defining = shifted.owner if isinstance(shifted.owner, Operation) else None
        b.rewriter.replace_uses_with_if(
            index, shifted, lambda use, defining=defining: use.operation is not defining
        )


# --- the interface -----------------------------------------------------------------------


def iteration_domain(b: IndexBuilder, op: Operation) -> list[Range]:
    """The loop ranges of `op` (offset 0, stride 1); dynamic sizes become `tensor.dim` ops
    created before `op`, as upstream's `getIterationDomain`."""
    with insertion_point(b, InsertPoint.before(op)):
        if isinstance(op, xtensor.PadOp):
            return [Range(0, size) for size in pad_result_sizes(b, op)]
        if isinstance(op, linalg.SoftmaxOp):
            rank = len(cast(ShapedType, op.input.type).get_shape())
            return [Range(0, dim_of(b, op.input, d)) for d in range(rank)]
        operands, maps, _ = _operands_and_maps(op)
        found: dict[int, tuple[SSAValue, int]] = {}
        for value, map_ in zip(operands, maps, strict=True):
            for r, expr in enumerate(map_.results):
                if isinstance(expr, AffineDimExpr) and expr.position not in found:
                    found[expr.position] = (value, r)
        domain: list[Range] = []
        for d in range(num_loops(op)):
            if d not in found:
                raise TilingError(f"loop {d} is not the dimension of any operand")
            value, r = found[d]
            domain.append(Range(0, dim_of(b, value, r)))
        return domain


def tiled_implementation(
    b: IndexBuilder, op: Operation, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> TiledValues:
    """`op` computed on the iteration-space tile `offsets`/`sizes`, inserted at `b`."""
    if isinstance(op, xtensor.PadOp):
        try:
            tile = bubble_up_pad_slice(b, op, offsets, sizes)
        except PadTilingError as err:
            raise OpTilingError(str(err), op) from None
        return TiledValues((tile.tiled_op,), (tile.value,), tile.slices)
    if isinstance(op, linalg.SoftmaxOp):
        in_slice = extract_slice(b, op.input, offsets, sizes)
        out_slice = extract_slice(b, op.output, offsets, sizes)
        tiled = clone_with_operands(
            b, op, [in_slice.result, out_slice.result], [out_slice.result.type]
        )
        return TiledValues((tiled,), tuple(tiled.results), (in_slice, out_slice))
    operands, maps, num_inputs = _operands_and_maps(op)
    # Upstream computes every slice's offsets and sizes first, then creates the slices.
    params: list[tuple[list[Ofr], list[Ofr]] | None] = []
    for index, (value, map_) in enumerate(zip(operands, maps, strict=True)):
        is_init = index >= num_inputs
        shaped = isinstance(value.type, ShapedType)
        tiled_map = any(_is_tiled(e, sizes) for e in map_.results)
        if not shaped or (not tiled_map and not (is_init and isinstance(value.type, TensorType))):
            params.append(None)
            continue
        params.append(slice_parameters(b, value, map_, offsets, sizes))
    tiled_operands: list[SSAValue] = []
    slices: list[Operation] = []
    for value, param in zip(operands, params, strict=True):
        if param is None:
            tiled_operands.append(value)
            continue
        slice_op = tiled_shape(b, value, *param)
        slices.append(slice_op)
        tiled_operands.append(slice_op.result)
    result_types = [v.type for v in tiled_operands[num_inputs:]] if op.results else []
    tiled = clone_with_operands(b, op, tiled_operands, result_types)
    offset_indices(b, tiled, offsets)
    return TiledValues((tiled,), tuple(tiled.results), tuple(slices))


def result_tile_position(
    b: IndexBuilder, op: Operation, result_number: int, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> tuple[list[Ofr], list[Ofr]]:
    """Where the tile of result `result_number` computed by the tiled op lies in the result."""
    if isinstance(op, linalg.SoftmaxOp | xtensor.PadOp):
        return list(offsets), list(sizes)
    init = dps_inits(op)[result_number]
    map_ = indexing_maps(op)[len(dps_inputs(op)) + result_number]
    return slice_parameters(b, init, map_, offsets, sizes)


def iteration_domain_tile_from_result_tile(
    b: IndexBuilder, op: Operation, result_number: int, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> tuple[list[Ofr], list[Ofr]]:
    """The iteration-space tile computing a given tile of result `result_number`; loops the
    result does not index take their whole range."""
    if isinstance(op, linalg.SoftmaxOp):
        # Upstream's softmax implements neither this nor `generateResultTileValue`: a
        # softmax is never tiled into a consumer's loop (fusion falls back as upstream's).
        raise TilingError("'linalg.softmax' op does not generate a tile of its result")
    if isinstance(op, xtensor.PadOp):
        # The iteration space is the result: a result tile is an iteration-space tile.
        return list(offsets), list(sizes)
    map_ = indexing_maps(op)[len(dps_inputs(op)) + result_number]
    if not map_.is_projected_permutation():
        raise TilingError(
            f"'{op.name}' op unhandled tiled implementation generation when result is not "
            "accessed using a permuted projection"
        )
    mapped: dict[int, tuple[Ofr, Ofr]] = {}
    for expr, offset, size in zip(map_.results, offsets, sizes, strict=True):
        assert isinstance(expr, AffineDimExpr)
        mapped.setdefault(expr.position, (offset, size))
    domain = iteration_domain(b, op)
    tile_offsets = [mapped[d][0] if d in mapped else r.offset for d, r in enumerate(domain)]
    tile_sizes = [mapped[d][1] if d in mapped else r.size for d, r in enumerate(domain)]
    return tile_offsets, tile_sizes


def generate_result_tile_value(
    b: IndexBuilder, op: Operation, result_number: int, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> TiledValues:
    """The ops computing only the tile `offsets`/`sizes` of result `result_number` (fusion)."""
    tile_offsets, tile_sizes = iteration_domain_tile_from_result_tile(
        b, op, result_number, offsets, sizes
    )
    tiled = tiled_implementation(b, op, tile_offsets, tile_sizes)
    if len(tiled.tiled_ops) != 1:
        raise TilingError(f"'{op.name}' op failed to generate tiled implementation")
    return TiledValues(
        tiled.tiled_ops, (tiled.tiled_values[result_number],), tiled.generated_slices
    )


__all__ = [
    "Range",
    "TiledValues",
    "TilingError",
    "clone_with_destinations",
    "clone_with_operands",
    "covers_whole_loop",
    "create_destinations",
    "destinations",
    "dim_of",
    "extract_slice",
    "generate_result_tile_value",
    "insertion_point",
    "is_tileable",
    "iteration_domain",
    "iteration_domain_tile_from_result_tile",
    "loop_iterator_types",
    "result_tile_position",
    "slice_parameters",
    "subview",
    "tiled_implementation",
    "tiled_shape",
    "whole_dims",
]
