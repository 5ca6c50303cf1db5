"""Tile a consumer and greedily fuse its producers (upstream's
`scf::tileConsumerAndFuseProducersUsingSCF`, behind `transform.structured.fuse`).

The consumer is tiled into `scf.for` loops (or one `scf.forall`); then, breadth first, each
`tensor.extract_slice` operand of a tiled op whose source is produced by a tileable op is
replaced by that producer computed on the slice only, and the new tile's own slices join
the worklist. A slice of a loop's `iter_args` is followed back to the loop's init: when
the init is produced by a destination-style op, the tile is computed in the iter_arg and
the outermost loop starts from the producer's own destination:

    %f = linalg.fill ins(%z) outs(%e)             scf.for .. iter_args(%a = %e) {
    %m = linalg.matmul .. outs(%f)        ->        %t = extract_slice %a[..]
                                                    %ft = linalg.fill ins(%z) outs(%t)
                                                    %mt = linalg.matmul .. outs(%ft)

As upstream, the untiled producers stay in place (the slices they fed are left in the
loop body, unused), no replacement is yielded for them, and the consumer is replaced by
the loop results.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import ExtractSliceOp
from schedir.transform.rewrites.fusion.into_containing_op import rank_reduce
from schedir.transform.rewrites.tiling.affine import IndexBuilder, compose
from schedir.transform.rewrites.tiling.interface import (
    TiledValues,
    TilingError,
    clone_with_destinations,
    destinations,
    extract_slice,
    generate_result_tile_value,
    is_tileable,
)
from schedir.transform.rewrites.tiling.tile_using_scf import TilingOptions, tile_using_scf


@dataclass(frozen=True)
class TileAndFuseResult:
    """The tiled consumer first, then the fused tiles in fusion order; the loops; the
    untiled producers that were fused (they stay in the IR)."""

    tiled_and_fused_ops: tuple[Operation, ...]
    loops: tuple[Operation, ...]
    fused_producers: tuple[Operation, ...]


def tile_consumer_and_fuse_producers(
    rewriter: PatternRewriter, consumer: Operation, options: TilingOptions, cleanup: bool = False
) -> TileAndFuseResult:
    """Tile `consumer` by `options`, fuse its producers, replace it by the loop results.

    The worklist holds the slices each tiling generated, breadth first. With `cleanup`
    (upstream's `apply_cleanup`) each batch of new slices is simplified first: identity
    slices fold away and a slice of a slice becomes one slice.

    Raises TilingError when the consumer has no results or cannot be tiled.
    """
    if not consumer.results:
        raise TilingError("invalid pattern for op with no results")
    tiling = tile_using_scf(rewriter, consumer, options)
    tiled_ops: list[Operation] = list(tiling.tiled_ops)
    loops = list(tiling.loops)
    fused_producers: list[Operation] = []
    if loops:
        candidates: deque[ExtractSliceOp] = deque()
        _add_candidates(rewriter, candidates, tiling.generated_slices, cleanup)
        while candidates:
            candidate = candidates.popleft()
            fused = _fuse_producer_of_slice(rewriter, candidate, loops)
            if fused is None:
                continue
            producer, tiled = fused
            if producer not in fused_producers:
                fused_producers.append(producer)
            tiled_op = tiled.tiled_values[0].owner
            if isinstance(tiled_op, Operation) and tiled_op not in tiled_ops:
                tiled_ops.append(tiled_op)
            _add_candidates(rewriter, candidates, tiled.generated_slices, cleanup)
    rewriter.replace(consumer, [], list(tiling.replacements))
    return TileAndFuseResult(tuple(tiled_ops), tuple(loops), tuple(fused_producers))


def _add_candidates(
    rewriter: PatternRewriter,
    candidates: deque[ExtractSliceOp],
    slices: Sequence[Operation],
    cleanup: bool,
) -> None:
    """Queue new slices; with `cleanup`, the simplified ones (upstream's
    `SliceTrackingListener::insertAndApplyPatterns`)."""
    for slice_op in slices:
        if not isinstance(slice_op, ExtractSliceOp):
            continue
        if cleanup:
            slice_op = _cleanup_slice(rewriter, slice_op)
            if slice_op is None:
                continue
        candidates.append(slice_op)


def _cleanup_slice(rewriter: PatternRewriter, slice_op: ExtractSliceOp) -> ExtractSliceOp | None:
    """Upstream's cleanup on one slice: `ExtractSliceOp::fold` of an identity slice (it
    disappears, None) and `MergeConsecutiveExtractSlice` (a slice of a slice)."""
    source_type = slice_op.source.type
    offsets, sizes = slice_op.mixed_offsets, slice_op.mixed_sizes
    if (
        source_type == slice_op.result.type
        and all(o == 0 for o in offsets)
        and all(s == 1 for s in slice_op.mixed_strides)
        and list(sizes) == list(cast(TensorType[Attribute], source_type).get_shape())
    ):
        rewriter.replace_all_uses_with(slice_op.result, slice_op.source)
        rewriter.erase(slice_op)
        return None
    producer = slice_op.source.owner
    if not isinstance(producer, ExtractSliceOp) or not _unit_strides(producer, slice_op):
        return slice_op
    if len(producer.mixed_sizes) != len(sizes) or _rank_reduced(producer):
        return slice_op
    b = IndexBuilder(rewriter, slice_op.location)
    rewriter.insertion_point = InsertPoint.before(slice_op)
    merged_offsets = [
        b.apply(compose(outer) + compose(inner))
        for outer, inner in zip(producer.mixed_offsets, offsets, strict=True)
    ]
    merged = extract_slice(b, producer.source, merged_offsets, sizes)
    if merged.result.type != slice_op.result.type:
        rewriter.erase(merged)
        return slice_op
    rewriter.replace_all_uses_with(slice_op.result, merged.result)
    rewriter.erase(slice_op)
    return merged


def _unit_strides(*slices: ExtractSliceOp) -> bool:
    return all(s == 1 for op in slices for s in op.mixed_strides)


def _rank_reduced(slice_op: ExtractSliceOp) -> bool:
    return len(cast(TensorType[Attribute], slice_op.result.type).get_shape()) != len(
        slice_op.mixed_sizes
    )


def _tied_init(loop: Operation, arg: BlockArgument) -> tuple[Operation, int] | None:
    """The loop operand (op, index) that initializes iteration argument `arg`."""
    if isinstance(loop, xscf.ForOp) and arg.index >= 1:
        return loop, 3 + arg.index - 1
    if isinstance(loop, ForallOp) and arg.index >= loop.rank:
        first_output = len(loop.operands) - len(loop.outputs)
        return loop, first_output + arg.index - loop.rank
    return None


def _untiled_producer(
    source: SSAValue, loops: Sequence[Operation]
) -> tuple[OpResult | None, tuple[Operation, int] | None]:
    """Upstream's `getUntiledProducerFromSliceSource`: follow iter_args outwards from the
    innermost loop; when every loop was crossed, also return the outermost init operand."""
    walked = 0
    operand: tuple[Operation, int] | None = None
    for loop in reversed(loops):
        if not isinstance(source, BlockArgument) or source.block.parent_op() is not loop:
            break
        operand = _tied_init(loop, source)
        if operand is None:
            break
        source = operand[0].operands[operand[1]]
        walked += 1
    destination = operand if walked == len(loops) else None
    return (source if isinstance(source, OpResult) else None), destination


def _fuse_producer_of_slice(
    rewriter: PatternRewriter, candidate: ExtractSliceOp, loops: list[Operation]
) -> tuple[Operation, TiledValues] | None:
    """Upstream's `tileAndFuseProducerOfSlice`; None when the slice is not fusable."""
    producer_result, destination = _untiled_producer(candidate.source, loops)
    if producer_result is None:
        return None
    producer = producer_result.op
    if not is_tileable(producer) or any(s != 1 for s in _static_strides(candidate)):
        # Upstream clones the producer and the slice before finding out; the clones stay
        # behind unused. schedir does not create them for ops that are not tileable.
        return None
    result_number = producer_result.index
    b = IndexBuilder(rewriter, producer.location)
    rewriter.insertion_point = InsertPoint.before(candidate)
    original_dests = list(destinations(producer))
    clone_dests = list(original_dests)
    if not original_dests:
        # Not in destination-passing style (`tensor.pad`): upstream leaves the loop's
        # iteration argument alone.
        destination = None
    if destination is not None:
        # Keep destination passing: the tile is computed in the loop's iteration argument.
        clone_dests[result_number] = candidate.source
    clone = clone_with_destinations(b, producer, clone_dests)
    try:
        tiled = generate_result_tile_value(
            b, clone, result_number, candidate.mixed_offsets, candidate.mixed_sizes
        )
    except TilingError:
        # Upstream slices the clone before asking it for the tile and keeps both when the
        # producer cannot give one (`linalg.softmax`): a later match counts that clone.
        rewriter.insert(
            candidate.clone({candidate.source: clone.results[result_number]}),
            InsertPoint.before(candidate),
        )
        return None
    rewriter.insertion_point = InsertPoint.before(candidate)
    shape = cast(TensorType[Attribute], candidate.result.type).get_shape()
    value = rank_reduce(b, tiled.tiled_values[0], shape)
    rewriter.erase(clone)
    if value is None:
        return None
    rewriter.replace_all_uses_with(candidate.result, value)
    if destination is not None:
        # The outermost loop now starts from the producer's own destination.
        loop, index = destination
        loop.operands[index] = original_dests[result_number]
        rewriter.notify_op_modified(loop)
    return producer, TiledValues(tiled.tiled_ops, (value,), tiled.generated_slices)


def _static_strides(slice_op: ExtractSliceOp) -> list[int]:
    return [s if isinstance(s, int) else -1 for s in slice_op.mixed_strides]


__all__ = ["TileAndFuseResult", "tile_consumer_and_fuse_producers"]
