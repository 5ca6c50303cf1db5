"""Core transform ops on handles and parameters (upstream TransformOps.td).

Splitting, merging and navigating handles (`split_handle`, `merge_handles`,
`get_parent_op`, `get_producer_of_operand`, `get_consumers_of_result`, `get_result`,
`get_operand`, `get_defining_op`, `get_type`), re-typing and filtering (`cast`,
`select`, `num_associations`), payload side effects for debugging
(`annotate`, `print`, `verify`) and parameters (`param.constant`). The core matcher
predicates (`match.operation_name`, ...) are in `match.py`. All of them only read their
operands.

Applied by `schedir.transform.ops.core.handles`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i1,
    i64,
)
from xdsl.dialects.transform import (
    TransformHandleType,
    TransformOpHandleType,
    TransformParamHandleType,
    TransformValueHandleType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    BaseAttr,
    IRDLOperation,
    VarConstraint,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op, print_attribute_elided
from schedir.dialects.transform._syntax_helpers import (
    parse_position_list,
    parse_prop_and_attr_dict,
    print_position_list,
    print_prop_and_attr_dict,
    verify_position_list,
)
from schedir.dialects.transform.interfaces import MatchOpInterface

_TRUE = IntegerAttr(1, i1)


def _functional(op_fields: str = "operands, results") -> str:
    return f"attr-dict `:` functional-type({op_fields})"


@irdl_transform_op
class SplitHandleOp(IRDLOperation):
    """Splits a handle into one handle per payload op.

    ```mlir
    %a, %b = transform.split_handle %h overflow_result = 1
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    With `overflow_result = i`, extra payloads go to result `i`. An empty handle gives
    empty results when `pass_through_empty_handle` (default true).

    Return modes: only reads the handle. Silenceable failure when the payload count is
    not the result count (fewer payloads are accepted when `fail_on_payload_too_small`
    is false; more need `overflow_result`).
    """

    name = "transform.split_handle"

    handle = operand_def(TransformHandleType)
    pass_through_empty_handle = prop_def(BoolAttr, default_value=_TRUE)
    fail_on_payload_too_small = prop_def(BoolAttr, default_value=_TRUE)
    overflow_result = opt_prop_def(IntegerAttr[I64])
    results_ = var_result_def(TransformHandleType)

    KEYWORDS_ANY_ORDER: ClassVar[bool] = True
    assembly_format = (
        "$handle (`pass_through_empty_handle` `=` $pass_through_empty_handle^)? "
        "(`fail_on_payload_too_small` `=` $fail_on_payload_too_small^)? "
        "(`overflow_result` `=` $overflow_result^)? " + _functional()
    )

    def __init__(
        self,
        handle: SSAValue,
        result_types: Sequence[Attribute],
        *,
        overflow_result: int | None = None,
    ) -> None:
        super().__init__(
            operands=[handle],
            result_types=[result_types],
            properties={
                "overflow_result": IntegerAttr(overflow_result, i64)
                if overflow_result is not None
                else None
            },
        )

    def verify_(self) -> None:
        if self.overflow_result is not None and not (
            0 <= self.overflow_result.value.data < len(self.results)
        ):
            raise VerifyException("overflow_result is not a valid result index")


@irdl_transform_op
class MergeHandlesOp(IRDLOperation, MatchOpInterface):
    """Concatenates handles (of ops, values or params), optionally deduplicated.

    ```mlir
    %m = transform.merge_handles deduplicate %a, %b : !transform.any_op
    ```

    Return modes: only reads the operands (newer upstream; older releases consumed
    them); never fails.
    """

    name = "transform.merge_handles"

    T: ClassVar = VarConstraint("T", BaseAttr(TransformHandleType))

    handles = var_operand_def(T)
    deduplicate = opt_prop_def(UnitAttr)
    result = result_def(T)

    assembly_format = "(`deduplicate` $deduplicate^)? $handles attr-dict `:` type($result)"

    def __init__(self, handles: Sequence[SSAValue], *, deduplicate: bool = False) -> None:
        super().__init__(
            operands=[handles],
            result_types=[handles[0].type],
            properties={"deduplicate": UnitAttr() if deduplicate else None},
        )

    def allows_repeated_handles(self) -> bool:
        """Deduplicating merges may see the same payload twice."""
        return self.deduplicate is not None

    def verify_(self) -> None:
        if not self.handles:
            raise VerifyException("expected 1 or more operands, but found 0")


@irdl_transform_op
class GetParentOp(IRDLOperation, MatchOpInterface):
    """Handle to the closest (or `nth_parent`) ancestor of each payload op matching the
    filters.

    ```mlir
    %f = transform.get_parent_op %h <op_name = "func.func", deduplicate>
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the target. Silenceable failure if a payload op has no such
    parent, unless `allow_empty_results`.
    """

    name = "transform.get_parent_op"

    target = operand_def(TransformOpHandleType)
    isolated_from_above = opt_prop_def(UnitAttr)
    allow_empty_results = opt_prop_def(UnitAttr)
    op_name = opt_prop_def(StringAttr)
    deduplicate = opt_prop_def(UnitAttr)
    nth_parent = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))
    result = result_def(TransformOpHandleType)

    assembly_format = "$target " + _functional()

    def verify_(self) -> None:
        if self.nth_parent.value.data <= 0:
            raise VerifyException(
                "attribute 'nth_parent' failed to satisfy constraint: 64-bit signless "
                "integer attribute whose value is positive"
            )


@irdl_transform_op
class GetProducerOfOperandOp(IRDLOperation, MatchOpInterface):
    """Handle to the op defining operand #`operand_number` of each payload op.

    ```mlir
    %p = transform.get_producer_of_operand %h[0] : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the target. Silenceable failure if the operand does not
    exist or is a block argument.
    """

    name = "transform.get_producer_of_operand"

    target = operand_def(TransformOpHandleType)
    operand_number = prop_def(IntegerAttr[I64])
    producer = result_def(TransformOpHandleType)

    assembly_format = "$target `[` $operand_number `]` " + _functional()


@irdl_transform_op
class GetConsumersOfResultOp(IRDLOperation):
    """Handle to the users of result #`result_number` of the (single) payload op.

    ```mlir
    %c = transform.get_consumers_of_result %h[0] : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the target. An empty handle gives an empty result; definite
    failure if the handle holds more than one payload op or the op has no result
    `result_number`.
    """

    name = "transform.get_consumers_of_result"

    target = operand_def(TransformOpHandleType)
    result_number = prop_def(IntegerAttr[I64])
    consumers = result_def(TransformOpHandleType)

    assembly_format = "$target `[` $result_number `]` " + _functional()


class _ValueGetter(IRDLOperation):
    """Shared definition of `get_result`/`get_operand`: a position list written
    `[0, 2]`, `[except(0, 2)]` or `[all]` (upstream `custom<TransformMatchDims>`)."""

    target = operand_def(TransformOpHandleType)
    raw_position_list = prop_def(DenseArrayBase.constr(i64))
    is_inverted = opt_prop_def(UnitAttr)
    is_all = opt_prop_def(UnitAttr)
    result = result_def(TransformValueHandleType)

    @classmethod
    def parse(cls, parser: Parser) -> _ValueGetter:
        target = parser.parse_unresolved_operand()
        props = parse_position_list(parser, "raw_position_list")
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        target_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(target, target_type)],
            result_types=[result_type],
            properties=props | extra,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        print_position_list(printer, self.raw_position_list, self.is_inverted, self.is_all)
        print_prop_and_attr_dict(
            printer, self, elided=("raw_position_list", "is_inverted", "is_all")
        )
        printer.print_string(" : (")
        printer.print_attribute(self.target.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        verify_position_list(self.raw_position_list, self.is_inverted, self.is_all)


@irdl_transform_op
class GetResultOp(_ValueGetter):
    """Value handle to the listed results of each payload op.

    ```mlir
    %v = transform.get_result %h[0] : (!transform.any_op) -> !transform.any_value
    %w = transform.get_result %h[except(1)] : (!transform.any_op) -> !transform.any_value
    ```

    Return modes: only reads the target. Silenceable failure if a position is out of
    range for some payload op.
    """

    name = "transform.get_result"


@irdl_transform_op
class GetOperandOp(_ValueGetter, MatchOpInterface):
    """Value handle to the listed operands of each payload op (`[all]`, `[except(..)]`).

    ```mlir
    %v = transform.get_operand %h[all] : (!transform.any_op) -> !transform.any_value
    ```

    Return modes: only reads the target. Silenceable failure if a position is out of
    range for some payload op.
    """

    name = "transform.get_operand"


@irdl_transform_op
class GetDefiningOp(IRDLOperation, MatchOpInterface):
    """Handle to the ops defining the payload values of a value handle.

    ```mlir
    %op = transform.get_defining_op %v : (!transform.any_value) -> !transform.any_op
    ```

    Return modes: only reads the target. Silenceable failure if a value is a block
    argument.
    """

    name = "transform.get_defining_op"

    target = operand_def(TransformValueHandleType)
    result = result_def(TransformOpHandleType)

    assembly_format = "$target " + _functional()


@irdl_transform_op
class GetTypeOp(IRDLOperation, MatchOpInterface):
    """Parameter holding the types (or `elemental` types) of the payload values.

    ```mlir
    %t = transform.get_type elemental %v : (!transform.any_value) -> !transform.type
    ```

    Return modes: only reads the value handle; never fails.
    """

    name = "transform.get_type"

    value = operand_def(TransformValueHandleType)
    elemental = opt_prop_def(UnitAttr)
    type_param = result_def(TransformParamHandleType)

    assembly_format = "(`elemental` $elemental^)? $value " + _functional()


@irdl_transform_op
class CastOp(IRDLOperation):
    """Re-types a handle; checked when applied.

    ```mlir
    %m = transform.cast %h : !transform.any_op to !transform.op<"linalg.matmul">
    ```

    Return modes: only reads the input. Silenceable failure if a payload op does not fit
    the result type.
    """

    name = "transform.cast"

    input = operand_def(TransformOpHandleType)
    output = result_def(TransformOpHandleType)

    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"

    def __init__(self, input: SSAValue, output_type: Attribute) -> None:
        super().__init__(operands=[input], result_types=[output_type])


@irdl_transform_op
class SelectOp(IRDLOperation):
    """Handle to the payload ops of `target` named `op_name` (order kept).

    ```mlir
    %mm = transform.select "linalg.matmul" in %h : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the target; never fails.
    """

    name = "transform.select"

    op_name = prop_def(StringAttr)
    target = operand_def(TransformOpHandleType)
    result = result_def(TransformOpHandleType)

    assembly_format = "$op_name `in` $target " + _functional()


@irdl_transform_op
class NumAssociationsOp(IRDLOperation, MatchOpInterface):
    """Parameter holding how many payload ops/values/params a handle maps to.

    ```mlir
    %n = transform.num_associations %h : (!transform.any_op) -> !transform.param<i64>
    ```

    Return modes: only reads the handle; never fails.
    """

    name = "transform.num_associations"

    handle = operand_def(TransformHandleType)
    num = result_def(TransformParamHandleType)

    assembly_format = "$handle " + _functional()


@irdl_transform_op
class AnnotateOp(IRDLOperation):
    """Sets attribute `name` on every payload op (unit, or the param's value).

    ```mlir
    transform.annotate %h "tag" = %p : !transform.any_op, !transform.param<i64>
    ```

    Return modes: only reads the handles. Silenceable failure if the param holds neither
    one value nor one per payload op.
    """

    name = "transform.annotate"

    target = operand_def(TransformOpHandleType)
    name_ = prop_def(StringAttr, prop_name="name")
    param = opt_operand_def(TransformParamHandleType)

    assembly_format = (
        "$target $name attr-dict (`=` $param^)? `:` type($target) (`,` type($param)^)?"
    )


@irdl_transform_op
class PrintOp(IRDLOperation, MatchOpInterface):
    """Prints each payload op of `target` (or the whole root) to stdout, after `name`.

    ```mlir
    transform.print %h name = "after tiling" skip_regions : !transform.any_op
    ```

    Return modes: only reads the target; never fails.
    """

    name = "transform.print"

    target = opt_operand_def(TransformOpHandleType)
    name_ = opt_prop_def(StringAttr, prop_name="name")
    assume_verified = opt_prop_def(UnitAttr)
    use_local_scope = opt_prop_def(UnitAttr)
    skip_regions = opt_prop_def(UnitAttr)

    KEYWORDS_ANY_ORDER: ClassVar[bool] = True
    assembly_format = (
        "$target (`name` `=` $name^)? (`assume_verified` $assume_verified^)? "
        "(`use_local_scope` $use_local_scope^)? (`skip_regions` $skip_regions^)? "
        "attr-dict (`:` type($target)^)?"
    )


@irdl_transform_op
class VerifyOp(IRDLOperation):
    """Runs the verifier on each payload op.

    ```mlir
    transform.verify %h : !transform.any_op
    ```

    Return modes: only reads the target. Definite failure if a payload op does not
    verify.
    """

    name = "transform.verify"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` type($target)"


