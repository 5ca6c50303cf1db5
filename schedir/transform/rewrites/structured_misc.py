"""Structured-op rewrites that neither tile nor pad: generalize, interchange, decompose.

Each function takes a rewriter positioned anywhere and a payload op, rewrites the payload
as upstream's C++ does (mlir/lib/Dialect/Linalg/Transforms/{Generalization,
Interchange}.cpp and `SoftmaxOp::decomposeOperation`) and returns a frozen record of
what it built. A precondition that does not hold raises `RewriteFailure` with upstream's
reason; the transform op decides whether that is silenceable.

    %g = linalg.matmul ins(%a, %b) outs(%c)          generalize -> linalg.generic
    linalg.generic {iterator_types = [p, p, r]}      interchange [2, 0, 1] -> [r, p, p]
    linalg.softmax                                   decompose -> fill/max/exp/fill/sum/div
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import affine, linalg


class RewriteFailure(Exception):
    """A payload rewrite's precondition failed; `reason` is upstream's match-failure text."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class GeneralizeResult:
    """`generic` replaced the named op (or is the op itself, when it was generic)."""

    generic: linalg.GenericOp


@dataclass(frozen=True)
class InterchangeResult:
    """The interchanged generic (modified in place, as upstream) and its new index ops."""

    generic: linalg.GenericOp
    index_ops: tuple[Operation, ...]


@dataclass(frozen=True)
class DecomposeResult:
    """The ops of an aggregate's decomposition and the ops defining its new results."""

    ops: tuple[Operation, ...]
    result_ops: tuple[Operation, ...]


def generalize(rewriter: PatternRewriter, op: Operation) -> GeneralizeResult:
    """Replace structured op `op` by an equivalent `linalg.generic` (upstream's
    `generalizeNamedOp`); a generic is returned unchanged."""
    if isinstance(op, linalg.GenericOp):
        return GeneralizeResult(op)
    if not linalg.is_structured(op):
        raise RewriteFailure("preconditions not met")
    generic = linalg.as_generic(op)
    rewriter.replace(op, generic, list(generic.results))
    return GeneralizeResult(generic)


def interchange(
    rewriter: PatternRewriter, generic: linalg.GenericOp, permutation: Sequence[int]
) -> InterchangeResult:
    """Permute the loops of `generic` in place: new loop `i` is old loop `permutation[i]`.

    Indexing maps are composed with the inverse permutation, iterator types permuted,
    and each `linalg.index` becomes `affine.apply` of the permuted dims over fresh
    `linalg.index` ops of every loop (upstream's `interchangeGenericOp`).
    """
    num_loops = len(generic.iterator_types.data)
    if sorted(permutation) != list(range(num_loops)):
        raise RewriteFailure("interchange vector is not a permutation of the loops")
    # inverse[old] = new: old loop `old` is now loop `inverse[old]`.
    inverse = [0] * num_loops
    for new, old in enumerate(permutation):
        inverse[old] = new
    to_new = AffineMap(num_loops, 0, tuple(AffineDimExpr(inverse[d]) for d in range(num_loops)))
    maps = [AffineMapAttr(m.data.compose(to_new)) for m in generic.indexing_maps.data]
    iterators = [generic.iterator_types.data[old] for old in permutation]
    generic.properties["indexing_maps"] = ArrayAttr(maps)
    generic.properties["iterator_types"] = ArrayAttr[IteratorTypeAttr](iterators)
    rewriter.handle_operation_modification(generic)
    new_index_ops: list[Operation] = []
    for index_op in [o for o in generic.body.walk() if isinstance(o, linalg.IndexOp)]:
        if index_op.parent_op() is not generic:
            continue  # an index of a nested structured op refers to that op's loops
        old_dim = index_op.dim.value.data
        fresh = [linalg.IndexOp(d) for d in range(num_loops)]
        apply = affine.ApplyOp(
            [o.result for o in fresh],
            AffineMapAttr(AffineMap(num_loops, 0, (AffineDimExpr(inverse[old_dim]),))),
        )
        for new_op in (*fresh, apply):
            new_op.location = index_op.location
        rewriter.insert([*fresh, apply], InsertPoint.before(index_op))
        rewriter.replace(index_op, [], [apply.result])
        new_index_ops += [*fresh, apply]
    return InterchangeResult(generic, tuple(new_index_ops))


def decompose_aggregate(rewriter: PatternRewriter, op: Operation) -> DecomposeResult:
    """Decompose an `AggregatedOpInterface` op (`linalg.softmax`) into structured ops."""
    if not isinstance(op, linalg.SoftmaxOp):
        raise RewriteFailure("payload is not a decomposable op")
    if not isinstance(op.input.type, TensorType) or not isinstance(op.output.type, TensorType):
        raise RewriteFailure("only tensor semantics can be decomposed")
    new_ops = linalg.decompose_softmax(op)
    last = new_ops[-1]
    rewriter.replace(op, new_ops, list(last.results))
    return DecomposeResult(tuple(new_ops), (last,))


__all__ = [
    "DecomposeResult",
    "GeneralizeResult",
    "InterchangeResult",
    "RewriteFailure",
    "decompose_aggregate",
    "generalize",
    "interchange",
]
