"""Apply functions of the vectorization ops (upstream LinalgTransformOps.cpp).

`structured.vectorize`, `structured.vectorize_children_and_apply_patterns`,
`structured.hoist_redundant_vector_transfers` and
`structured.hoist_redundant_vector_broadcasts`. The payload algorithms live in
`schedir.transform.rewrites.vectorization` and `schedir.transform.rewrites.hoisting`.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.structured.vectorize import (
    HoistRedundantVectorBroadcastsOp,
    HoistRedundantVectorTransfersOp,
    VectorizeChildrenAndApplyPatternsOp,
    VectorizeOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.structured._sizes import check_sizes, reify_sizes
from schedir.transform.rewrites import hoisting
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vectorization.children import (
    ChildrenOptions,
    vectorize_children_and_apply_patterns,
)
from schedir.transform.rewrites.vectorization.dispatch import has_vectorization_impl, vectorize
from schedir.transform.rewrites.vectorization.state import VectorizationFailure
from schedir.transform.state import definite, payload_location, silenceable
from schedir.transform.tracking import PayloadTracker


def _at_payload(payload: Operation, message: str) -> TransformError:
    """Upstream's `emitSilenceableFailure(target->getLoc())`: reported at the payload op."""
    return TransformError(message, payload_location(payload), silenceable=True)


@applies(VectorizeOp)
def apply_vectorize(op: VectorizeOp, interp: Interpreter) -> None:
    """Vectorize each target (masked with `vector_sizes`)."""
    targets = interp.state.payload_ops(op.target)
    if not targets:
        return
    static = [int(v) for v in op.static_vector_sizes.get_values()]
    sizes = reify_sizes(op, interp, static, list(op.vector_sizes))
    check_sizes(op, "vector sizes", sizes)
    scalable = [bool(v) for v in op.scalable_sizes.get_values()]
    for payload in targets:
        if not has_vectorization_impl(payload):
            raise _at_payload(payload, "Unsupported Op, cannot vectorize")
        rw = CanonRewriter(InsertPoint.before(payload), interp.state.tracking_listener())
        try:
            result = vectorize(
                rw,
                payload,
                sizes,
                scalable,
                nd_extract=op.vectorize_nd_extract is not None,
                assume_dynamic_dims_match_vec_sizes=(
                    op.assume_dynamic_dims_match_vec_sizes is not None
                ),
                create_named_contraction=op.create_named_contraction is not None,
            )
        except VectorizationFailure:
            raise _at_payload(payload, "Attempted to vectorize, but failed") from None
        rw.replace_values(payload, list(result.replacements))


def _require_isolated(op: Operation, payload: Operation) -> None:
    if not payload.has_trait(IsolatedFromAbove, value_if_unregistered=False):
        raise definite(
            op,
            "op requires isolated-from-above targets",
            notes=[Note("non-isolated target", op_location(payload))],
        )


@applies(VectorizeChildrenAndApplyPatternsOp)
def apply_vectorize_children_and_apply_patterns(
    op: VectorizeChildrenAndApplyPatternsOp, interp: Interpreter
) -> None:
    """Vectorize the ops nested in each target, then run the enabling patterns."""
    options = ChildrenOptions(
        vectorize_padding=op.vectorize_padding is not None,
        vectorize_nd_extract=op.vectorize_nd_extract is not None,
        fold_type_extensions_into_contract=op.fold_type_extensions_into_contract is not None,
        disable_multi_reduction_to_contract_patterns=(
            op.disable_multi_reduction_to_contract_patterns is not None
        ),
        disable_transfer_permutation_map_lowering_patterns=(
            op.disable_transfer_permutation_map_lowering_patterns is not None
        ),
    )

    def one(payload: Operation) -> list[Mapped]:
        _require_isolated(op, payload)
        tracker = PayloadTracker(interp.state, op)
        if not vectorize_children_and_apply_patterns(payload, options, tracker.listener()):
            raise definite(op, f"{op.name} failed to apply", payload)
        return [payload]

    interp.apply_to_each(op, op.target, one)


@applies(HoistRedundantVectorTransfersOp)
def apply_hoist_redundant_vector_transfers(
    op: HoistRedundantVectorTransfersOp, interp: Interpreter
) -> None:
    """Hoist loop-invariant transfer_read/transfer_write pairs out of `scf.for` loops."""
    verify = op.verify_non_zero_trip is not None

    def one(payload: Operation) -> list[Mapped]:
        if not isinstance(payload, func.FuncOp):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        hoisting.hoist_redundant_vector_transfers(payload, verify_non_zero_trip=verify)
        return [payload]

    interp.apply_to_each(op, op.target, one)


@applies(HoistRedundantVectorBroadcastsOp)
def apply_hoist_redundant_vector_broadcasts(
    op: HoistRedundantVectorBroadcastsOp, interp: Interpreter
) -> None:
    """Carry a loop-carried, re-broadcast vector as its extracted value."""

    def one(payload: Operation) -> list[Mapped]:
        hoisting.hoist_redundant_vector_broadcasts(payload)
        return [payload]

    interp.apply_to_each(op, op.target, one)
