"""Apply function of `transform.structured.eliminate_empty_tensors` (upstream's
LinalgTransformOps.cpp): linalg-anchored `tensor.empty` elimination, by One-Shot
analysis' in-place decisions.
"""

from __future__ import annotations

from schedir.diagnostics import Note, SchedirError, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.structured.bufferization import StructuredEliminateEmptyTensorsOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.ops._one_shot import in_place_decisions, payload_rewriter
from schedir.transform.rewrites.bufferization.empty_tensor_elimination import (
    eliminate_linalg_anchored_empty_tensors,
)


@applies(StructuredEliminateEmptyTensorsOp)
def apply_structured_eliminate_empty_tensors(
    op: StructuredEliminateEmptyTensorsOp, interp: Interpreter
) -> None:
    """Linalg-anchored `tensor.empty` elimination in each target."""
    for payload in interp.state.payload_ops(op.target):
        try:
            in_place_decisions(interp, op, payload, loops_may_allocate=True)
        except SchedirError as err:
            raise TransformError(
                "failed to analyze op",
                op_location(payload),
                (Note(err.message, err.location),),
                silenceable=True,
            ) from None
        rewriter = payload_rewriter(interp, payload)
        if rewriter is not None:
            eliminate_linalg_anchored_empty_tensors(rewriter, payload)
