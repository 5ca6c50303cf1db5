"""Upstream's `ForeachMatchOp::verifySymbolUses`: what a matcher/action pair must satisfy.

Each check reports upstream's message at upstream's place: most at the `foreach_match`
(with a "symbol declaration" note at the matcher or action), annotation problems at the
named sequence itself.
"""

from __future__ import annotations

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.syntax import LocatedVerifyException
from schedir.dialects.transform.core.sequence import (
    NamedSequenceOp,
    lookup_named_sequence,
    verify_consume_annotations,
)
from schedir.dialects.transform.interfaces import handle_kind


def _error(message: str, note_at: Operation | None = None) -> LocatedVerifyException:
    """Upstream's `emitError()` at the op (no `'<op>' op` prefix)."""
    notes = [(note_at, "symbol declaration")] if note_at is not None else []
    return LocatedVerifyException(message, prefix=False, notes=notes)


def _annotations(seq: NamedSequenceOp) -> None:
    """`verifyFunctionLikeConsumeAnnotations(..., alsoVerifyInternal=true)`, at `seq`."""
    try:
        verify_consume_annotations(seq, also_internal=True)
    except VerifyException as err:
        raise LocatedVerifyException(str(err), at=seq, prefix=False) from None


def verify_foreach_match_symbols(
    op: Operation,
    pairs: list[tuple[SymbolRefAttr, SymbolRefAttr]],
) -> None:
    """Check every matcher -> action pair of a `foreach_match` against its operands and
    results, in upstream's order."""
    operand_kinds = [handle_kind(t) for t in op.operand_types]
    extra_result_kinds = [handle_kind(t) for t in op.result_types[1:]]
    for matcher_sym, action_sym in pairs:
        matcher = lookup_named_sequence(op, matcher_sym)
        action = lookup_named_sequence(op, action_sym)
        if matcher is None:
            raise _error(f"unresolved matcher symbol {matcher_sym}")
        if action is None:
            raise _error(f"unresolved action symbol {action_sym}")
        _annotations(matcher)
        _annotations(action)

        # Input -> matcher forwarding.
        m_inputs = matcher.function_type.inputs.data
        if len(m_inputs) != len(operand_kinds):
            raise _error(
                f"the number of operands ({len(operand_kinds)}) doesn't match the number of "
                f"matcher arguments ({len(m_inputs)}) for {matcher_sym}",
                matcher,
            )
        for index, (kind, argument) in enumerate(zip(operand_kinds, m_inputs, strict=True)):
            if matcher.arg_consumed(index):
                raise LocatedVerifyException(
                    f"does not expect matcher symbol to consume its operand #{index}",
                    notes=[(matcher, "symbol declaration")],
                )
            if kind != handle_kind(argument):
                raise _error(
                    "mismatching type interfaces for operand and matcher argument "
                    f"#{index} of matcher {matcher_sym}",
                    matcher,
                )

        # Matcher -> action forwarding.
        m_outputs = matcher.function_type.outputs.data
        a_inputs = action.function_type.inputs.data
        if len(m_outputs) != len(a_inputs):
            raise _error(
                "mismatching number of matcher results and action arguments between "
                f"{matcher_sym} ({len(m_outputs)}) and {action_sym} ({len(a_inputs)})"
            )
        for index, (produced, taken) in enumerate(zip(m_outputs, a_inputs, strict=True)):
            if handle_kind(produced) != handle_kind(taken):
                # Upstream's message lacks the space before "of".
                raise _error(
                    "mismatching type interfaces for matcher result and action argument "
                    f"#{index}of matcher {matcher_sym} and action {action_sym}"
                )

        # Action -> result forwarding.
        a_outputs = action.function_type.outputs.data
        if len(a_outputs) != len(extra_result_kinds):
            raise _error(
                f"the number of action results ({len(a_outputs)}) for {action_sym} doesn't "
                f"match the number of extra op results ({len(extra_result_kinds)})",
                action,
            )
        for index, (kind, produced) in enumerate(zip(extra_result_kinds, a_outputs, strict=True)):
            if kind != handle_kind(produced):
                raise _error(
                    f"mismatching type interfaces for action result #{index} of action "
                    f"{action_sym} and op result",
                    action,
                )


__all__ = ["verify_foreach_match_symbols"]
