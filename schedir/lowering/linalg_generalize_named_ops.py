"""`linalg-generalize-named-ops`: every structured named op becomes a `linalg.generic`.

Upstream's pass of the same name (`generalizeNamedOp`): matmul, batch_matmul, matvec,
fill, copy, map, reduce, transpose, broadcast, convolutions, ... become the
`linalg.generic` with the same operands, indexing maps, iterator types and body
(`schedir.dialects.linalg.generalize.as_generic`), on tensors or on buffers. Generic ops and
non-structured ops (`linalg.softmax`) are left alone.

    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>)
                       outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
    // ->
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                          affine_map<(d0, d1, d2) -> (d2, d1)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.mulf %in, %in_0 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    } -> tensor<4x5xf32>
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.dialects.linalg import GenericOp
from schedir.dialects.linalg.generalize import as_generic
from schedir.dialects.linalg.interface import is_structured


@dataclass(frozen=True)
class LinalgGeneralizeNamedOps(ModulePass):
    """Replace every structured op that is not a `linalg.generic` by its generic form."""

    name = "linalg-generalize-named-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        named = [o for o in op.walk() if is_structured(o) and not isinstance(o, GenericOp)]
        for named_op in named:
            generic = as_generic(named_op)
            Rewriter.insert_op(generic, InsertPoint.before(named_op))
            for old, new in zip(named_op.results, generic.results, strict=True):
                old.replace_all_uses_with(new)
            Rewriter.erase_op(named_op)


__all__ = ["LinalgGeneralizeNamedOps"]