@irdl_transform_op
class ParamConstantOp(IRDLOperation, MatchOpInterface):
    """A parameter holding one attribute (tile sizes; the autotuner's hook).

    ```mlir
    %p = transform.param.constant 64 : i64 -> !transform.param<i64>
    ```

    Return modes: produces the parameter; never fails.
    """

    name = "transform.param.constant"

    value = prop_def(AnyAttr())
    param = result_def(TransformParamHandleType)

    def __init__(self, value: Attribute, param_type: Attribute) -> None:
        super().__init__(properties={"value": value}, result_types=[param_type])

    @classmethod
    def parse(cls, parser: Parser) -> ParamConstantOp:
        value = parser.parse_attribute()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation("->")
        op = cls(value, parser.parse_type())
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_attribute_elided(printer, self.value)
        print_prop_and_attr_dict(printer, self, elided=("value",))
        printer.print_string(" -> ")
        printer.print_attribute(self.param.type)


OPS: tuple[type[IRDLOperation], ...] = (
    AnnotateOp,
    CastOp,
    GetConsumersOfResultOp,
    GetDefiningOp,
    GetOperandOp,
    GetParentOp,
    GetProducerOfOperandOp,
    GetResultOp,
    GetTypeOp,
    MergeHandlesOp,
    NumAssociationsOp,
    ParamConstantOp,
    PrintOp,
    SelectOp,
    SplitHandleOp,
    VerifyOp,
)

__all__ = [
    "OPS",
    "AnnotateOp",
    "CastOp",
    "GetConsumersOfResultOp",
    "GetDefiningOp",
    "GetOperandOp",
    "GetParentOp",
    "GetProducerOfOperandOp",
    "GetResultOp",
    "GetTypeOp",
    "MergeHandlesOp",
    "NumAssociationsOp",
    "ParamConstantOp",
    "PrintOp",
    "SelectOp",
    "SplitHandleOp",
    "VerifyOp",
]
