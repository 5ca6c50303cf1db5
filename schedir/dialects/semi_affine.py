"""Semi-affine expressions: products of symbolic terms, and `floordiv`, `ceildiv`, `mod` by
a symbolic term, as upstream MLIR allows them in affine maps.

xDSL's `AffineExpr` stores any binary expression but its operators refuse a product or a
division whose operands are not constants (`NotImplementedError`), so its parser rejects
`affine_map<()[s0, s1] -> (s0 * s1)>` and `(d0 mod s0)`, which upstream parses. Upstream's
rules (mlir/lib/AsmParser/AffineParser.cpp): one factor of a product must be symbolic (no
dimensions) or constant; the divisor of `floordiv`, `ceildiv` and `mod` must be symbolic or
constant. `binary` builds such an expression as upstream's `AffineExpr` operators do: a
constant folds, and the symbolic factor of a product goes to the right (`s0 * (d0
floordiv s0)` is `(d0 floordiv s0) * s0`). `SemiAffineParser` is xDSL's affine parser
with those rules.

Semantics (MLIR's, for a positive divisor): `floordiv` rounds toward negative infinity,
`ceildiv` toward positive infinity, `mod` is non-negative (Python's `//`, `-(-a // b)`,
`%`), which is how `AffineExpr.eval` and the lower-affine pass compute them. Code that
cannot reason about a semi-affine expression (xDSL's `simplify`, its composition through
the operators) raises `NotImplementedError`, and schedir's folders then leave the op alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRToken

_KINDS = {
    "*": AffineBinaryOpKind.Mul,
    "floordiv": AffineBinaryOpKind.FloorDiv,
    "ceildiv": AffineBinaryOpKind.CeilDiv,
    "mod": AffineBinaryOpKind.Mod,
}


class SemiAffineError(ValueError):
    """An expression that is not even semi-affine (upstream's parser message)."""


def is_symbolic_or_constant(expr: AffineExpr) -> bool:
    """Upstream's `isSymbolicOrConstant`: no dimension occurs in `expr`."""
    return not expr.used_dims()


def binary(kind: AffineBinaryOpKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs <kind> rhs`, semi-affine where needed (see the module docstring)."""
    try:
        match kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
            case AffineBinaryOpKind.FloorDiv:
                return lhs // rhs
            case AffineBinaryOpKind.CeilDiv:
                return lhs.ceil_div(rhs)
            case AffineBinaryOpKind.Mod:
                return lhs % rhs
    except NotImplementedError:
        pass
    if kind == AffineBinaryOpKind.Mul:
        if is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs):
            lhs, rhs = rhs, lhs
        if not is_symbolic_or_constant(rhs):
            raise SemiAffineError(
                "non-affine expression: at least one of the multiply operands has to be "
                "either a constant or symbolic"
            )
    elif not is_symbolic_or_constant(rhs):
        raise SemiAffineError(
            f"non-affine expression: right operand of {_token(kind)} has to be either a "
            "constant or symbolic"
        )
    return AffineBinaryOpExpr(kind, lhs, rhs)


def substitute(
    expr: AffineExpr, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr]
) -> AffineExpr:
    """`expr` with its dimensions and symbols replaced (composition), semi-affine results
    kept (xDSL's `replace_dims_and_symbols` refuses them)."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = substitute(expr.lhs, dims, symbols)
        return binary(expr.kind, lhs, substitute(expr.rhs, dims, symbols))
    return expr


def _token(kind: AffineBinaryOpKind) -> str:
    return kind.get_token()


_Monomial = tuple[object, ...]
"""A product of atoms (sorted by text): `("s", 1)`, `("d", 0)`, or a quotient atom."""


def _polynomial(expr: AffineExpr) -> dict[_Monomial, int]:
    """`expr` as a polynomial over its symbols, dimensions and quotients, with every
    `a mod b` written as `a - b * (a floordiv b)` (MLIR's definition of mod)."""
    if isinstance(expr, AffineConstantExpr):
        return {(): expr.value} if expr.value else {}
    if isinstance(expr, AffineSymExpr):
        return {(("s", expr.position),): 1}
    if isinstance(expr, AffineDimExpr):
        return {(("d", expr.position),): 1}
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = _polynomial(expr.lhs), _polynomial(expr.rhs)
    match expr.kind:
        case AffineBinaryOpKind.Add:
            return _sum(lhs, rhs, 1)
        case AffineBinaryOpKind.Mul:
            return _product(lhs, rhs)
        case AffineBinaryOpKind.Mod:
            quotient: dict[_Monomial, int] = {(("floordiv", _key(lhs), _key(rhs)),): 1}
            return _sum(lhs, _product(rhs, quotient), -1)
        case AffineBinaryOpKind.FloorDiv | AffineBinaryOpKind.CeilDiv:
            return {((expr.kind.get_token(), _key(lhs), _key(rhs)),): 1}


def _key(poly: dict[_Monomial, int]) -> tuple[object, ...]:
    return tuple(sorted(poly.items(), key=repr))


def _sum(a: dict[_Monomial, int], b: dict[_Monomial, int], sign: int) -> dict[_Monomial, int]:
    out = dict(a)
    for monomial, coefficient in b.items():
        out[monomial] = out.get(monomial, 0) + sign * coefficient
    return {m: c for m, c in out.items() if c}


def _product(a: dict[_Monomial, int], b: dict[_Monomial, int]) -> dict[_Monomial, int]:
    out: dict[_Monomial, int] = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            monomial = tuple(sorted((*ma, *mb), key=repr))
            out[monomial] = out.get(monomial, 0) + ca * cb
    return {m: c for m, c in out.items() if c}


def is_multiple_of(expr: AffineExpr, divisor: AffineExpr) -> bool:
    """Whether `expr` is provably a multiple of `divisor` (a constant or one symbol, taken
    positive) for every value of its operands: each term of its polynomial (`mod`
    expanded) is a multiple of the constant, or has the symbol as a factor. `False` means
    not proven, as upstream's simplification of `(ub - lb) mod step` to 0 fails."""
    poly = _polynomial(expr)
    if isinstance(divisor, AffineConstantExpr):
        return divisor.value > 0 and all(c % divisor.value == 0 for c in poly.values())
    if isinstance(divisor, AffineSymExpr):
        factor = ("s", divisor.position)
        return all(factor in monomial for monomial in poly)
    return False


class SemiAffineParser(AffineParser):
    """xDSL's affine parser, accepting semi-affine expressions as upstream's does."""

    def _create_binop_expr(self, lhs: AffineExpr, rhs: AffineExpr, binop: MLIRToken) -> AffineExpr:
        kind = _KINDS.get(binop.text)
        if kind is None:
            return super()._create_binop_expr(lhs, rhs, binop)
        try:
            return binary(kind, lhs, rhs)
        except SemiAffineError as err:
            raise ParseError(binop.span, str(err)) from None


__all__ = [
    "SemiAffineError",
    "SemiAffineParser",
    "binary",
    "is_multiple_of",
    "is_symbolic_or_constant",
    "substitute",
]
