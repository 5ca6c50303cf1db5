"""`transform.structured.match` (upstream LinalgTransformOps.td): a handle to the ops
nested in the target that pass every filter (names, interface, attributes, types).

Applied by `schedir.transform.ops.structured.match`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I32, ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr
from xdsl.dialects.transform import MatchInterface, TransformOpHandleType
from xdsl.ir import TypeAttribute
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op

MATCH_INTERFACES = ("LinalgOp", "TilingInterface", "LoopLikeInterface")
"""Upstream `MatchInterfaceEnum`, by stored `i32` value."""


@irdl_transform_op
class StructuredMatchOp(IRDLOperation):
    """Handle to the ops nested in the (single) target that pass every filter, in
    post-order.

    ```mlir
    %mm = transform.structured.match ops{["linalg.matmul"]} interface{TilingInterface}
        attributes {tag} filter_result_type = tensor<4xf32> in %root
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the target. Definite failure unless the target holds
    exactly one payload op; never fails because nothing matched.
    """

    name = "transform.structured.match"

    ops = opt_prop_def(ArrayAttr[StringAttr])
    interface = opt_prop_def(IntegerAttr[I32])
    op_attrs = opt_prop_def(DictionaryAttr)
    filter_result_type = opt_prop_def(TypeAttribute)
    filter_operand_types = opt_prop_def(ArrayAttr[TypeAttribute])
    target = operand_def(TransformOpHandleType)
    results_ = result_def(TransformOpHandleType)

    custom_directives = (MatchInterface,)
    assembly_format = (
        "(`ops` `{` $ops^ `}`)? "
        "(`interface` `{` custom<MatchInterface>($interface)^ `}`)? "
        "(`attributes` $op_attrs^)? "
        "(`filter_result_type` `=` $filter_result_type^)? "
        "(`filter_operand_types` `=` $filter_operand_types^)? "
        "`in` $target attr-dict `:` functional-type(operands, results)"
    )

    @classmethod
    def post_parse(cls, op: IRDLOperation) -> None:
        """Upstream keeps dictionary entries sorted by name."""
        attrs = op.properties.get("op_attrs")
        if isinstance(attrs, DictionaryAttr):
            op.properties["op_attrs"] = DictionaryAttr(dict(sorted(attrs.data.items())))

    def verify_(self) -> None:
        if self.interface is not None and not 0 <= self.interface.value.data < 3:
            raise VerifyException(
                "attribute 'interface' failed to satisfy constraint: allowed 32-bit "
                "signless integer cases: 0, 1, 2"
            )


OPS: tuple[type[IRDLOperation], ...] = (StructuredMatchOp,)

__all__ = ["MATCH_INTERFACES", "OPS", "StructuredMatchOp"]
