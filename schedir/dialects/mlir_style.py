"""Printed IR as MLIR's own printer writes it, for tools that are compared with mlir-opt.

xDSL prints an affine expression with parentheses around every binary operation
(`((d0 * 8) + d1)`), the module as `builtin.module`, and affine maps where they are used.
MLIR prints `d0 * 8 + d1` (and `d0 - d1`, `-(d0 * s1)`), `module`, and by default defines
each affine map once at the top (`#map = affine_map<...>`, `#map1`, ...) in the order of
first use, referring to it by name. FileCheck lines of upstream tests match that text, so
`schedir-opt` prints it the same way (`restyle`).

MLIR also drops the dialect prefix of an op whose dialect is the default dialect of the op
holding its region (`OpAsmOpInterface::getDefaultDialect`): in the body of a `func.func`,
`func.call` and `func.return` print as `call` and `return`, but only directly in that body
(an op with regions of its own starts a new, usually empty, default dialect, so a
`func.call` inside an `scf.for` keeps its prefix). `MlirPrinter` prints that way; xDSL's
parser reads both forms. Several results that share a name (or have none) print as one
group, `%0:2 = ...` used as `%0#0` and `%0#1`, as MLIR prints them; the results of ops
whose upstream `getAsmResultNames` names them apart (`%shuffleResult, %valid =
gpu.shuffle`) print one by one.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.dialects.func import FuncOp
from xdsl.dialects.memref import ExtractStridedMetaDataOp
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove

from schedir.dialects.gpu.ids import ShuffleOp
from schedir.dialects.gpu.memory import AllocOp
from schedir.dialects.vector.slices import DeinterleaveOp

_BUILTIN_MODULE = re.compile(r"^(\s*)builtin\.module\b", re.MULTILINE)
_ALIASED = (("affine_map<", "map"), ("affine_set<", "set"))
_SPELLING = {
    "+": " + ",
    "*": " * ",
    "mod": " mod ",
    "floordiv": " floordiv ",
    "ceildiv": " ceildiv ",
}
_KIND = {
    AffineBinaryOpKind.Add: "+",
    AffineBinaryOpKind.Mul: "*",
    AffineBinaryOpKind.Mod: "mod",
    AffineBinaryOpKind.FloorDiv: "floordiv",
    AffineBinaryOpKind.CeilDiv: "ceildiv",
}

_NAMED_APART: tuple[type[Operation], ...] = (
    ShuffleOp,
    DeinterleaveOp,
    AllocOp,
    ExtractStridedMetaDataOp,
)
"""Multi-result ops whose results upstream names one by one (`getAsmResultNames`)."""

_Tree = str | int | tuple[str, "_Tree", "_Tree"]
"""An affine expression: `d0`/`s1`, a constant, or (operator, lhs, rhs)."""


def _tree(expr: AffineExpr) -> _Tree:
    if isinstance(expr, AffineBinaryOpExpr):
        return (_KIND[expr.kind], _tree(expr.lhs), _tree(expr.rhs))
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    return str(expr)


def format_affine_expr(expr: AffineExpr) -> str:
    """An affine expression as MLIR prints it (`printAffineExprInternal`): a binary
    expression inside a tightly binding one is parenthesized, multiplication by -1
    prints as negation, adding a negative constant or product as subtraction."""
    return _format(_tree(expr), strong=False)


def _format(tree: _Tree, strong: bool) -> str:
    if not isinstance(tree, tuple):
        return str(tree)
    kind, lhs, rhs = tree
    if kind != "+":
        if kind == "*" and rhs == -1:
            return _wrap(f"-{_format(lhs, True)}", strong)
        return _wrap(_format(lhs, True) + _SPELLING[kind] + _format(rhs, True), strong)
    if isinstance(rhs, tuple) and rhs[0] == "*" and isinstance(rhs[2], int):
        factor = rhs[2]
        if factor == -1:
            inner = rhs[1]
            inner_strong = isinstance(inner, tuple) and inner[0] == "+"
            return _wrap(f"{_format(lhs, False)} - {_format(inner, inner_strong)}", strong)
        if factor < -1:
            return _wrap(f"{_format(lhs, False)} - {_format(rhs[1], True)} * {-factor}", strong)
    if isinstance(rhs, int) and rhs < 0:
        return _wrap(f"{_format(lhs, False)} - {-rhs}", strong)
    return _wrap(f"{_format(lhs, False)} + {_format(rhs, False)}", strong)


def _wrap(text: str, strong: bool) -> str:
    return f"({text})" if strong else text


def format_affine_map(affine_map: AffineMap) -> str:
    """`(d0, d1)[s0] -> (d0 + s0, d1)`, as MLIR prints an affine map."""
    dims = ", ".join(f"d{i}" for i in range(affine_map.num_dims))
    symbols = ", ".join(f"s{i}" for i in range(affine_map.num_symbols))
    results = ", ".join(format_affine_expr(e) for e in affine_map.results)
    head = f"({dims})" + (f"[{symbols}]" if affine_map.num_symbols else "")
    return f"{head} -> ({results})"


def default_dialect(op: Operation | None) -> str:
    """The dialect whose ops print without their prefix in `op`'s regions (upstream's
    `getDefaultDialect`; among schedir's dialects only `func.func` declares one)."""
    return "func" if isinstance(op, FuncOp) else ""


