"""The core matcher predicates (upstream TransformOps.td): `match.operation_name`,
`match.operation_empty` and `match.param.cmpi`. `structured.match` is in
`structured/match.py`, the `match.structured` family in `match_structured.py`.

Matchers only read their handles; a silenceable failure means "does not match" (used by
`foreach_match` and `collect_matching`).

Applied by `schedir.transform.ops.core.match`.
"""

from __future__ import annotations

from enum import IntEnum

from xdsl.dialects.builtin import I32, ArrayAttr, IntegerAttr, StringAttr, i32
from xdsl.dialects.transform import TransformOpHandleType, TransformParamHandleType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    prop_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)
from schedir.dialects.transform.interfaces import MatchOpInterface


@irdl_transform_op
class MatchOperationNameOp(IRDLOperation, MatchOpInterface):
    """Matcher: succeeds if every payload op has one of the names.

    ```mlir
    transform.match.operation_name %h ["linalg.matmul", "linalg.fill"] : !transform.any_op
    ```

    Return modes: only reads the handle. Definite failure unless it holds exactly one
    payload op; silenceable failure (no match) if the name is not listed.
    """

    name = "transform.match.operation_name"

    operand_handle = operand_def(TransformOpHandleType)
    op_names = prop_def(ArrayAttr[StringAttr])

    assembly_format = "$operand_handle $op_names attr-dict `:` type($operand_handle)"


@irdl_transform_op
class MatchOperationEmptyOp(IRDLOperation, MatchOpInterface):
    """Matcher: succeeds if the handle is empty.

    ```mlir
    transform.match.operation_empty %h : !transform.any_op
    ```

    Return modes: only reads the handle. Definite failure if it holds more than one payload
    op; silenceable failure (no match) if it holds one.
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
class MatchParamCmpIOp(IRDLOperation, MatchOpInterface):
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


OPS: tuple[type[IRDLOperation], ...] = (
    MatchOperationEmptyOp,
    MatchOperationNameOp,
    MatchParamCmpIOp,
)

__all__ = [
    "OPS",
    "MatchCmpIPredicate",
    "MatchOperationEmptyOp",
    "MatchOperationNameOp",
    "MatchParamCmpIOp",
]
