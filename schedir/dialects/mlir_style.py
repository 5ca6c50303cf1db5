"""Printed IR as MLIR's own printer writes it, for tools that are compared with mlir-opt.

xDSL prints an affine expression with parentheses around every binary operation
(`((d0 * 8) + d1)`), the module as `builtin.module`, and affine maps where they are used.
MLIR prints `d0 * 8 + d1` (and `d0 - d1`, `-(d0 * s1)`), `module`, and by default defines
each affine map once at the top (`#map = affine_map<...>`, `#map1`, ...) in the order of
first use, referring to it by name. FileCheck lines of upstream tests match that text, so
`schedir-opt` prints it the same way (`restyle`).
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from schedir.dialects.context import get_context

_BUILTIN_MODULE = re.compile(r"^(\s*)builtin\.module\b", re.MULTILINE)
_ALIASED = (("affine_map<", "map"), ("affine_set<", "set"))
_SPELLING = {
    AffineBinaryOpKind.Add: " + ",
    AffineBinaryOpKind.Mul: " * ",
    AffineBinaryOpKind.Mod: " mod ",
    AffineBinaryOpKind.FloorDiv: " floordiv ",
    AffineBinaryOpKind.CeilDiv: " ceildiv ",
}


def format_affine_expr(expr: AffineExpr, strong: bool = False) -> str:
    """An affine expression as MLIR prints it (`printAffineExprInternal`).

    `strong` says the enclosing operator binds tightly: a binary expression inside one
    is parenthesized. Multiplication by -1 prints as negation, adding a negative constant
    or a product with a negative constant as subtraction.
    """
    if not isinstance(expr, AffineBinaryOpExpr):
        return str(expr)
    lhs, rhs = expr.lhs, expr.rhs
    if expr.kind != AffineBinaryOpKind.Add:
        if isinstance(rhs, AffineConstantExpr) and expr.kind == AffineBinaryOpKind.Mul:
            if rhs.value == -1:
                return _wrap(f"-{format_affine_expr(lhs, True)}", strong)
        text = format_affine_expr(lhs, True) + _SPELLING[expr.kind] + format_affine_expr(rhs, True)
        return _wrap(text, strong)
    if (
        isinstance(rhs, AffineBinaryOpExpr)
        and rhs.kind == AffineBinaryOpKind.Mul
        and isinstance(rhs.rhs, AffineConstantExpr)
    ):
        factor = rhs.rhs.value
        if factor == -1:
            inner_strong = isinstance(rhs.lhs, AffineBinaryOpExpr) and (
                rhs.lhs.kind == AffineBinaryOpKind.Add
            )
            text = f"{format_affine_expr(lhs)} - {format_affine_expr(rhs.lhs, inner_strong)}"
            return _wrap(text, strong)
        if factor < -1:
            text = f"{format_affine_expr(lhs)} - {format_affine_expr(rhs.lhs, True)} * {-factor}"
            return _wrap(text, strong)
    if isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
        return _wrap(f"{format_affine_expr(lhs)} - {-rhs.value}", strong)
    return _wrap(f"{format_affine_expr(lhs)} + {format_affine_expr(rhs)}", strong)


def _wrap(text: str, strong: bool) -> str:
    return f"({text})" if strong else text


def format_affine_map(affine_map: AffineMap) -> str:
    """`(d0, d1)[s0] -> (d0 + s0, d1)`, as MLIR prints an affine map."""
    dims = ", ".join(f"d{i}" for i in range(affine_map.num_dims))
    symbols = ", ".join(f"s{i}" for i in range(affine_map.num_symbols))
    results = ", ".join(format_affine_expr(e) for e in affine_map.results)
    head = f"({dims})" + (f"[{symbols}]" if affine_map.num_symbols else "")
    return f"{head} -> ({results})"


def restyle(text: str, *, aliases: bool = True) -> str:
    """Printed IR (xDSL's text) as MLIR prints it: affine expressions, `module`, and with
    `aliases` the `#map`/`#set` aliases (string literals are left alone)."""
    text = _BUILTIN_MODULE.sub(r"\1module", text)
    names: dict[str, str] = {}
    counts: dict[str, int] = {}
    out: list[str] = []
    index = 0
    in_string = False
    while index < len(text):
        char = text[index]
        if in_string:
            out.append(char)
            if char == "\\":
                out.append(text[index + 1 : index + 2])
                index += 2
                continue
            in_string = char != '"'
            index += 1
            continue
        if char == '"':
            in_string = True
            out.append(char)
            index += 1
            continue
        kind = next((k for k in _ALIASED if text.startswith(k[0], index)), None)
        if kind is None or (index > 0 and (text[index - 1].isalnum() or text[index - 1] in "_#")):
            out.append(char)
            index += 1
            continue
        end = _matching_angle(text, index + len(kind[0]) - 1)
        if end is None:
            out.append(char)
            index += 1
            continue
        attr = _mlir_attribute_text(text[index : end + 1])
        index = end + 1
        if not aliases:
            out.append(attr)
            continue
        if attr not in names:
            count = counts.get(kind[1], 0)
            counts[kind[1]] = count + 1
            names[attr] = f"#{kind[1]}{count if count else ''}"
        out.append(names[attr])
    header = "".join(f"{name} = {attr}\n" for attr, name in names.items())
    return header + "".join(out)


def _mlir_attribute_text(attr_text: str) -> str:
    """An `affine_map<...>` as MLIR prints it (other attributes as they are)."""
    if not attr_text.startswith("affine_map<"):
        return attr_text
    try:
        attr = Parser(get_context(), attr_text).parse_attribute()
    except ParseError:
        return attr_text
    if not isinstance(attr, AffineMapAttr):
        return attr_text
    return f"affine_map<{format_affine_map(attr.data)}>"


def _matching_angle(text: str, start: int) -> int | None:
    """The index of the `>` closing the `<` at `start` (arrows `->` are not brackets)."""
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char == "<":
            depth += 1
        elif char == ">" and text[index - 1] != "-":
            depth -= 1
            if depth == 0:
                return index
        elif char == "\n":
            return None
        index += 1
    return None


__all__ = ["format_affine_expr", "format_affine_map", "restyle"]
