"""Apply functions of `transform.structured.fuse_into_containing_op` and `structured.fuse`.

Thin adapters over `schedir.transform.rewrites.fusion` (and `fusion_greedy`), with
upstream's diagnostics (LinalgTransformOps.cpp, FuseIntoContainingOp / FuseOp).
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.ir import Operation

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location, op_note
from schedir.transform.interpreter import ApplyFn, TransformInterpreter
from schedir.transform.rewrites.fusion import (
    FusionFailure,
    NoProducerToFuse,
    fuse_into_containing_op,
)
from schedir.transform.state import definite, silenceable


def apply_fuse_into_containing_op(op: Operation, interp: TransformInterpreter) -> None:
    """Fuse the producers into the one containing loop, consumer first; results are the
    fused ops (tiles or clones, one per fused use) and the containing op after fusion.

    Return modes: consumes the producer handle and reads the containing op handle (which
    follows the containing op when fusion rebuilds it). Definite failure unless the
    containing handle holds exactly one op; silenceable failure when no remaining
    producer is used inside ("could not find next producer to fuse into container") and
    when a producer cannot be fused (a remark at the producer, "could not fuse ...").
    """
    producers = list(interp.state.payload_ops(op.operands[0]))
    containing_ops = interp.state.payload_ops(op.operands[1])
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


APPLY: Mapping[str, ApplyFn] = {
    "transform.structured.fuse_into_containing_op": apply_fuse_into_containing_op,
}
