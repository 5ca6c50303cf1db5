"""Apply functions of `transform.structured.fuse_into_containing_op` and `structured.fuse`.

Thin adapters over `schedir.transform.rewrites.fusion` (`into_containing_op`, `greedy`), with
upstream's diagnostics (LinalgTransformOps.cpp, FuseIntoContainingOp / FuseOp).
"""

from __future__ import annotations

from xdsl.ir import Operation

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.structured.fuse import FuseIntoContainingOp, FuseOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.ops.structured._sizes import (
    check_sizes,
    dense,
    mixed,
    unpack_packed,
    unpack_single,
)
from schedir.transform.rewrites.fusion.greedy import tile_consumer_and_fuse_producers
from schedir.transform.rewrites.fusion.into_containing_op import (
    FusionFailure,
    NoProducerToFuse,
    fuse_into_containing_op,
)
from schedir.transform.rewrites.tiling.affine import is_zero
from schedir.transform.rewrites.tiling.interface import is_tileable
from schedir.transform.rewrites.tiling.tile_using_scf import (
    PartialTileError,
    TilingError,
    TilingOptions,
)
from schedir.transform.state import definite, silenceable


@applies(FuseIntoContainingOp)
def apply_fuse_into_containing_op(op: FuseIntoContainingOp, interp: Interpreter) -> None:
    """Fuse the producers into the one containing loop, consumer first."""
    producers = list(interp.state.payload_ops(op.producer_op))
    containing_ops = interp.state.payload_ops(op.containing_op)
    if len(containing_ops) != 1:
        raise definite(op, f"requires exactly one containing_op handle (got {len(containing_ops)})")
    containing = containing_ops[0]
    if not producers:
        interp.set_results(op, [[], [containing]])
        return
    rewriter = interp.state.rewriter(containing)
    try:
        result = fuse_into_containing_op(rewriter, producers, containing)
    except NoProducerToFuse as failure:
        raise silenceable(
            op,
            "could not find next producer to fuse into container",
            notes=[op_note(failure.containing, "containing op")],
        ) from None
    except FusionFailure as failure:
        error = TransformError(
            failure.message,
            op_location(failure.producer),
            [Note(note.message, op_location(note.op)) for note in failure.notes],
            silenceable=True,
        )
        # Upstream's diagnostic for an unfusable producer is a remark, not an error.
        error.severity = "remark"
        raise error from None
    interp.set_results(op, [list(result.fused_ops), [result.containing_op]])


@applies(FuseOp)
def apply_fuse(op: FuseOp, interp: Interpreter) -> None:
    """Tile each target and fuse its producers greedily through the slices."""
    packed = op.packed_tile_sizes
    if packed is not None:
        sizes = unpack_packed(interp, op, packed)
    else:
        sizes = unpack_single(interp, op, mixed(dense(op.static_tile_sizes), list(op.tile_sizes)))
    check_sizes(op, "tile sizes", sizes)
    interchange = unpack_single(
        interp, op, mixed(dense(op.static_tile_interchange), list(op.tile_interchange))
    )
    if any(not isinstance(v, int) for v in interchange):
        raise silenceable(op, "expected the interchange to be given by constants or parameters")
    use_forall = op.use_forall is not None
    cleanup = op.apply_cleanup is not None
    options = TilingOptions(
        tile_sizes=tuple(sizes),
        interchange=tuple(v for v in interchange if isinstance(v, int)),
        loop_type="forall" if use_forall else "for",
    )
    # Upstream expects one loop per non-zero size (one forall), whatever the rank of the
    # target: a loop tiling did not create is a null handle entry, a definite failure.
    num_loops = 1 if use_forall else sum(1 for v in sizes if not is_zero(v))
    tiled: list[Operation] = []
    loops: list[list[Operation | None]] = [[] for _ in range(num_loops)]
    for target in interp.state.payload_ops(op.target):
        if not is_tileable(target):
            raise definite(op, "only TilingInterface ops are supported")
        rewriter = interp.state.rewriter(target)
        try:
            result = tile_consumer_and_fuse_producers(rewriter, target, options, cleanup)
        except PartialTileError as err:
            raise silenceable(op, str(err), notes=[op_note(target, "target op")]) from None
        except TilingError as err:
            raise definite(op, str(err), target) from None
        for producer in result.fused_producers:
            if not any(r.uses for r in producer.results):
                rewriter.erase(producer)
        tiled.append(result.tiled_and_fused_ops[0])
        created: list[Operation | None] = list(result.loops)
        for depth in range(num_loops):
            loops[depth].append(created[depth] if depth < len(created) else None)
    if packed is not None:
        # A packed size list gives one handle: the loops of each target in turn.
        flattened = [loop for i in range(len(tiled)) for loop in (d[i] for d in loops)]
        interp.set_results(op, [tiled, flattened])
        return
    interp.set_results(op, [tiled, *loops])
