"""Syntax the llvm ops share: type aliases, operand constraints, upstream's fastmath flags."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import llvm as _x
from xdsl.dialects.builtin import (
    I1,
    AnyFloatConstr,
    IntegerType,
    Signedness,
    SignlessIntegerConstraint,
    VectorType,
)
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import irdl_to_attr_constraint
from xdsl.parser import Parser, UnresolvedOperand
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
BOOL_OR_VECTOR = irdl_to_attr_constraint(I1) | VectorType.constr(I1)


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


# Upstream's call-like intrinsic syntax: `llvm.intr.x(%a, %b) <modifiers> {attrs} : (A, B) -> R`.


def print_intrinsic_call(
    printer: Printer,
    op: Operation,
    operands: Sequence[SSAValue],
    print_modifiers: Callable[[], None],
) -> None:
    """`(%a, %b)`, the op's modifiers (fastmath, alignment), its attributes and its
    functional type."""
    printer.print_string("(")
    printer.print_list(operands, printer.print_ssa_value)
    printer.print_string(")")
    print_modifiers()
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_function_type([o.type for o in operands], [r.type for r in op.results])


def parse_intrinsic_operands(parser: Parser) -> list[UnresolvedOperand]:
    """The parenthesized operand list of a call-like intrinsic."""
    return parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )


def parse_intrinsic_signature(
    parser: Parser, names: Sequence[UnresolvedOperand]
) -> tuple[list[SSAValue], list[Attribute]]:
    """`: (A, B) -> R`: the operands resolved at their types, and the result types."""
    parser.parse_punctuation(":")
    ftype = parser.parse_function_type()
    operands = parser.resolve_operands(names, ftype.inputs.data, parser.pos)
    return list(operands), list(ftype.outputs.data)
