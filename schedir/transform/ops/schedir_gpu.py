"""Apply functions of schedir's GPU transform extension (`transform.schedir.gpu.*`,
defined in `schedir.dialects.transform.schedir_gpu`): thin adapters over
`schedir.transform.rewrites.gpu.all_reduce`.
"""

from __future__ import annotations

from xdsl.ir import Operation

from schedir.diagnostics import TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.schedir_gpu import ReduceToAllReduceOp
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.rewrites.gpu.all_reduce import AllReduceRewriteError, reduce_to_all_reduce
from schedir.transform.state import MultipleTransformErrors, silenceable


@applies(ReduceToAllReduceOp)
def apply_reduce_to_all_reduce(op: ReduceToAllReduceOp, interp: Interpreter) -> None:
    """Rewrite each target reduction into a forall of per-thread `gpu.all_reduce`s."""
    mapping = list(op.mapping.data)

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = reduce_to_all_reduce(interp.state.rewriter(payload), payload, mapping)
        except AllReduceRewriteError as error:
            reason = TransformError(
                f"'{payload.name}' op {error.message}", op_location(payload), silenceable=True
            )
            raise MultipleTransformErrors(
                [reason, silenceable(op, "could not rewrite the reduction into gpu.all_reduce")]
            ) from None
        return [result.forall, result.merge]

    interp.apply_to_each(op, op.target, one)
