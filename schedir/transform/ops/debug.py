"""Apply functions of the debug extension: `debug.emit_remark_at` and
`debug.emit_param_as_remark` report as remarks, through the interpreter's diagnostics.
"""

from __future__ import annotations

import io

from xdsl.ir import Attribute, BlockArgument, OpResult, SSAValue
from xdsl.printer import Printer

from schedir.diagnostics import Diagnostic, Note
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.debug import EmitParamAsRemarkOp, EmitRemarkAtOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.state import handle_kind, payload_location


def _describe_value(value: SSAValue) -> str:
    """Upstream's note on a value handle's payload: which op result or block argument."""
    if isinstance(value, BlockArgument):
        block = value.block
        region = block.parent
        assert region is not None
        owner = region.parent
        block_index = list(region.blocks).index(block)
        region_index = list(owner.regions).index(region) if owner is not None else 0
        return (
            f"value handle points to a block argument #{value.index} in block "
            f"#{block_index} in region #{region_index}"
        )
    assert isinstance(value, OpResult)
    return f"value handle points to an op result #{value.index}"


@applies(EmitRemarkAtOp)
def apply_emit_remark_at(op: EmitRemarkAtOp, interp: Interpreter) -> None:
    """Emit the message as a remark at each payload op (or value)."""
    at, message = op.at, op.message.data
    if handle_kind(at) == "op":
        for payload in interp.state.payload_ops(at):
            interp.emit(Diagnostic("remark", message, op_location(payload)))
        return
    for value in interp.state.payload_values(at):
        note = Note(_describe_value(value), payload_location(value))
        interp.emit(Diagnostic("remark", message, payload_location(value), (note,)))


def format_attribute(attr: Attribute) -> str:
    """An attribute as MLIR prints it in a diagnostic (`4 : i64`, `"a"`, `[1, 2]`)."""
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()


@applies(EmitParamAsRemarkOp)
def apply_emit_param_as_remark(op: EmitParamAsRemarkOp, interp: Interpreter) -> None:
    """Emit the param's values as a remark at the anchor ops (or at the transform op)."""
    text = ", ".join(format_attribute(a) for a in interp.state.params(op.param))
    if op.message is not None:
        text = f"{op.message.data} {text}"
    if op.anchor is None:
        interp.emit(Diagnostic("remark", text, op_location(op)))
        return
    for payload in interp.state.payload_ops(op.anchor):
        interp.emit(Diagnostic("remark", text, op_location(payload)))
