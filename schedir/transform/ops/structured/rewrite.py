"""Apply functions of the structured rewrites that neither tile nor vectorize:
`generalize`, `specialize`, `interchange`, `decompose` and `decompose_interface`, with
upstream's messages and failure modes (LinalgTransformOps.cpp). Each one reads its
handles, calls a payload algorithm from `schedir.transform.rewrites` and sets its result
handles; the interpreter consumes the target handle.

Ops declared with a payload type in upstream's `applyToOne` (LinalgOp, GenericOp) fail
silenceably with "transform applied to the wrong op kind" on any other payload op, and
the other payload ops are still transformed (TransformEachOpTrait).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Operation

from schedir.diagnostics import TransformError
from schedir.dialects import linalg
from schedir.dialects.linalg.interface import is_structured
from schedir.dialects.transform.structured.rewrite import (
    DecomposeInterfaceOp,
    DecomposeOp,
    FlattenElementwiseLinalgOp,
    GeneralizeOp,
    InterchangeOp,
    RewriteInDestinationPassingStyleOp,
    SpecializeOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops._linalg_analysis import is_elementwise
from schedir.transform.rewrites import specialize, structured_misc
from schedir.transform.rewrites.destination_style import rewrite_in_destination_passing_style
from schedir.transform.rewrites.flatten import flatten_elementwise
from schedir.transform.rewrites.structured_misc import RewriteFailure
from schedir.transform.state import definite, payload_location, silenceable

PayloadCheck = Callable[[Operation], bool]
RewriteOp = (
    GeneralizeOp
    | InterchangeOp
    | DecomposeInterfaceOp
    | SpecializeOp
    | DecomposeOp
    | FlattenElementwiseLinalgOp
)


def _each(
    op: RewriteOp,
    interp: Interpreter,
    accepts: PayloadCheck,
    fn: Callable[[Operation], Sequence[Mapped | None]],
) -> None:
    """Upstream's `applyToOne` over the target handle with a payload-kind check."""

    def one(payload: Operation) -> Sequence[Mapped | None]:
        if not accepts(payload):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        return fn(payload)

    interp.apply_to_each(op, op.target, one)


def _default_failure(op: Operation, payload: Operation) -> TransformError:
    """Upstream's `emitDefaultSilenceableFailure`."""
    return silenceable(op, f"{op.name} failed to apply", payload)


def _is_generic(payload: Operation) -> bool:
    return isinstance(payload, linalg.GenericOp)


# --- generalize / interchange / decompose_interface -------------------------------------


@applies(GeneralizeOp)
def apply_generalize(op: GeneralizeOp, interp: Interpreter) -> None:
    """Named structured ops -> linalg.generic; generic ops are returned unchanged."""

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = structured_misc.generalize(interp.state.rewriter(payload), payload)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        return [result.generic]

    _each(op, interp, is_structured, one)


@applies(InterchangeOp)
def apply_interchange(op: InterchangeOp, interp: Interpreter) -> None:
    """Permute the loops of linalg.generic ops."""
    permutation = [int(v) for v in op.iterator_interchange.get_values()]

    def one(payload: Operation) -> list[Mapped]:
        assert isinstance(payload, linalg.GenericOp)
        if not permutation:
            return [payload]
        num_loops = len(payload.iterator_types.data)
        if len(permutation) != num_loops:
            raise silenceable(
                op,
                f'"iterator_interchange" has length ({len(permutation)}) different from the '
                f"number of loops in the target operation ({num_loops})",
            )
        try:
            result = structured_misc.interchange(
                interp.state.rewriter(payload), payload, permutation
            )
        except RewriteFailure:
            raise definite(op, "failed to apply") from None
        return [result.generic]

    _each(op, interp, _is_generic, one)


@applies(DecomposeInterfaceOp)
def apply_decompose_interface(op: DecomposeInterfaceOp, interp: Interpreter) -> None:
    """Decompose aggregated ops (linalg.softmax) into the ops defining their results."""

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = structured_misc.decompose_aggregate(interp.state.rewriter(payload), payload)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        return list(result.result_ops)

    _each(op, interp, lambda _: True, one)


@applies(SpecializeOp)
def apply_specialize(op: SpecializeOp, interp: Interpreter) -> None:
    """linalg.generic -> the named op it is equivalent to."""
    emit_category = bool(op.emit_category.value.data)

    def one(payload: Operation) -> list[Mapped]:
        if not isinstance(payload, linalg.GenericOp):
            return [payload]
        try:
            result = specialize.specialize(interp.state.rewriter(payload), payload, emit_category)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        except specialize.UnsupportedSpecialization as unsupported:
            raise definite(
                op,
                f"upstream specializes this op to the category op {unsupported}, which "
                "schedir does not define",
                payload,
            ) from None
        return [result.named]

    _each(op, interp, is_structured, one)


@applies(DecomposeOp)
def apply_decompose(op: DecomposeOp, interp: Interpreter) -> None:
    """2-D convolutions/poolings with a unit window dimension -> their 1-D form."""

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = structured_misc.decompose_conv(interp.state.rewriter(payload), payload)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        except structured_misc.MissingOp as missing:
            raise definite(
                op,
                f"upstream decomposes this op into {missing}, which schedir does not define",
                payload,
            ) from None
        return [result.conv_1d]

    _each(op, interp, is_structured, one)


@applies(RewriteInDestinationPassingStyleOp)
def apply_rewrite_in_destination_passing_style(
    op: RewriteInDestinationPassingStyleOp, interp: Interpreter
) -> None:
    """tensor.from_elements / generate / pad in destination-passing style."""

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = rewrite_in_destination_passing_style(interp.state.rewriter(payload), payload)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        return [result]

    interp.apply_to_each(op, op.target, one)


@applies(FlattenElementwiseLinalgOp)
def apply_flatten_elementwise(op: FlattenElementwiseLinalgOp, interp: Interpreter) -> None:
    """Collapse all loops of elementwise structured ops into one."""

    def one(payload: Operation) -> list[Mapped]:
        # Upstream reports these at the payload op (emitSilenceableFailure(target->getLoc())).
        def at_payload(message: str) -> TransformError:
            return TransformError(message, payload_location(payload), (), silenceable=True)

        if not is_elementwise(payload):
            raise at_payload("only elementwise flattening is supported")
        try:
            result = flatten_elementwise(interp.state.rewriter(payload), payload)
        except RewriteFailure:
            raise at_payload("attempted to flatten, but failed") from None
        return [result]

    _each(op, interp, is_structured, one)
