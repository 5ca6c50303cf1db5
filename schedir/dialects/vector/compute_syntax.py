"""Shared syntax of the vector compute ops: the combining kind and the fastmath flags."""

from __future__ import annotations

from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.ir import Attribute
from xdsl.parser import Parser

from schedir.dialects.vector.attributes import CombiningKindAttr, make_kind, no_fastmath


def parse_kind(parser: Parser) -> CombiningKindAttr:
    """`<add>` (as declarative formats print the enum) or `#vector.kind<add>`."""
    if parser.parse_optional_punctuation("<") is not None:
        name = parser.parse_identifier()
        parser.parse_punctuation(">")
        try:
            return make_kind(name)
        except ValueError:
            parser.raise_error(f"expected a vector.kind, got '{name}'")
    attr = parser.parse_attribute()
    if not isinstance(attr, CombiningKindAttr):
        parser.raise_error("expected a #vector.kind attribute")
    return attr


def parse_fastmath(parser: Parser) -> FastMathFlagsAttr | None:
    """`fastmath<reassoc,nnan>` after the operands (declarative-format spelling)."""
    if not parser.parse_optional_keyword("fastmath"):
        return None
    return FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))


def is_default_fastmath(attr: Attribute | None) -> bool:
    return attr is None or attr == no_fastmath()
