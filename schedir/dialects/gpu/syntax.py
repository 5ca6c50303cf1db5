"""The gpu dialect's shared syntax pieces: async tokens, memory attributions, `#gpu.dim`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.dialects import gpu as xgpu
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    BlockArgument,
    SSAValue,
)
from xdsl.irdl import (
    irdl_attr_definition,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

AsyncTokenType = xgpu.AsyncTokenType
DimensionEnum = xgpu.DimensionEnum
INDEX = IndexType()
DIMS = ("x", "y", "z")


_E = TypeVar("_E", bound=StrEnum)


def parse_enum_parameter(parser: AttrParser, enum: type[_E]) -> _E:
    # `#gpu.dim<x>` is upstream's spelling since LLVM 23; the older opaque `#gpu<dim x>`
    # reaches here after the mnemonic, with the keyword next (its `>` is the caller's).
    if parser.parse_optional_punctuation("<") is None:
        return parser.parse_str_enum(enum)
    value = parser.parse_str_enum(enum)
    parser.parse_punctuation(">")
    return value


@irdl_attr_definition
class DimensionAttr(EnumAttribute[DimensionEnum]):
    """`#gpu.dim<x>`: the dimension property of gpu.thread_id and its siblings
    (`#gpu<dim x>` is accepted too)."""

    name = "gpu.dim"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DimensionEnum:
        return parse_enum_parameter(parser, DimensionEnum)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


def dimension(name: str) -> DimensionAttr:
    """`#gpu.dim<x>` for "x", "y" or "z"."""
    return DimensionAttr(DimensionEnum(name))


# ---------------------------------------------------------------------------------------
# shared syntax pieces


def parse_async(parser: Parser) -> tuple[bool, list[SSAValue]]:
    """`async`? `[` deps `]`? : upstream's parseAsyncDependencies."""
    is_async = parser.parse_optional_keyword("async") is not None
    deps: list[SSAValue] = []
    if (
        parser.parse_optional_punctuation("[") is not None
        and parser.parse_optional_punctuation("]") is None
    ):
        deps.append(parser.parse_operand(AsyncTokenType()))
        while parser.parse_optional_punctuation(",") is not None:
            deps.append(parser.parse_operand(AsyncTokenType()))
        parser.parse_punctuation("]")
    return is_async, deps


def print_async(printer: Printer, is_async: bool, deps: Sequence[SSAValue]) -> None:
    if is_async:
        printer.print_string(" async")
    if deps:
        printer.print_string(" [")
        printer.print_list(deps, printer.print_ssa_value)
        printer.print_string("]")


def parse_async_object(parser: Parser) -> list[SSAValue]:
    """`<` %stream `:` type `>`, or nothing (upstream's optional asyncObject operand)."""
    if parser.parse_optional_punctuation("<") is None:
        return []
    unresolved = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    value = parser.resolve_operand(unresolved, parser.parse_type())
    parser.parse_punctuation(">")
    return [value]


def print_async_object(printer: Printer, value: SSAValue | None) -> None:
    if value is not None:
        printer.print_string(" <")
        printer.print_ssa_value(value)
        printer.print_string(" : ")
        printer.print_attribute(value.type)
        printer.print_string(">")


def verify_async_models(name: str, async_object: SSAValue | None, deps: Sequence[SSAValue]) -> None:
    if async_object is not None and deps:
        raise VerifyException(
            f"'{name}' op stream-based and dependency-based async models are mutually exclusive"
        )


def parse_attributions(parser: Parser, keyword: str) -> list[Parser.Argument]:
    """`workgroup(%a : t, ...)` / `private(...)`, or nothing."""
    if parser.parse_optional_keyword(keyword) is None:
        return []

    def one() -> Parser.Argument:
        arg = parser.parse_argument(expect_type=False)
        parser.parse_punctuation(":")
        return arg.resolve(parser.parse_type())

    return parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)


def print_attributions(printer: Printer, keyword: str, args: Sequence[BlockArgument]) -> None:
    if not args:
        return
    printer.print_string(f" {keyword}(")
    printer.print_list(
        args,
        lambda a: (
            printer.print_ssa_value(a),
            printer.print_string(" : "),
            printer.print_attribute(a.type),
        ),
    )
    printer.print_string(")")


_SPACE_NUMBERS = {"workgroup": 3, "private": 5}


def verify_attributions(args: Sequence[BlockArgument], space: str) -> None:
    """Attributions are memrefs in their memory space (`#gpu.address_space<...>` or its number)."""
    for arg in args:
        t = arg.type
        if not isinstance(t, MemRefType):
            raise VerifyException(f"expected memref type in attribution, got {t}")
        memory_space = t.memory_space
        number = memory_space.value.data if isinstance(memory_space, IntegerAttr) else None
        if f"<{space}>" not in str(memory_space) and number != _SPACE_NUMBERS[space]:
            raise VerifyException(f"expected memory space {space} in attribution")
