"""Apply function of `transform.nvgpu.rewrite_matmul_as_mma_sync`
(`schedir.dialects.transform.nvgpu_mma`): an adapter over
`schedir.transform.rewrites.gpu.mma_sync`."""

from __future__ import annotations

from xdsl.ir import Operation

from schedir.diagnostics import TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.nvgpu_mma import RewriteMatmulAsMmaSyncOp
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.rewrites.gpu.mma_sync import (
    MmaSyncRewriteError,
    rewrite_matmul_as_mma_sync,
)
from schedir.transform.state import MultipleTransformErrors, silenceable


@applies(RewriteMatmulAsMmaSyncOp)
def apply_rewrite_matmul_as_mma_sync(op: RewriteMatmulAsMmaSyncOp, interp: Interpreter) -> None:
    """Rewrite each target matmul into mma.sync on one warp's fragments."""

    def one(payload: Operation) -> list[Mapped]:
        try:
            rewrite_matmul_as_mma_sync(interp.state.rewriter(payload), payload)
        except MmaSyncRewriteError as error:
            reason = TransformError(
                f"'{error.op.name}' op {error.message}", op_location(error.op), silenceable=True
            )
            raise MultipleTransformErrors(
                [reason, silenceable(op, "unsupported target op")]
            ) from None
        return []

    interp.apply_to_each(op, op.target, one)
