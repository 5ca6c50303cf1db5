"""Apply functions of the vectorization ops (upstream LinalgTransformOps.cpp).

`structured.vectorize`, `structured.vectorize_children_and_apply_patterns`,
`structured.hoist_redundant_vector_transfers` and
`structured.hoist_redundant_vector_broadcasts`. The payload algorithms live in
`schedir.transform.rewrites.vectorization*` and `schedir.transform.rewrites.hoisting`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Operation
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.structured_rewrite import (
    HoistRedundantVectorBroadcastsOp,
    HoistRedundantVectorTransfersOp,
    VectorizeChildrenAndApplyPatternsOp,
    VectorizeOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.core import flag, int_list_prop, operand, prop
from schedir.transform.ops.patterns import PayloadTracker
from schedir.transform.ops.structured import _reify_sizes as reify_sizes
from schedir.transform.rewrites import hoisting
from schedir.transform.rewrites.utils import CanonRewriter
from schedir.transform.rewrites.vectorization.children import (
    ChildrenOptions,
    vectorize_children_and_apply_patterns,
)
from schedir.transform.rewrites.vectorization.linalg import (
    VectorizationFailure,
    has_vectorization_impl,
    vectorize,
)
from schedir.transform.state import definite, payload_location, silenceable


def _at_payload(payload: Operation, message: str) -> TransformError:
    """Upstream's `emitSilenceableFailure(target->getLoc())`: reported at the payload op."""
    return TransformError(message, payload_location(payload), silenceable=True)


@applies(VectorizeOp)
def apply_vectorize(op: Operation, interp: Interpreter) -> None:
    """`transform.structured.vectorize`: vectorize each target (masked with
    `vector_sizes`), replacing it by vector ops.

        transform.structured.vectorize %matmul vector_sizes [8, 16, 4] : !transform.any_op

    Return modes: consumes the target and produces nothing. Silenceable failure, at the
    payload op, "Unsupported Op, cannot vectorize" for an op without a vector form and
    "Attempted to vectorize, but failed" when its preconditions do not hold (targets
    before it are already vectorized, as upstream); silenceable failures of the vector
    sizes' params or handles as upstream's `reifyMixedParamAndHandleResults`.
    """
    target = operand(op, "target")
    assert target is not None
    targets = interp.state.payload_ops(target)
    if not targets:
        return
    static = int_list_prop(op, "static_vector_sizes")
    dynamic = list(op.operands[1:])
    sizes = reify_sizes(op, interp, static, dynamic)
    scalable_attr = prop(op, "scalable_sizes")
    scalable = (
        [bool(v) for v in scalable_attr.get_values()]
        if isinstance(scalable_attr, DenseArrayBase)
        else []
    )
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
                nd_extract=flag(op, "vectorize_nd_extract"),
                assume_dynamic_dims_match_vec_sizes=flag(op, "assume_dynamic_dims_match_vec_sizes"),
                create_named_contraction=flag(op, "create_named_contraction"),
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
def apply_vectorize_children_and_apply_patterns(op: Operation, interp: Interpreter) -> None:
    """`transform.structured.vectorize_children_and_apply_patterns`: vectorize every op
    nested in the target, then run upstream's enabling patterns (transfer permutation
    lowering, reduction to contract, sinking, transfer folds, copy forwarding, tensor
    subset folds, optionally tensor.pad vectorization) greedily.

        %f2 = transform.structured.vectorize_children_and_apply_patterns %f
            : (!transform.any_op) -> !transform.any_op

    Return modes: consumes the target (handles to nested ops are invalidated) and returns
    it. Definite failure "op requires isolated-from-above targets" (with a note at the
    target) and when the patterns do not converge.
    """
    options = ChildrenOptions(
        vectorize_padding=flag(op, "vectorize_padding"),
        vectorize_nd_extract=flag(op, "vectorize_nd_extract"),
        fold_type_extensions_into_contract=flag(op, "fold_type_extensions_into_contract"),
        disable_multi_reduction_to_contract_patterns=flag(
            op, "disable_multi_reduction_to_contract_patterns"
        ),
        disable_transfer_permutation_map_lowering_patterns=flag(
            op, "disable_transfer_permutation_map_lowering_patterns"
        ),
    )

    def one(payload: Operation) -> list[Mapped]:
        _require_isolated(op, payload)
        tracker = PayloadTracker(interp, op)
        if not vectorize_children_and_apply_patterns(payload, options, tracker.listener()):
            raise definite(op, f"{op.name} failed to apply", payload)
        return [payload]

    interp.apply_to_each(op, op.operands[0], one)


@applies(HoistRedundantVectorTransfersOp)
def apply_hoist_redundant_vector_transfers(op: Operation, interp: Interpreter) -> None:
    """`transform.structured.hoist_redundant_vector_transfers`: hoist loop-invariant
    transfer_read / transfer_write pairs on buffers out of `scf.for` loops in the target
    (after LICM), and lone reads of buffers nothing in the loop writes.

        %f2 = transform.structured.hoist_redundant_vector_transfers %f
            : (!transform.any_op) -> !transform.any_op

    Return modes: consumes the target and returns it; silenceable failure "transform
    applied to the wrong op kind" on targets that are not `func.func` (upstream's
    FuncOp-typed applyToOne); otherwise never fails. Like upstream it does not model
    parallel loops: hoisting from a distributed loop may be wrong.
    """
    verify = flag(op, "verify_non_zero_trip")

    def one(payload: Operation) -> list[Mapped]:
        if payload.name != "func.func":
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        hoisting.hoist_redundant_vector_transfers(payload, verify_non_zero_trip=verify)
        return [payload]

    interp.apply_to_each(op, op.operands[0], one)


@applies(HoistRedundantVectorBroadcastsOp)
def apply_hoist_redundant_vector_broadcasts(op: Operation, interp: Interpreter) -> None:
    """`transform.structured.hoist_redundant_vector_broadcasts`: a loop-carried vector
    that is only extracted from and re-broadcast is carried as the extracted value.

        %f2 = transform.structured.hoist_redundant_vector_broadcasts %f
            : (!transform.any_op) -> !transform.any_op

    Return modes: consumes the target and returns it; never fails.
    """

    def one(payload: Operation) -> list[Mapped]:
        hoisting.hoist_redundant_vector_broadcasts(payload)
        return [payload]

    interp.apply_to_each(op, op.operands[0], one)


__all__ = [
    "apply_hoist_redundant_vector_broadcasts",
    "apply_hoist_redundant_vector_transfers",
    "apply_vectorize",
    "apply_vectorize_children_and_apply_patterns",
]
