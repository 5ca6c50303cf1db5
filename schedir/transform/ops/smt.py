"""Apply function of the SMT extension (upstream SMTExtensionOps.cpp): the constraints a
schedule states on its params are checked on the values the params hold.

    transform.smt.constrain_params(%bn, %rn) : (!transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%n: !smt.int, %r: !smt.int):
      %c0 = smt.int.constant 0
      %rem = smt.int.mod %n, %r
      %ok = smt.eq %rem, %c0 : !smt.int
      smt.assert %ok
    }

Upstream has no interpreted semantics yet (its apply always fails); schedir evaluates the
region (`schedir.transform.constraints.evaluate`) on the params' values, so a schedule
whose knobs were selected against its own constraints fails before it builds anything.
"""

from __future__ import annotations

from schedir.diagnostics import Note
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.smt import ConstrainParamsOp
from schedir.transform.constraints import EvaluationError, SmtValue, attr_of, evaluate, smt_value
from schedir.transform.interface import Interpreter, applies
from schedir.transform.state import definite

_I64 = (-(2**63), 2**63 - 1)


@applies(ConstrainParamsOp)
def apply_constrain_params(op: ConstrainParamsOp, interp: Interpreter) -> None:
    """Evaluate the region on the params; fail definitely when an assertion is false."""
    values: list[SmtValue] = []
    block = op.body.block
    for index, (param, arg) in enumerate(zip(op.params, block.args, strict=True)):
        held = interp.state.params(param)
        value = smt_value(held[0], arg.type) if len(held) == 1 else None
        if value is None:
            got = ", ".join(str(a) for a in held) or "nothing"
            raise definite(
                op,
                f"param #{index} should hold exactly one value of sort {arg.type}, got: {got}",
            )
        values.append(value)
    try:
        outcome = evaluate(op, values)
    except EvaluationError as err:
        raise definite(op, str(err), notes=(Note("this op", op_location(err.op)),)) from None
    shown = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)
    if outcome.failed is not None or outcome.reason:
        notes = (
            (Note("the false assertion", op_location(outcome.failed)),)
            if outcome.failed is not None
            else ()
        )
        raise definite(
            op, f"constraint violated for params ({shown}): {outcome.reason}", notes=notes
        )
    results: list[list[object]] = []
    for value in outcome.yielded:
        if not isinstance(value, bool) and not _I64[0] <= value <= _I64[1]:
            raise definite(op, f"yielded value {value} does not fit a 64-bit param")
        results.append([attr_of(value)])
    interp.set_results(op, results)  # pyright: ignore[reportArgumentType]  # params are attributes
