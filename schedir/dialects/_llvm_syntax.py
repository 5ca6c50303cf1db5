"""Syntax the llvm ops share: type aliases, operand constraints, upstream's fastmath flags."""

from __future__ import annotations

from xdsl.dialects import llvm as _x
from xdsl.dialects.builtin import (
    AnyFloatConstr,
    IntegerType,
    Signedness,
    SignlessIntegerConstraint,
    VectorType,
)
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.hints import isa

LLVMPointerType = _x.LLVMPointerType
LLVMStructType = _x.LLVMStructType
LLVMArrayType = _x.LLVMArrayType
LLVMVoidType = _x.LLVMVoidType
LLVMFunctionType = _x.LLVMFunctionType
FastMathAttr = _x.FastMathAttr

FLOAT_OR_VECTOR = AnyFloatConstr | VectorType.constr(AnyFloatConstr)
INT_OR_VECTOR = SignlessIntegerConstraint | VectorType.constr(SignlessIntegerConstraint)


# Upstream prints fastmath flags as a keyword after the operands (`llvm.fadd %a, %b
# fastmath<fast> : f32`) and rejects them in the attribute dictionary.

_FASTMATH_ORDER = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
"""Upstream's FastmathFlags in bit order, the order it prints them in."""


def print_fastmath(printer: Printer, attr: FastMathAttr) -> None:
    """` fastmath<flags>` (nothing without flags; `fast` for all of them)."""
    names = {f.value for f in attr.data}
    if not names:
        return
    words = (
        ["fast"] if names == set(_FASTMATH_ORDER) else [n for n in _FASTMATH_ORDER if n in names]
    )
    printer.print_string(f" fastmath<{', '.join(words)}>")


def parse_fastmath(parser: Parser) -> FastMathAttr | None:
    """An optional `fastmath<flags>` keyword form."""
    if parser.parse_optional_keyword("fastmath") is None:
        return None
    parser.parse_punctuation("<")
    names: set[str] = set()
    while True:
        word = parser.parse_identifier()
        if word == "fast":
            names |= set(_FASTMATH_ORDER)
        elif word != "none":
            if word not in _FASTMATH_ORDER:
                parser.raise_error(f"unknown fastmath flag '{word}'")
            names.add(word)
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation(">")
    return FastMathAttr([FastMathFlag(n) for n in names])


def fastmath_from(attrs: dict[str, Attribute], parsed: FastMathAttr | None) -> FastMathAttr:
    """The keyword form, else a legacy `{fastmathFlags = ...}` entry, else none."""
    legacy = attrs.pop("fastmathFlags", None)
    if parsed is not None:
        return parsed
    return legacy if isinstance(legacy, FastMathAttr) else FastMathAttr(None)


def is_signless_int(t: Attribute) -> bool:
    """Whether `t` is a signless integer type (what LLVM integers are)."""
    return isa(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS
