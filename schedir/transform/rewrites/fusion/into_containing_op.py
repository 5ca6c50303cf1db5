"""Fusing producers into a containing loop (upstream's `FuseIntoContainingOp`).

Each producer is fused where the containing op (`scf.forall` or `scf.for`) uses it,
consumer-to-producer, one use at a time, trying upstream's three strategies in order:

1. tile and fuse through an `extract_slice` of the producer inside the loop: the slice is
   replaced by the producer computed on that tile only (`generate_result_tile_value`);
2. tile and fuse through the forall's `shared_outs` argument: the producer feeds the forall
   as a shared output, the tile is computed from the slice of the block argument and the
   forall's output operand becomes the producer's destination;
3. clone the whole producer in front of its first use inside the loop (ops without the
   TilingInterface, such as `tensor.empty`).

A producer with several uses inside is fused once per use. A producer also used after a
forall (a use the forall dominates) gives a new forall with one more shared output: the
fused tile is written there and the outside use reads it, as upstream does for
`linalg.generic` producers; otherwise the original producer stays for its other users.

    %p = linalg.fill ins(%z) outs(%e)
    %r = scf.forall (%i) in (4) shared_outs(%o = %out) {
      %s = tensor.extract_slice %p[%i * 16] [16] [1]      ->   %t = tensor.extract_slice %o..
      ... use %s ...                                        %s = linalg.fill ins(%z) outs(%t)
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.printer import Printer
from xdsl.rewriter import BlockInsertPoint, InsertPoint

from schedir.dialects import linalg
from schedir.dialects.linalg.interface import dps_inits
from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import ExtractSliceOp, ParallelInsertSliceOp
from schedir.transform.rewrites.tiling.affine import IndexBuilder, Ofr
from schedir.transform.rewrites.tiling.interface import (
    TiledValues,
    TilingError,
    clone_with_destinations,
    destinations,
    dim_of,
    generate_result_tile_value,
    is_tileable,
)


@dataclass(frozen=True)
class FusionNote:
    """A note of a fusion diagnostic, at a payload op (upstream attaches them to `diag`)."""

    op: Operation
    message: str


class FusionFailure(Exception):
    """A producer could not be fused; upstream reports it as a remark at the producer
    ("could not fuse ... into ...") with one note per strategy that failed."""

    def __init__(self, message: str, producer: Operation, notes: Sequence[FusionNote]) -> None:
        super().__init__(message)
        self.message = message
        self.producer = producer
        self.notes = tuple(notes)


class NoProducerToFuse(Exception):
    """No remaining producer has a use inside the containing op (`containing`, which may
    be a forall rebuilt by an earlier fusion)."""

    def __init__(self, containing: Operation) -> None:
        super().__init__("could not find next producer to fuse into container")
        self.containing = containing


@dataclass(frozen=True)
class FusionResult:
    """The fused ops (tiles or clones, in fusion order) and the containing op after fusion
    (a new forall when a producer's outside users now read one more shared output)."""

    fused_ops: tuple[Operation, ...]
    containing_op: Operation


def describe(op: Operation) -> str:
    """An op as upstream prints it into a diagnostic (its generic-free custom form)."""
    stream = io.StringIO()
    Printer(stream=stream).print_op(op)
    return stream.getvalue().strip()


def _users(op: Operation) -> list[Operation]:
    """Upstream's `op->getUsers()`: per result, the users in use-list order (repeats kept)."""
    return [use.operation for result in op.results for use in result.uses]


def fuse_into_containing_op(
    rewriter: PatternRewriter, producers: Sequence[Operation], containing: Operation
) -> FusionResult:
    """Fuse `producers` into `containing`; raises NoProducerToFuse or FusionFailure (the
    producers fused so far stay fused, as upstream leaves them)."""
    remaining = list(dict.fromkeys(producers))
    fused: list[Operation] = []
    while remaining:
        producer = _next_producer(remaining, containing)
        notes: list[FusionNote] = []
        tiled, new_containing = _tile_and_fuse_first_extract_use(
            rewriter, notes, producer, containing
        )
        if tiled:
            fused.extend(tiled)
            if new_containing is not None:
                rewriter.replace(
                    containing, [], list(new_containing.results[: len(containing.results)])
                )
                containing = new_containing
            continue
        tiled = _tile_and_fuse_through_block_argument(rewriter, notes, producer, containing)
        if tiled:
            fused.extend(tiled)
            continue
        cloned = _clone_and_fuse_first_use(rewriter, notes, producer, containing)
        if cloned is not None:
            fused.append(cloned)
            continue
        raise FusionFailure(
            f"could not fuse {describe(producer)} into \n{describe(containing)}", producer, notes
        )
    return FusionResult(tuple(fused), containing)


def _next_producer(remaining: list[Operation], containing: Operation) -> Operation:
    """The first producer used inside `containing`; it leaves the list at its last use."""
    for index, producer in enumerate(remaining):
        uses = sum(1 for user in _users(producer) if containing.is_ancestor(user))
        if uses:
            if uses == 1:
                del remaining[index]
            return producer
    raise NoProducerToFuse(containing)


def _is_proper_ancestor(ancestor: Operation, op: Operation) -> bool:
    return op is not ancestor and ancestor.is_ancestor(op)


def _loop_inits(containing: Operation) -> list[tuple[SSAValue, BlockArgument]]:
    """The containing loop's destination operands with their block arguments."""
    if isinstance(containing, ForallOp):
        shared = containing.body.block.args[containing.rank :]
        return list(zip(containing.outputs, shared, strict=True))
    if isinstance(containing, xscf.ForOp):
        return list(zip(containing.iter_args, containing.body.block.args[1:], strict=True))
    return []


def rank_reduce(b: IndexBuilder, value: SSAValue, shape: Sequence[int]) -> SSAValue | None:
    """Upstream's `ExtractSliceOp::rankReduceIfNeeded`: `value` if it has `shape`, else a
    rank-reducing slice of all of it, or None when no such slice exists."""
    value_type = cast(TensorType[Attribute], value.type)
    value_shape = list(value_type.get_shape())
    if value_shape == list(shape):
        return value
    kept = [d for d in value_shape if d != 1]
    if len(shape) >= len(value_shape) or [d for d in shape if d != 1] != kept:
        return None
    sizes: list[Ofr] = [dim_of(b, value, d) for d in range(len(value_shape))]
    result_type = TensorType(value_type.get_element_type(), list(shape))
    op = ExtractSliceOp(value, [0] * len(sizes), sizes, [1] * len(sizes), result_type)
    b.insert(op)
    return op.result


def _tile_into_slice(
    rewriter: PatternRewriter,
    notes: list[FusionNote],
    producer: Operation,
    tiled_from: Operation,
    slice_op: ExtractSliceOp,
    result_number: int,
) -> TiledValues | None:
    """Tile `tiled_from` (the producer or a clone of it) to the slice, replace the slice."""
    b = IndexBuilder(rewriter, producer.location)
    rewriter.insertion_point = InsertPoint.before(slice_op)
    try:
        tiled = generate_result_tile_value(
            b, tiled_from, result_number, slice_op.mixed_offsets, slice_op.mixed_sizes
        )
    except TilingError:
        notes.append(FusionNote(producer, f"failed to tile producer op: {describe(producer)}"))
        return None
    rewriter.insertion_point = InsertPoint.before(slice_op)
    slice_shape = cast(TensorType[Attribute], slice_op.result.type).get_shape()
    reduced = rank_reduce(b, tiled.tiled_values[0], slice_shape)
    if reduced is None:
        notes.append(
            FusionNote(
                producer,
                "shape types don't match (missing canonicalization?):\nTiledOp: "
                f"{tiled.tiled_values[0].type}\nSliceOp: {describe(slice_op)}\n",
            )
        )
        return None
    rewriter.replace(slice_op, [], [reduced])
    return tiled


def _tile_and_fuse_first_extract_use(
    rewriter: PatternRewriter, notes: list[FusionNote], producer: Operation, containing: Operation
) -> tuple[list[Operation], Operation | None]:
    """Strategy 1: tile the producer to its first `extract_slice` inside the loop."""
    if not is_tileable(producer):
        notes.append(
            FusionNote(producer, f"producer is not a TileableInterface: {describe(producer)}")
        )
        return [], None
    slice_op = next(
        (
            user
            for user in _users(producer)
            if isinstance(user, ExtractSliceOp) and _is_proper_ancestor(containing, user)
        ),
        None,
    )
    if slice_op is None:
        notes.append(
            FusionNote(producer, f"could not find fusion opportunity for: {describe(producer)}")
        )
        return [], None
    result_number = cast(OpResult, slice_op.source).index
    offsets, sizes = slice_op.mixed_offsets, slice_op.mixed_sizes
    # A destination that is also a destination of the loop is sliced through the loop's
    # block argument, as upstream (LLVM 24) does: the tile then updates the loop's value.
    inits = list(destinations(producer))
    tied = dict((id(init), arg) for init, arg in _loop_inits(containing))
    mapped = [tied.get(id(init), init) for init in inits]
    # Upstream clones the producer in front of a slice inside a loop before tiling; the
    # clone is erased once tiled and stays (unused) when the producer gives no tile.
    in_loop = isinstance(slice_op.parent_op(), xscf.ForOp | ForallOp)
    tiled_from = producer
    if in_loop or any(new is not old for new, old in zip(mapped, inits, strict=True)):
        rewriter.insertion_point = InsertPoint.before(slice_op)
        tiled_from = clone_with_destinations(
            IndexBuilder(rewriter, producer.location), producer, mapped
        )
    try:
        tiled = _tile_into_slice(rewriter, notes, producer, tiled_from, slice_op, result_number)
    except BaseException:
        if tiled_from is not producer:
            rewriter.erase(tiled_from)
        raise
    if tiled_from is not producer and (tiled is not None or not in_loop):
        rewriter.erase(tiled_from)
    if tiled is None:
        return [], None
    new_containing = _add_shared_output_for_outside_users(
        rewriter, producer, containing, tiled, result_number, offsets, sizes
    )
    return list(tiled.tiled_ops), new_containing


def _dominates(op: Operation, user: Operation) -> bool:
    """Whether `op` dominates `user` (same region tree, `user` after `op`)."""
    block = op.parent_block()
    current: Operation | None = user
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current is not None and op.is_before_in_block(current)


def _add_shared_output_for_outside_users(
    rewriter: PatternRewriter,
    producer: Operation,
    containing: Operation,
    tiled: TiledValues,
    result_number: int,
    offsets: Sequence[Ofr],
    sizes: Sequence[Ofr],
) -> ForallOp | None:
    """Upstream's `replaceForAllWithNewSignature`: users of the producer after the forall
    read a new shared output into which the fused tile is inserted.

    Only for an `scf.forall` and a `linalg.generic` producer, as upstream (an `scf.for`
    crashes upstream; schedir keeps the producer for those users instead).
    """
    result = producer.results[result_number]
    dominated = list(
        dict.fromkeys(
            use.operation
            for use in result.uses
            if not containing.is_ancestor(use.operation) and _dominates(containing, use.operation)
        )
    )
    if not dominated or not isinstance(containing, ForallOp):
        return None
    if not isinstance(producer, linalg.GenericOp):
        return None
    new_out = dps_inits(producer)[result_number]
    outputs = [*containing.outputs, new_out]
    rewriter.insertion_point = InsertPoint.before(containing)
    body = Region()
    new_forall = ForallOp(
        containing.lower_bounds,
        containing.upper_bounds,
        containing.steps,
        outputs,
        containing.mapping,
        body=body,
    )
    new_forall.location = containing.location
    new_forall.attributes |= dict(containing.attributes)
    rewriter.insert(new_forall)
    rewriter.inline_region(containing.body, BlockInsertPoint.at_start(new_forall.body))
    block = new_forall.body.block
    new_arg = block.insert_arg(new_out.type, len(block.args))
    rewriter.replace_uses_with_if(
        new_out, new_arg, lambda use: _is_proper_ancestor(new_forall, use.operation)
    )
    terminator = new_forall.terminator
    first = terminator.region.block.first_op
    insert = ParallelInsertSliceOp(tiled.tiled_values[0], new_arg, list(offsets), list(sizes))
    insert.location = containing.location
    if first is None:
        rewriter.insert(insert, InsertPoint.at_end(terminator.region.block))
    else:
        rewriter.insert(insert, InsertPoint.before(first))
    for old, new in zip(containing.results, new_forall.results, strict=False):
        rewriter.replace_all_uses_with(old, new)
    users = set(map(id, dominated))
    rewriter.replace_uses_with_if(
        result, new_forall.results[-1], lambda use: id(use.operation) in users
    )
    return new_forall


def _tile_and_fuse_through_block_argument(
    rewriter: PatternRewriter, notes: list[FusionNote], producer: Operation, containing: Operation
) -> list[Operation]:
    """Strategy 2: the producer is a shared output of the forall; tile it to the first
    `extract_slice` of the tied block argument."""
    if not is_tileable(producer):
        notes.append(
            FusionNote(producer, f"producer is not a TileableInterface: {describe(producer)}")
        )
        return []
    use = next(
        (u for r in producer.results for u in r.uses if isinstance(u.operation, ForallOp)), None
    )
    if use is None or use.operation is not containing:
        notes.append(
            FusionNote(producer, f"could not find a use by the containing op: {describe(producer)}")
        )
        return []
    forall = cast(ForallOp, containing)
    output_index = use.index - (len(forall.operands) - len(forall.outputs))
    block_arg = forall.body.block.args[forall.rank + output_index]
    slice_op = next(
        (
            u.operation
            for u in block_arg.uses
            if isinstance(u.operation, ExtractSliceOp)
            and _is_proper_ancestor(containing, u.operation)
        ),
        None,
    )
    if slice_op is None:
        notes.append(
            FusionNote(
                containing,
                "could not find fusion opportunity for bbArg: <block argument> of type "
                f"'{block_arg.type}' at index: {block_arg.index}",
            )
        )
        return []
    result_number = cast(OpResult, use.operation.operands[use.index]).index
    inits = list(destinations(producer))
    if not inits:
        # Upstream needs a destination to map to the block argument (`tensor.pad` has none).
        notes.append(
            FusionNote(
                producer, f"producer is not a DestinationStyleOpInterface: {describe(producer)}"
            )
        )
        return []
    # Upstream clones the producer with its destination mapped to the block argument.
    rewriter.insertion_point = InsertPoint.before(slice_op)
    clone = producer.clone({inits[result_number]: block_arg})
    clone.location = producer.location
    rewriter.insert(clone)
    try:
        tiled = _tile_into_slice(
            rewriter, notes, producer, clone, cast(ExtractSliceOp, slice_op), result_number
        )
    finally:
        rewriter.erase(clone)
    if tiled is None:
        return []
    # Upstream sets the forall operand to the producer's *first* destination.
    forall.operands[use.index] = inits[0]
    rewriter.notify_op_modified(forall)
    return list(tiled.tiled_ops)


def _clone_and_fuse_first_use(
    rewriter: PatternRewriter, notes: list[FusionNote], producer: Operation, containing: Operation
) -> Operation | None:
    """Strategy 3: clone the producer right before its first use inside the loop."""
    uses = []
    for result in producer.results:
        for use in result.uses:
            if _is_proper_ancestor(containing, use.operation):
                uses.append(use)
                continue
            if use.operation is containing:
                notes.append(
                    FusionNote(
                        producer, "producer op use by containing op cannot be fused by cloning"
                    )
                )
                return None
    if not uses:
        notes.append(FusionNote(producer, "no fusion opportunity by cloning"))
        return None
    use = uses[0]
    if isinstance(use.operation, ParallelInsertSliceOp):
        raise FusionFailure("Parallel insert slice is not a valid clone destination", producer, ())
    result_number = cast(OpResult, use.operation.operands[use.index]).index
    clone = producer.clone()
    clone.location = producer.location
    rewriter.insert(clone, InsertPoint.before(use.operation))
    use.operation.operands[use.index] = clone.results[result_number]
    rewriter.notify_op_modified(use.operation)
    return clone


__all__ = [
    "FusionFailure",
    "FusionNote",
    "FusionResult",
    "NoProducerToFuse",
    "describe",
    "fuse_into_containing_op",
    "rank_reduce",
]
