"""Debug transform extension (upstream DebugExtensionOps.td): ops that report what
handles and parameters hold, as diagnostic remarks.

Both ops are match ops (they may appear in `foreach_match` matchers), only read their
operands and the payload, and always succeed.

Applied by `schedir.transform.ops.debug`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.transform import (
    TransformHandleType,
    TransformOpHandleType,
    TransformParamHandleType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform.interfaces import MatchOpInterface


@irdl_transform_op
class EmitRemarkAtOp(IRDLOperation, MatchOpInterface):
    """Emits a remark with the message at each payload op (or value) of the handle.

    ```mlir
    transform.debug.emit_remark_at %h, "tiled" : !transform.any_op
    ```

    For a value handle the remark is at the value's location, with a note saying which
    op result or block argument it is.

    Return modes: only reads the handle and the payload; always succeeds.
    """

    name = "transform.debug.emit_remark_at"

    at = operand_def(TransformHandleType)
    message = prop_def(StringAttr)

    assembly_format = "$at `,` $message attr-dict `:` type($at)"

    def __init__(self, at: SSAValue, message: str) -> None:
        super().__init__(operands=[at], properties={"message": StringAttr(message)})

    def verify_(self) -> None:
        # Upstream's Transform_AnyHandleType: an op or a value handle, not a parameter.
        if isinstance(self.at.type, TransformParamHandleType):
            raise VerifyException(
                f"operand #0 must be any transform handle type, but got '{self.at.type}'"
            )


@irdl_transform_op
class EmitParamAsRemarkOp(IRDLOperation, MatchOpInterface):
    """Emits a remark listing the parameter's attributes (`0 : i64, 4 : i64`), after the
    optional message, at the transform op or at each payload op of the anchor.

    ```mlir
    transform.debug.emit_param_as_remark %p, "tile sizes" at %mm
        : !transform.param<i64>, !transform.any_op
    ```

    Return modes: only reads the parameter and the anchor; always succeeds.
    """

    name = "transform.debug.emit_param_as_remark"

    param = operand_def(TransformParamHandleType)
    anchor = opt_operand_def(TransformOpHandleType)
    message = opt_prop_def(StringAttr)

    assembly_format = (
        "$param (`,` $message^)? (`at` $anchor^)? attr-dict `:` type($param) (`,` type($anchor)^)?"
    )

    def __init__(
        self, param: SSAValue, anchor: SSAValue | None = None, message: str | None = None
    ) -> None:
        properties: dict[str, Attribute] = {}
        if message is not None:
            properties["message"] = StringAttr(message)
        super().__init__(operands=[param, [anchor] if anchor else []], properties=properties)


OPS: tuple[type[IRDLOperation], ...] = (EmitParamAsRemarkOp, EmitRemarkAtOp)

__all__ = ["OPS", "EmitParamAsRemarkOp", "EmitRemarkAtOp"]