def printed_name(op: Operation) -> str:
    """`op`'s name as MLIR prints it in custom form: without the prefix of the default
    dialect of its parent, when the name has exactly one dot (so no ambiguity arises)."""
    dialect, _, short = op.name.partition(".")
    if op.name.count(".") == 1 and dialect == default_dialect(op.parent_op()):
        return short
    return op.name


class MlirPrinter(Printer):
    """xDSL's printer with MLIR's default-dialect elision of op names (`printed_name`) and
    result groups (`%0:2`)."""

    def _print_results(self, op: Operation) -> None:
        results = op.results
        hints = {r.name_hint for r in results}
        known = self._ssa_values  # pyright: ignore[reportPrivateUsage]  # xDSL's table of printed names; a group's results are entered as `name#i`
        if (
            len(results) < 2
            or len(hints) != 1
            or isinstance(op, _NAMED_APART)
            or any(r in known for r in results)
        ):
            # Differently named results print one by one, as MLIR does for results its
            # `getAsmResultNames` names apart; a result used before its definition (graph
            # regions) already has its own name.
            super()._print_results(op)  # pyright: ignore[reportPrivateUsage]  # the xDSL step this override refines
            return
        hint = results[0].name_hint
        if hint is None:
            base = self._get_new_valid_name_id()  # pyright: ignore[reportPrivateUsage]  # xDSL's numbering of unnamed values
        else:
            count = self.ssa_names.get(hint, 0)
            base = f"{hint}_{count}" if count else hint
            self.ssa_names[hint] = count + 1
        for i, result in enumerate(results):
            known[result] = f"{base}#{i}"
        self.print_string(f"%{base}:{len(results)} = ")

    def print_op(self, op: Operation) -> None:
        """As `Printer.print_op`, with the op's name in custom form as MLIR prints it."""
        custom = not (
            isinstance(op, UnregisteredOp)
            or self.print_generic_format
            or Operation.print is type(op).print
        )
        if not custom or printed_name(op) == op.name:
            super().print_op(op)
            return
        scope = bool(op.get_traits_of_type(IsolatedFromAbove))
        begin = self._current_column  # pyright: ignore[reportPrivateUsage]  # xDSL's print_op marks diagnostics by column; this override keeps that
        self._print_results(op)  # pyright: ignore[reportPrivateUsage]  # the one step of xDSL's print_op before the op name
        if scope:
            self.enter_scope()
        self.print_string(printed_name(op))
        end = self._current_column  # pyright: ignore[reportPrivateUsage]  # as above
        for message in self.diagnostic.op_messages.get(op, ()):
            self._add_message_on_next_line(message, begin, end)  # pyright: ignore[reportPrivateUsage]  # as in xDSL's print_op
        op.print(self)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)
        if scope:
            self.exit_scope()


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
    """An `affine_map<...>` as MLIR prints it (other attributes as they are).

    xDSL prints every binary expression in parentheses, so the text parses back into the
    expression tree without precedence rules; text of any other shape stays as it is.
    """
    match = _XDSL_MAP.fullmatch(attr_text)
    if match is None:
        return attr_text
    try:
        results = [_format(r, strong=False) for r in _parse_results(match["results"])]
    except ValueError:
        return attr_text
    return f"affine_map<{match['head']} -> ({', '.join(results)})>"


_XDSL_MAP = re.compile(r"affine_map<(?P<head>\([^()]*\)(?:\[[^\[\]]*\])?) -> \((?P<results>.*)\)>")
_TOKEN = re.compile(r"\s*(\(|\)|,|[ds]\d+|-?\d+|\+|\*|mod\b|floordiv\b|ceildiv\b)")


def _parse_results(text: str) -> list[_Tree]:
    """The result expressions of xDSL's printed map (`((d0 * 8) + d1), s0`)."""
    tokens: list[str] = []
    index = 0
    while index < len(text):
        match = _TOKEN.match(text, index)
        if match is None:
            if text[index:].strip():
                raise ValueError(text)
            break
        tokens.append(match.group(1))
        index = match.end()
    results: list[_Tree] = []
    position = 0
    while position < len(tokens):
        tree, position = _parse_expr(tokens, position)
        results.append(tree)
        if position < len(tokens):
            if tokens[position] != ",":
                raise ValueError(text)
            position += 1
    return results


def _parse_expr(tokens: list[str], position: int) -> tuple[_Tree, int]:
    if position >= len(tokens):
        raise ValueError("end of expression")
    token = tokens[position]
    if token == "(":
        lhs, position = _parse_expr(tokens, position + 1)
        if position >= len(tokens) or tokens[position] not in _SPELLING:
            raise ValueError("operator expected")
        kind = tokens[position]
        rhs, position = _parse_expr(tokens, position + 1)
        if position >= len(tokens) or tokens[position] != ")":
            raise ValueError("')' expected")
        return (kind, lhs, rhs), position + 1
    if token[0] in "ds":
        return token, position + 1
    if token.lstrip("-").isdigit():
        return int(token), position + 1
    raise ValueError(token)


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
