"""Apply functions of schedir's GPU transform extension (`transform.schedir.gpu.*`,
defined in `schedir.dialects.transform.schedir_gpu`): thin adapters over
`schedir.transform.rewrites.gpu.all_reduce` (block and subgroup reductions) and
`.forward_reads`.
"""

from __future__ import annotations

from xdsl.ir import Operation

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.schedir_gpu import (
    DivideByReciprocalOp,
    ForwardReadsOp,
    ReduceToAllReduceOp,
    ReduceToSubgroupReduceOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.rewrites.gpu.all_reduce import (
    AllReduceRewriteError,
    reduce_to_all_reduce,
    reduce_to_subgroup_reduce,
)
from schedir.transform.rewrites.gpu.forward_reads import forward_reads, forward_uniform_slots
from schedir.transform.rewrites.gpu.reciprocal import ReciprocalRewriteError, divide_by_reciprocal
from schedir.transform.state import MultipleTransformErrors, definite, is_ancestor, silenceable
from schedir.transform.tracking import PayloadTracker


def _payload_failure(
    op: Operation, payload: Operation, reason: str, failure: str
) -> MultipleTransformErrors:
    """A silenceable failure of `op`: why the rewrite did not fit, at the payload op, then
    `failure` at the transform op."""
    at_payload = TransformError(
        f"'{payload.name}' op {reason}", op_location(payload), silenceable=True
    )
    return MultipleTransformErrors([at_payload, silenceable(op, failure)])


@applies(ReduceToAllReduceOp)
def apply_reduce_to_all_reduce(op: ReduceToAllReduceOp, interp: Interpreter) -> None:
    """Rewrite each target reduction into a forall of per-thread `gpu.all_reduce`s."""
    mapping = list(op.mapping.data)
    in_threads = op.merge_in_threads is not None

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = reduce_to_all_reduce(
                interp.state.rewriter(payload), payload, mapping, merge_in_threads=in_threads
            )
        except AllReduceRewriteError as error:
            raise _payload_failure(
                op, payload, error.message, "could not rewrite the reduction into gpu.all_reduce"
            ) from None
        return [result.forall, result.merge]

    interp.apply_to_each(op, op.target, one)


@applies(ReduceToSubgroupReduceOp)
def apply_reduce_to_subgroup_reduce(op: ReduceToSubgroupReduceOp, interp: Interpreter) -> None:
    """Rewrite each target reduction into a forall of per-lane `gpu.subgroup_reduce`s."""
    mapping = list(op.mapping.data)
    lanes = op.lanes.value.data

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = reduce_to_subgroup_reduce(
                interp.state.rewriter(payload), payload, lanes, mapping
            )
        except AllReduceRewriteError as error:
            raise _payload_failure(
                op,
                payload,
                error.message,
                "could not rewrite the reduction into gpu.subgroup_reduce",
            ) from None
        return [result.forall, result.merge]

    interp.apply_to_each(op, op.target, one)


@applies(ForwardReadsOp)
def apply_forward_reads(op: ForwardReadsOp, interp: Interpreter) -> None:
    """Forward the reads of read-only memory in each target's body to earlier equal reads."""
    tracker = PayloadTracker(interp.state, op)
    for target in interp.state.payload_ops(op.target):
        if is_ancestor(target, op):
            # as upstream's ensurePayloadIsSeparateFromTransform
            raise definite(
                op,
                "cannot apply transform to itself (or one of its ancestors)",
                notes=[Note("target payload op", op_location(target))],
            )
        forward_uniform_slots(target, tracker.listener())
        forward_reads(target, tracker.listener())


@applies(DivideByReciprocalOp)
def apply_divide_by_reciprocal(op: DivideByReciprocalOp, interp: Interpreter) -> None:
    """Rewrite the float divisions of each target's body into multiplications by the
    divisor's reciprocal."""
    for payload in interp.state.payload_ops(op.target):
        try:
            divide_by_reciprocal(interp.state.rewriter(payload), payload)
        except ReciprocalRewriteError as error:
            raise _payload_failure(
                op, payload, error.message, "could not divide by reciprocals"
            ) from None
