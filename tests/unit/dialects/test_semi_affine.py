"""Semi-affine maps: parsed as upstream parses them, printed as it prints them, evaluated
and lowered with MLIR's floordiv / ceildiv / mod (positive divisors, any dividend)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir.affine import AffineBinaryOpKind, AffineExpr, AffineMap

import schedir
from schedir.diagnostics import ParseError
from schedir.dialects.semi_affine import SemiAffineError, binary, is_multiple_of
from schedir.dialects.syntax import parse_module, print_op
from tests.helpers import check_kernel


def _holder(text: str) -> str:
    return f"module attributes {{m = {text}}} {{\n}}\n"


def _roundtrip(text: str, *, mlir_style: bool) -> AffineMap:
    printed = print_op(parse_module(_holder(text)), mlir_style=mlir_style, aliases=False)
    attr = parse_module(printed).attributes["m"]
    assert isinstance(attr, AffineMapAttr)
    return attr.data


# The right-hand texts are what iree-opt (upstream MLIR) prints for the left-hand ones.
@pytest.mark.parametrize(
    ("text", "mlir"),
    [
        ("(d0)[s0] -> (d0 * s0)", "(d0)[s0] -> (d0 * s0)"),
        ("()[s0, s1] -> (s1 * (s0 ceildiv 32))", "()[s0, s1] -> (s1 * (s0 ceildiv 32))"),
        ("(d0)[s0] -> (s0 * (d0 floordiv s0))", "(d0)[s0] -> ((d0 floordiv s0) * s0)"),
        ("(d0)[s0] -> (d0 ceildiv (s0 + 3))", "(d0)[s0] -> (d0 ceildiv (s0 + 3))"),
        ("(d0)[s0] -> (-(d0 mod (s0 * 2)))", "(d0)[s0] -> (-(d0 mod (s0 * 2)))"),
        ("()[s0, s1, s2] -> (s1 - (s1 - s0) mod s2)", "()[s0, s1, s2] -> (s1 - (s1 - s0) mod s2)"),
        (
            "()[s0, s1] -> (s0 - s1 * (s0 ceildiv 32), s0 ceildiv 32)",
            "()[s0, s1] -> (s0 - s1 * (s0 ceildiv 32), s0 ceildiv 32)",
        ),
    ],
)
def test_semi_affine_maps_parse_print_and_round_trip(text: str, mlir: str) -> None:
    module = parse_module(_holder(f"affine_map<{text}>"))
    printed = print_op(module, mlir_style=True, aliases=False)
    assert f"affine_map<{mlir}>" in printed
    original = module.attributes["m"]
    for style in (True, False):
        again = _roundtrip(f"affine_map<{text}>", mlir_style=style)
        assert AffineMapAttr(again) == original
        assert hash(AffineMapAttr(again)) == hash(original)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(d0, d1) -> (d0 * d1)", "at least one of the multiply operands"),
        ("(d0, d1) -> (d0 mod (d1 + 1))", "right operand of mod"),
        ("(d0, d1) -> (d0 floordiv d1)", "right operand of floordiv"),
        ("(d0, d1)[s0] -> (s0 ceildiv (d1 * 2))", "right operand of ceildiv"),
    ],
)
def test_non_affine_expressions_are_upstreams_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_module(_holder(f"affine_map<{text}>"))


Eval = Callable[[dict[str, int]], int]
"""A Python evaluator of an expression, given d0, d1, s0, s1."""


def _floordiv(a: int, b: int) -> int:
    return a // b


def _ceildiv(a: int, b: int) -> int:
    return -(-a // b)


def _mod(a: int, b: int) -> int:
    r = a - b * (a // b)
    assert 0 <= r < b
    return r


@st.composite
def _expressions(draw: st.DrawFn, depth: int = 3) -> tuple[AffineExpr, Eval]:
    """A random semi-affine expression over d0, d1, s0, s1 and a Python evaluator of it;
    divisors are symbolic and positive (s0, s1 and the constants are drawn positive)."""
    if depth == 0 or draw(st.booleans()):
        choice = draw(st.sampled_from(["d0", "d1", "s0", "s1", "c"]))
        if choice == "c":
            value = draw(st.integers(-9, 9))
            return AffineExpr.constant(value), lambda env, v=value: v
        index = int(choice[1])
        expr = AffineExpr.dimension(index) if choice[0] == "d" else AffineExpr.symbol(index)
        return expr, lambda env, k=choice: env[k]
    kind = draw(st.sampled_from(list(AffineBinaryOpKind)))
    lhs, lhs_eval = draw(_expressions(depth - 1))
    if kind == AffineBinaryOpKind.Add:
        rhs, rhs_eval = draw(_expressions(depth - 1))
        return binary(kind, lhs, rhs), lambda env: lhs_eval(env) + rhs_eval(env)
    # A symbolic divisor or factor that is positive for positive symbols.
    sym = draw(st.sampled_from(["s0", "s1", "s0+s1", "s1*2", "s0*s1"]))
    rhs = {
        "s0": AffineExpr.symbol(0),
        "s1": AffineExpr.symbol(1),
        "s0+s1": AffineExpr.symbol(0) + AffineExpr.symbol(1),
        "s1*2": AffineExpr.symbol(1) * 2,
        "s0*s1": binary(AffineBinaryOpKind.Mul, AffineExpr.symbol(0), AffineExpr.symbol(1)),
    }[sym]

    def divisor_eval(env: dict[str, int]) -> int:
        return {
            "s0": env["s0"],
            "s1": env["s1"],
            "s0+s1": env["s0"] + env["s1"],
            "s1*2": env["s1"] * 2,
            "s0*s1": env["s0"] * env["s1"],
        }[sym]

    op = {
        AffineBinaryOpKind.Mul: lambda a, b: a * b,
        AffineBinaryOpKind.FloorDiv: _floordiv,
        AffineBinaryOpKind.CeilDiv: _ceildiv,
        AffineBinaryOpKind.Mod: _mod,
    }[kind]
    return binary(kind, lhs, rhs), lambda env: op(lhs_eval(env), divisor_eval(env))


@settings(max_examples=100)
@given(
    case=_expressions(),
    d0=st.integers(-50, 50),
    d1=st.integers(-50, 50),
    s0=st.integers(1, 9),
    s1=st.integers(1, 9),
)
def test_semi_affine_expressions_evaluate_as_mlir_defines_them(
    case: tuple[AffineExpr, Eval], d0: int, d1: int, s0: int, s1: int
) -> None:
    expr, evaluate = case
    env = {"d0": d0, "d1": d1, "s0": s0, "s1": s1}
    want = evaluate(env)
    assert expr.eval([d0, d1], [s0, s1]) == want
    # Printed in upstream's style and parsed again, it computes the same ...
    text = f"affine_map<(d0, d1)[s0, s1] -> ({expr})>"
    again = _roundtrip(text, mlir_style=True)
    assert again.results[0].eval([d0, d1], [s0, s1]) == want
    # ... and its text is a fixed point of print and parse.
    assert _roundtrip(f"affine_map<{again}>", mlir_style=True) == again


def test_binary_refuses_what_upstream_refuses() -> None:
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    with pytest.raises(SemiAffineError):
        binary(AffineBinaryOpKind.Mul, d0, d1)
    with pytest.raises(SemiAffineError):
        binary(AffineBinaryOpKind.Mod, d0, d1 + 1)


_PAYLOAD = """func.func @f(%a: tensor<9xindex>, %s: index, %t: index) -> tensor<9xindex> {
  %e = tensor.empty() : tensor<9xindex>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%a : tensor<9xindex>) outs(%e : tensor<9xindex>) {
  ^bb0(%x: index, %y: index):
    %v = affine.apply affine_map<(d0)[s0, s1] -> (d0 mod s0 + (d0 floordiv s1) * s0
        - d0 ceildiv (s0 + s1) + s0 * s1)>(%x)[%s, %t]
    linalg.yield %v : index
  } -> tensor<9xindex>
  return %r : tensor<9xindex>
}"""


@pytest.mark.parametrize(("s", "t"), [(3, 5), (7, 2), (1, 1)])
def test_semi_affine_apply_lowers_to_mlir_semantics(s: int, t: int) -> None:
    # Negative dividends: floordiv rounds down, ceildiv up, mod is non-negative.
    a = np.array([-17, -9, -5, -1, 0, 1, 4, 11, 23], dtype=np.int64)
    inputs = [a, np.int64(s), np.int64(t)]
    kernel = schedir.compile(_PAYLOAD)
    check_kernel(kernel, _PAYLOAD, inputs=inputs)
    result = kernel(*inputs)
    got = result[0] if isinstance(result, tuple | list) else result
    x = [int(v) for v in a]
    want = [_mod(v, s) + _floordiv(v, t) * s - _ceildiv(v, s + t) + s * t for v in x]
    assert [int(v) for v in got] == want


@settings(max_examples=200)
@given(
    case=_expressions(),
    s0=st.integers(1, 9),
    s1=st.integers(1, 9),
    d0=st.integers(-30, 30),
    d1=st.integers(-30, 30),
)
def test_is_multiple_of_is_sound(
    case: tuple[AffineExpr, Eval], s0: int, s1: int, d0: int, d1: int
) -> None:
    # `expr - expr mod s1` is a multiple of s1; a random expression only when proven.
    expr, _ = case
    s1_expr = AffineExpr.symbol(1)
    peeled = expr - binary(AffineBinaryOpKind.Mod, expr, s1_expr)
    assert is_multiple_of(peeled, s1_expr)
    for candidate in (expr, peeled):
        if is_multiple_of(candidate, s1_expr):
            assert candidate.eval([d0, d1], [s0, s1]) % s1 == 0


def test_is_multiple_of_refuses_what_it_cannot_prove() -> None:
    s0, s1 = AffineExpr.symbol(0), AffineExpr.symbol(1)
    assert not is_multiple_of(s0 + 1, s1)
    assert not is_multiple_of(binary(AffineBinaryOpKind.FloorDiv, s0, s1), s1)
    assert is_multiple_of(binary(AffineBinaryOpKind.Mul, s0 + 2, s1), s1)
    assert is_multiple_of(s0 * 6 + 12, AffineExpr.constant(3))
    assert not is_multiple_of(s0 * 6 + 13, AffineExpr.constant(3))
