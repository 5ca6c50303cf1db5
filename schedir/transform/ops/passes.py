"""Apply function of `transform.apply_registered_pass`: run a pass on payload ops."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.arg_spec import ArgSpecParseError, parse_spec
from xdsl.utils.exceptions import DiagnosticException

from schedir.diagnostics import SchedirError, TransformError
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.apply import ApplyRegisteredPassOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.state import MultipleTransformErrors, definite, silenceable


def _option_text(value: Attribute, params: list[list[Attribute]]) -> str:
    """An option value as a pass spec writes it (upstream's appendValueAttr)."""
    if value.name == "transform.param_operand":  # type: ignore[attr-defined]
        index = value.index.value.data  # type: ignore[attr-defined]
        return ",".join(_option_text(v, params) for v in params[index])
    if isinstance(value, ArrayAttr):
        return ",".join(_option_text(v, params) for v in value.data)
    if isinstance(value, StringAttr):
        return value.data
    if isinstance(value, IntegerAttr):
        width = getattr(value.type, "width", None)
        if width is not None and width.data == 1:
            return "true" if value.value.data else "false"
        return str(value.value.data)
    return str(value)


@applies(ApplyRegisteredPassOp)
def apply_registered_pass(op: Operation, interp: Interpreter) -> None:
    name = op.properties["pass_name"].data  # type: ignore[union-attr]
    options = op.properties.get("options")
    params = [list(interp.state.params(v)) for v in op.operands[1:]]
    items = options.data.items() if isinstance(options, DictionaryAttr) else ()
    spec_text = name + (
        "{" + " ".join(f"{k}={_option_text(v, params)}" for k, v in items) + "}" if items else ""
    )
    factory = interp.passes.get(name)
    if factory is None:
        raise definite(op, f"unknown pass or pass pipeline: {name}")
    try:
        pass_ = factory().from_pass_spec(parse_spec(spec_text))
    except (ArgSpecParseError, ValueError, TypeError) as err:
        raise definite(
            op, f"failed to add pass or pass pipeline to pipeline: {name} ({err})"
        ) from None
    targets = list(interp.state.payload_ops(op.operands[0]))
    results: list[Operation] = []
    for target in targets:
        if not isinstance(target, ModuleOp) and not target.has_trait(IsolatedFromAbove):
            # As upstream: the pass manager reports at the payload op, the transform op
            # then fails silenceably.
            raise MultipleTransformErrors(
                [
                    TransformError(
                        f"'{target.name}' op trying to schedule a pass on an operation not marked "
                        "as 'IsolatedFromAbove'",
                        op_location(target),
                        silenceable=True,
                    ),
                    silenceable(op, "pass pipeline failed", notes=[op_note(target, "target op")]),
                ]
            )
        results.extend(_run_on(op, interp, pass_, target))
    interp.set_results(op, [results])


def _run_on(
    op: Operation, interp: Interpreter, pass_: object, target: Operation
) -> list[Operation]:
    """Run a module pass on `target`, moving a non-module target into a scratch module."""
    try:
        if isinstance(target, ModuleOp):
            pass_.apply(interp.ctx, target)  # type: ignore[attr-defined]
            return [target]
        anchor = target.next_op
        parent = target.parent_block()
        assert parent is not None
        target.detach()
        scratch = ModuleOp([target])
        try:
            pass_.apply(interp.ctx, scratch)  # type: ignore[attr-defined]
        finally:
            moved = list(scratch.ops)
            for moved_op in moved:
                moved_op.detach()
                Rewriter.insert_op(
                    moved_op,
                    InsertPoint.before(anchor)
                    if anchor is not None
                    else InsertPoint.at_end(parent),
                )
        return moved
    except SchedirError as err:
        raise silenceable(
            op, "pass pipeline failed", notes=[op_note(target, "target op"), *err.notes]
        ) from None
    except DiagnosticException as err:
        raise silenceable(
            op,
            f"pass pipeline failed: {str(err).splitlines()[0]}",
            notes=[op_note(target, "target op")],
        ) from None
