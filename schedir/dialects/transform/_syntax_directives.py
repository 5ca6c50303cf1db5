"""Format directives several transform ops share: `functional-type` over several variadic
operand groups, dynamic index lists, packed index lists, inner tile alignments."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IntegerType,
    i1,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    FunctionalTypeDirective,
    OperandsDirective,
    OptionalOperandVariable,
    ParsingState,
    PrintingState,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

# --------------------------------------------------------------------------------------
# functional-type(operands, results) with several variadic operand groups.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SegmentedFunctionalTypeDirective(FunctionalTypeDirective):
    """`functional-type(operands, ...)` that splits operand types by the parsed groups."""

    def _parse_suffix(self, parser: Parser, state: ParsingState) -> None:
        if not isinstance(self.operand_typeable_directive, OperandsDirective):
            return super()._parse_suffix(parser, state)
        start = parser.pos
        types = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_type, parser.parse_type
            )
            or []
        )
        _distribute_operand_types(parser, state, types, start)
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("("):
            self.result_typeable_directive.parse_types(parser, state)
            parser.parse_punctuation(")")
        else:
            self.result_typeable_directive.parse_single_type(parser, state)


def _distribute_operand_types(
    parser: Parser, state: ParsingState, types: Sequence[Attribute], start: int
) -> None:
    counts = [len(group) if group is not None else 0 for group in state.operands]
    if sum(counts) != len(types):
        parser.raise_error(
            f"{sum(counts)} operands present, but expected {len(types)}",
            at_position=start,
            end_position=parser.pos,
        )
    offset = 0
    for index, count in enumerate(counts):
        state.operand_types[index] = tuple(types[offset : offset + count])
        offset += count


# --------------------------------------------------------------------------------------
# Custom directives shared by several ops.
# --------------------------------------------------------------------------------------


def parse_dynamic_index_list(
    parser: Parser, *, allow_scalable: bool = False
) -> tuple[list[UnresolvedOperand], list[int], list[bool]]:
    """`[4, %p, [8]]`: static sizes, SSA operands (kDynamic in the static list), scalable."""
    dynamic: list[UnresolvedOperand] = []
    static: list[int] = []
    scalable: list[bool] = []

    def element() -> None:
        is_scalable = allow_scalable and parser.parse_optional_punctuation("[") is not None
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            dynamic.append(operand)
            static.append(DYNAMIC_INDEX)
        else:
            static.append(parser.parse_integer(allow_boolean=False))
        if is_scalable:
            parser.parse_punctuation("]")
        scalable.append(is_scalable)

    parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, element)
    return dynamic, static, scalable


def print_dynamic_index_list(
    printer: Printer,
    dynamic: Sequence[Any],
    static: Sequence[int],
    scalable: Sequence[bool] = (),
) -> None:
    """Print `[4, %p, [8]]`; the inverse of `parse_dynamic_index_list`."""
    printer.print_string("[")
    next_dynamic = 0
    for index, value in enumerate(static):
        if index:
            printer.print_string(", ")
        is_scalable = index < len(scalable) and scalable[index]
        if is_scalable:
            printer.print_string("[")
        if value == DYNAMIC_INDEX:
            printer.print_ssa_value(dynamic[next_dynamic])
            next_dynamic += 1
        else:
            printer.print_int(value)
        if is_scalable:
            printer.print_string("]")
    printer.print_string("]")


def dense_values(attr: Attribute | None) -> tuple[int, ...]:
    """The integers of a dense array property (empty when absent)."""
    if attr is None:
        return ()
    return tuple(cast(DenseArrayBase[IntegerType], attr).get_values())


@irdl_custom_directive
class DynamicIndexList(CustomDirective):
    """Upstream `custom<DynamicIndexList>($dynamic, $static)`: `[4, %p]`."""

    dynamic: VariadicOperandVariable
    static: AttributeVariable

    def is_present(self, op: IRDLOperation) -> bool:
        return bool(self.dynamic.get(op)) or bool(dense_values(self.static.get(op)))

    def is_anchorable(self) -> bool:
        return True

    def parse_optional(self, parser: Parser, state: ParsingState) -> None:
        if parser._current_token.text == "[":  # pyright: ignore[reportPrivateUsage]  # xDSL has no public token peek
            self.parse(parser, state)

    def parse(self, parser: Parser, state: ParsingState) -> None:
        dynamic, static, _ = parse_dynamic_index_list(parser)
        self.dynamic.set(state, dynamic)
        self.static.set(state, DenseArrayBase.from_list(i64, static))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        print_dynamic_index_list(printer, self.dynamic.get(op), dense_values(self.static.get(op)))

    def set_empty(self, state: ParsingState) -> None:
        self.dynamic.set(state, ())


@irdl_custom_directive
class PackedOrDynamicIndexList(CustomDirective):
    """Upstream `custom<PackedOrDynamicIndexList>`: `[4, %p, [8]]` or `*(%handle)`.

    The scalable flags (`[8]`) are kept when the op has a `scalable` property.
    """

    packed: OptionalOperandVariable
    dynamic: VariadicOperandVariable
    static: AttributeVariable
    scalable: AttributeVariable

    def is_present(self, op: IRDLOperation) -> bool:
        return (
            self.packed.get(op) is not None
            or bool(self.dynamic.get(op))
            or bool(dense_values(self.static.get(op)))
        )

    def is_anchorable(self) -> bool:
        return True

    def parse_optional(self, parser: Parser, state: ParsingState) -> None:
        if parser._current_token.text in ("[", "*"):  # pyright: ignore[reportPrivateUsage]  # xDSL has no public token peek
            self.parse(parser, state)

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_punctuation("*") is not None:
            parser.parse_punctuation("(")
            self.packed.set(state, parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
            self.dynamic.set(state, ())
            self.static.set(state, DenseArrayBase.from_list(i64, ()))
            return
        dynamic, static, scalable = parse_dynamic_index_list(parser, allow_scalable=True)
        self.packed.set(state, None)
        self.dynamic.set(state, dynamic)
        self.static.set(state, DenseArrayBase.from_list(i64, static))
        if any(scalable):
            self.scalable.set(state, DenseArrayBase.from_list(i1, [int(s) for s in scalable]))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        packed = self.packed.get(op)
        if packed is not None:
            printer.print_string("*(")
            printer.print_ssa_value(packed)
            printer.print_string(")")
            return
        scalable = tuple(bool(v) for v in dense_values(self.scalable.get(op)))
        print_dynamic_index_list(
            printer, self.dynamic.get(op), dense_values(self.static.get(op)), scalable
        )

    def set_empty(self, state: ParsingState) -> None:
        self.packed.set(state, None)
        self.dynamic.set(state, ())


INNER_TILE_ALIGNMENTS = ("Unknown", "Multiple", "Equal")
"""Upstream `InnerTileAlignment` keywords, by value."""


@irdl_custom_directive
class InnerTileAlignmentArray(CustomDirective):
    """Upstream `custom<InnerTileAlignmentArray>`: `[Unknown, Multiple, Equal]`."""

    alignments: AttributeVariable

    def is_present(self, op: IRDLOperation) -> bool:
        return self.alignments.get(op) is not None

    def is_anchorable(self) -> bool:
        return True

    def parse(self, parser: Parser, state: ParsingState) -> None:
        def entry() -> int:
            start = parser.pos
            keyword = parser.parse_identifier()
            if keyword not in INNER_TILE_ALIGNMENTS:
                parser.raise_error(
                    f"expected one of 'Unknown', 'Multiple' or 'Equal', but got '{keyword}'",
                    at_position=start,
                    end_position=parser.pos,
                )
            return INNER_TILE_ALIGNMENTS.index(keyword)

        values = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, entry)
        self.alignments.set(state, DenseArrayBase.from_list(i64, values))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        values = dense_values(self.alignments.get(op))
        names = [
            INNER_TILE_ALIGNMENTS[v] if 0 <= v < len(INNER_TILE_ALIGNMENTS) else str(v)
            for v in values
        ]
        printer.print_string("[" + ", ".join(names) + "]")


def verify_inner_tile_alignments(attr: Attribute | None) -> None:
    """Upstream `verifyInnerTileAlignments`: each entry is 0, 1 or 2."""
    for value in dense_values(attr):
        if not 0 <= value < len(INNER_TILE_ALIGNMENTS):
            raise VerifyException(
                "expected inner_tile_alignments entries to be one of 0 (Unknown), "
                f"1 (Multiple) or 2 (Equal), but got {value}"
            )
