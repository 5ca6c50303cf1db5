"""Apply functions of the core matcher predicates (upstream's TransformOps.cpp):
`match.operation_name`, `match.operation_empty` and `match.param.cmpi`. A silenceable
failure means "does not match". Messages follow upstream's.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from schedir.diagnostics import Note
from schedir.dialects.transform.core.match import (
    MatchCmpIPredicate,
    MatchOperationEmptyOp,
    MatchOperationNameOp,
    MatchParamCmpIOp,
)
from schedir.transform.interface import Interpreter, applies
from schedir.transform.state import definite, silenceable, value_location


def _single_payload(op: Operation, interp: Interpreter, handle: SSAValue) -> Operation:
    payloads = interp.state.payload_ops(handle)
    if len(payloads) != 1:
        raise definite(
            op, f"expected one payload to be bound to the first operand, got {len(payloads)}"
        )
    return payloads[0]


@applies(MatchOperationNameOp)
def apply_match_operation_name(op: MatchOperationNameOp, interp: Interpreter) -> None:
    """Match if the one payload op has one of the names."""
    current = _single_payload(op, interp, op.operand_handle)
    if current.name not in [name.data for name in op.op_names.data]:
        raise silenceable(op, "wrong operation name")


@applies(MatchOperationEmptyOp)
def apply_match_operation_empty(op: MatchOperationEmptyOp, interp: Interpreter) -> None:
    """Match if the handle is empty."""
    payloads = interp.state.payload_ops(op.operand_handle)
    if len(payloads) > 1:
        raise definite(
            op,
            f"expected at most one payload to be bound to the first operand, got {len(payloads)}",
        )
    if payloads:
        raise silenceable(op, "operation is not empty")


_CMP: dict[MatchCmpIPredicate, tuple[Callable[[int, int], bool], str]] = {
    MatchCmpIPredicate.EQ: (lambda a, b: a == b, "equal to"),
    MatchCmpIPredicate.NE: (lambda a, b: a != b, "not equal to"),
    MatchCmpIPredicate.LT: (lambda a, b: a < b, "less than"),
    MatchCmpIPredicate.LE: (lambda a, b: a <= b, "less than or equal to"),
    MatchCmpIPredicate.GT: (lambda a, b: a > b, "greater than"),
    MatchCmpIPredicate.GE: (lambda a, b: a >= b, "greater than or equal to"),
}


@applies(MatchParamCmpIOp)
def apply_match_param_cmpi(op: MatchParamCmpIOp, interp: Interpreter) -> None:
    """Match if each value of `param` compares true with its reference value."""
    params = interp.state.params(op.param)
    references = interp.state.params(op.reference)
    if len(params) != len(references):
        raise silenceable(
            op, f"parameters have different payload lengths ({len(params)} vs {len(references)})"
        )
    compare, words = _CMP[op.cmp]
    for index, (value, ref) in enumerate(zip(params, references, strict=True)):
        if not isinstance(value, IntegerAttr) or not isinstance(ref, IntegerAttr):
            raise definite(op, "non-integer parameter value not expected")
        if value.type != ref.type:
            raise definite(op, f"mismatching integer attribute types in parameter #{index}")
        if not compare(value.value.data, ref.value.data):
            raise silenceable(
                op,
                f"expected parameter to be {words} {ref.value.data}, got {value.value.data}",
                notes=[
                    Note(
                        f"value # {index} associated with the parameter defined here",
                        value_location(op.param),
                    )
                ],
            )
