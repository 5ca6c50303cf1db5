"""Float literals are rounded into their type as MLIR's APFloat conversion rounds them.

A decimal literal outside the range of `f16`, `bf16` or `f32` is +-inf (MLIR prints
`0x7F800000`), a tiny one is zero, in scalar constants and in dense literals alike; it is
never a parse error, and the kernel computes with the rounded value.
"""

from __future__ import annotations

import warnings

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr

from schedir.dialects.syntax import parse_module

DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}


def _constants(text: str) -> list[arith.ConstantOp]:
    module = parse_module(text, "<literal>")
    return [op for op in module.walk() if isinstance(op, arith.ConstantOp)]


def _expected(literal: str, type_name: str) -> float:
    """numpy's round-to-nearest-even conversion of the literal's double value."""
    with warnings.catch_warnings(), np.errstate(over="ignore", under="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(np.asarray(float(literal), dtype=np.float64).astype(DTYPES[type_name]))


def _same(a: float, b: float) -> bool:
    return a == b or (np.isnan(a) and np.isnan(b))


# Decimal literals in MLIR's syntax: digits, a point, optional exponent (huge ones included).
_literals = st.builds(
    lambda sign, whole, frac, exp: (
        f"{sign}{whole}.{frac}" + (f"e{exp:+d}" if exp is not None else "")
    ),
    st.sampled_from(["", "-"]),
    st.integers(0, 99999),
    st.integers(0, 9999),
    st.one_of(st.none(), st.integers(-60, 60), st.integers(-(10**9), 10**9)),
)


@settings(max_examples=150)
@given(literal=_literals, type_name=st.sampled_from(sorted(DTYPES)))
def test_scalar_constant_rounds_into_its_type(literal: str, type_name: str) -> None:
    text = f"""
func.func @f() -> {type_name} {{
  %c = arith.constant {literal} : {type_name}
  return %c : {type_name}
}}
"""
    (constant,) = _constants(text)
    value = constant.value
    assert isinstance(value, FloatAttr)
    assert _same(value.value.data, _expected(literal, type_name))


@settings(max_examples=60)
@given(
    literals=st.lists(_literals, min_size=1, max_size=4), type_name=st.sampled_from(sorted(DTYPES))
)
def test_dense_literal_rounds_into_its_type(literals: list[str], type_name: str) -> None:
    n = len(literals)
    text = f"""
func.func @f() -> tensor<{n}x{type_name}> {{
  %c = arith.constant dense<[{", ".join(literals)}]> : tensor<{n}x{type_name}>
  return %c : tensor<{n}x{type_name}>
}}
"""
    (constant,) = _constants(text)
    attr = constant.value
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    got = list(attr.get_values())
    assert all(
        _same(float(g), _expected(lit, type_name)) for g, lit in zip(got, literals, strict=True)
    )


@pytest.mark.parametrize(
    ("literal", "type_name", "expected"),
    [
        ("1.0e39", "f32", np.inf),
        ("-1.0e+400000000", "f32", -np.inf),
        ("70000.0", "f16", np.inf),
        ("1.0e-50", "f32", 0.0),
        ("3.0e38", "f32", float(np.float32(3.0e38))),
    ],
)
def test_out_of_range_examples(literal: str, type_name: str, expected: float) -> None:
    text = f"func.func @f() -> {type_name} {{\n  %c = arith.constant {literal} : {type_name}\n  return %c : {type_name}\n}}\n"
    (constant,) = _constants(text)
    assert isinstance(constant.value, FloatAttr)
    assert constant.value.value.data == expected
