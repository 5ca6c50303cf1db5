"""Core transform ops on handles and parameters (upstream TransformOps.td).

Splitting, merging and navigating handles (`split_handle`, `merge_handles`,
`get_parent_op`, `get_producer_of_operand`, `get_consumers_of_result`, `get_result`,
`get_operand`, `get_defining_op`, `get_type`), re-typing and filtering (`cast`,
`select`, `num_associations`), payload side effects for debugging
(`annotate`, `print`, `verify`), parameters (`param.constant`) and the core matcher
predicates (`match.operation_name`, `match.operation_empty`, `match.param.cmpi`).
All of them only read their operands.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    I64,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i1,
    i32,
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

from schedir.dialects.transform._syntax import dense_values, irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)

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
class MergeHandlesOp(IRDLOperation):
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

    def verify_(self) -> None:
        if not self.handles:
            raise VerifyException("expected 1 or more operands, but found 0")


@irdl_transform_op
class GetParentOp(IRDLOperation):
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
class GetProducerOfOperandOp(IRDLOperation):
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

    Return modes: only reads the target. Definite failure unless the handle holds
    exactly one payload op; silenceable if it has no such result.
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
        props = _parse_positions(parser)
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
        values = ", ".join(str(v) for v in dense_values(self.raw_position_list))
        if self.is_all is not None:
            printer.print_string("[all]")
        elif self.is_inverted is not None:
            printer.print_string(f"[except({values})]")
        else:
            printer.print_string(f"[{values}]")
        print_prop_and_attr_dict(
            printer, self, elided=("raw_position_list", "is_inverted", "is_all")
        )
        printer.print_string(" : (")
        printer.print_attribute(self.target.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        values = dense_values(self.raw_position_list)
        if self.is_all is not None and self.is_inverted is not None:
            raise VerifyException("cannot request both 'all' and 'inverted' values in the list")
        if self.is_all is not None and values:
            raise VerifyException("cannot both request 'all' and specific values in the list")
        if self.is_all is None and not values:
            raise VerifyException("must request specific values in the list if 'all' is not set")
        if len(set(values)) != len(values):
            raise VerifyException("expected the listed values to be unique")


def _parse_positions(parser: Parser) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {}
    parser.parse_punctuation("[")
    values: list[int] = []
    if parser.parse_optional_keyword("all") is not None:
        props["is_all"] = UnitAttr()
    else:
        inverted = parser.parse_optional_keyword("except") is not None
        if inverted:
            props["is_inverted"] = UnitAttr()
            parser.parse_punctuation("(")
        values = (
            parser.parse_optional_undelimited_comma_separated_list(
                lambda: parser.parse_optional_integer(allow_boolean=False),
                lambda: parser.parse_integer(allow_boolean=False),
            )
            or []
        )
        if inverted:
            parser.parse_punctuation(")")
    parser.parse_punctuation("]")
    props["raw_position_list"] = DenseArrayBase.from_list(i64, values)
    return props


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
class GetOperandOp(_ValueGetter):
    """Value handle to the listed operands of each payload op (`[all]`, `[except(..)]`).

    ```mlir
    %v = transform.get_operand %h[all] : (!transform.any_op) -> !transform.any_value
    ```

    Return modes: only reads the target. Silenceable failure if a position is out of
    range for some payload op.
    """

    name = "transform.get_operand"


@irdl_transform_op
class GetDefiningOp(IRDLOperation):
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
class GetTypeOp(IRDLOperation):
    """Parameter holding the types (or `elemental` types) of the payload values.

    ```mlir
    %t = transform.get_type elemental %v : (!transform.any_value) -> !transform.type
    ```

    Return modes: only reads the value handle. Silenceable failure if `elemental` is
    set and a value is not of shaped type.
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
class NumAssociationsOp(IRDLOperation):
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
class PrintOp(IRDLOperation):
    """Dumps each payload op of `target` (or the whole root) to stderr, after `name`.

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
class ParamConstantOp(IRDLOperation):
    """A parameter holding one attribute (tile sizes; the autotuner's hook).

    ```mlir
    %p = transform.param.constant 64 : i64 -> !transform.param<i64>
    ```

    Return modes: produces the parameter; never fails.
    """

    name = "transform.param.constant"

    value = prop_def(AnyAttr())
    param = result_def(TransformParamHandleType)

    assembly_format = "$value attr-dict `->` type($param)"

    def __init__(self, value: Attribute, param_type: Attribute) -> None:
        super().__init__(properties={"value": value}, result_types=[param_type])


@irdl_transform_op
class MatchOperationNameOp(IRDLOperation):
    """Matcher: succeeds if every payload op has one of the names.

    ```mlir
    transform.match.operation_name %h ["linalg.matmul", "linalg.fill"] : !transform.any_op
    ```

    Return modes: only reads the handle. Silenceable failure (no match) otherwise.
    """

    name = "transform.match.operation_name"

    operand_handle = operand_def(TransformOpHandleType)
    op_names = prop_def(ArrayAttr[StringAttr])

    assembly_format = "$operand_handle $op_names attr-dict `:` type($operand_handle)"


@irdl_transform_op
class MatchOperationEmptyOp(IRDLOperation):
    """Matcher: succeeds if the handle is empty.

    ```mlir
    transform.match.operation_empty %h : !transform.any_op
    ```

    Return modes: only reads the handle. Silenceable failure (no match) otherwise.
    """

    name = "transform.match.operation_empty"

    operand_handle = operand_def(TransformOpHandleType)

    assembly_format = "$operand_handle attr-dict `:` type($operand_handle)"


class MatchCmpIPredicate(IntEnum):
    """Upstream `MatchCmpIPredicate` (stored as `i32`)."""

    EQ = 0
    NE = 1
    LT = 2
    LE = 3
    GT = 4
    GE = 5


@irdl_transform_op
class MatchParamCmpIOp(IRDLOperation):
    """Matcher: compares each value of `param` with the (single or co-indexed)
    `reference` value.

    ```mlir
    transform.match.param.cmpi ge %d0, %min : !transform.param<i64>
    ```

    Return modes: only reads the params. Silenceable failure if a comparison is false
    or the counts do not fit; definite if the values are not integers.
    """

    name = "transform.match.param.cmpi"

    param = operand_def(TransformParamHandleType)
    reference = operand_def(TransformParamHandleType)
    predicate = prop_def(IntegerAttr[I32])

    def __init__(self, predicate: MatchCmpIPredicate, param: SSAValue, reference: SSAValue) -> None:
        super().__init__(
            operands=[param, reference],
            properties={"predicate": IntegerAttr(int(predicate), i32)},
        )

    @property
    def cmp(self) -> MatchCmpIPredicate:
        """The comparison predicate."""
        return MatchCmpIPredicate(self.predicate.value.data)

    @classmethod
    def parse(cls, parser: Parser) -> MatchParamCmpIOp:
        start = parser.pos
        word = parser.parse_identifier()
        if word.upper() not in MatchCmpIPredicate.__members__:
            parser.raise_error(
                f"expected one of [eq, ne, lt, le, gt, ge] for match predicate, got '{word}'",
                at_position=start,
                end_position=parser.pos,
            )
        param = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        reference = parser.parse_unresolved_operand()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        op = cls(
            MatchCmpIPredicate[word.upper()],
            parser.resolve_operand(param, type_),
            parser.resolve_operand(reference, type_),
        )
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        value = self.predicate.value.data
        word = MatchCmpIPredicate(value).name.lower() if 0 <= value <= 5 else str(value)
        printer.print_string(f" {word} ")
        printer.print_ssa_value(self.param)
        printer.print_string(", ")
        printer.print_ssa_value(self.reference)
        print_prop_and_attr_dict(printer, self, elided=("predicate",))
        printer.print_string(" : ")
        printer.print_attribute(self.param.type)

    def verify_(self) -> None:
        if not 0 <= self.predicate.value.data <= 5:
            raise VerifyException(
                "attribute 'predicate' failed to satisfy constraint: allowed 32-bit "
                "signless integer cases: 0, 1, 2, 3, 4, 5"
            )
        if self.param.type != self.reference.type:
            raise VerifyException("failed to verify that all of {param, reference} have same type")


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
    MatchOperationEmptyOp,
    MatchOperationNameOp,
    MatchParamCmpIOp,
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
    "MatchCmpIPredicate",
    "MatchOperationEmptyOp",
    "MatchOperationNameOp",
    "MatchParamCmpIOp",
    "MergeHandlesOp",
    "NumAssociationsOp",
    "ParamConstantOp",
    "PrintOp",
    "SelectOp",
    "SplitHandleOp",
    "VerifyOp",
]
