"""`linalg-decompose-aggregated-ops`: aggregate linalg ops become the ops they stand for.

Upstream's pass of the same name, through `AggregatedOpInterface::decomposeOperation`. The
only aggregate op is `linalg.softmax`; its decomposition (`decompose_softmax`) is a max
reduction, `exp(x - max)`, a sum reduction and a division, each a `linalg.generic` (plus the
fills and the `tensor.empty` of the reduced shape). Only tensor semantics, as upstream.

    %r = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>)
                                     outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
    // ->
    %e = tensor.empty() : tensor<4xf32>
    %m = linalg.fill ins(%nan : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %max = linalg.generic {... ["parallel", "reduction"]} ins(%x ...) outs(%m ...)  // maxnumf
    %exp = linalg.generic {...} ins(%x, %max ...) outs(%o ...)                       // exp(x - max)
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %sum = linalg.generic {...} ins(%exp ...) outs(%z ...)                           // addf
    %r = linalg.generic {...} ins(%exp, %sum ...) outs(%o ...)                       // divf
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.diagnostics import UnsupportedError
from schedir.dialects.linalg import SoftmaxOp
from schedir.dialects.linalg.aggregate import decompose_softmax
from schedir.dialects.syntax import op_location


@dataclass(frozen=True)
class LinalgDecomposeAggregatedOps(ModulePass):
    """Replace every `linalg.softmax` by its decomposition (see the module docstring)."""

    name = "linalg-decompose-aggregated-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        softmaxes = [o for o in op.walk() if isinstance(o, SoftmaxOp)]
        for softmax in softmaxes:
            if not isinstance(softmax.output.type, TensorType):
                raise UnsupportedError(
                    "'linalg.softmax' on buffers cannot be decomposed: decompose it before "
                    "bufferization",
                    op_location(softmax),
                )
            new_ops = decompose_softmax(softmax)
            Rewriter.insert_op(new_ops, InsertPoint.before(softmax))
            softmax.result[0].replace_all_uses_with(new_ops[-1].results[0])
            Rewriter.erase_op(softmax)


__all__ = ["LinalgDecomposeAggregatedOps"]
