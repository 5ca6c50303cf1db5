"""Transfers whose indices are `affine.apply`s of one map shape with non-linear terms
(floordiv, mod, ceildiv: the thread tiles' offsets after mapping) plus different constants
are disjoint exactly when the constants differ by at least the vector's width along that
dimension, as upstream's composed constant delta says; different operands or a different
non-linear term leave the delta unknown (not disjoint)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.dialects import get_context, vector
from schedir.dialects.syntax import parse_module
from schedir.transform.rewrites.hoisting import disjoint_transfers

_TERMS = st.sampled_from(
    [
        "(s0 + s1 * 16) floordiv 16",
        "(s0 * 4 + s1) mod 32",
        "(s1 + 3) ceildiv 8",
        "s0 floordiv 4 + (s1 mod 2) * 8",
    ]
)


def _reads(first: str, second: str, width: int, swap: bool) -> list[vector.TransferReadOp]:
    operands = "[%u, %t]" if swap else "[%t, %u]"
    text = f"""func.func @f(%m: memref<?x?xf32>, %t: index, %u: index) {{
  %pad = arith.constant 0.0 : f32
  %i = affine.apply affine_map<()[s0, s1] -> ({first})>()[%t, %u]
  %j = affine.apply affine_map<()[s0, s1] -> ({second})>(){operands}
  %a = vector.transfer_read %m[%t, %i], %pad : memref<?x?xf32>, vector<2x{width}xf32>
  %b = vector.transfer_read %m[%t, %j], %pad : memref<?x?xf32>, vector<2x{width}xf32>
  return
}}
"""
    module = parse_module(text, "hoist_delta", ctx=get_context())
    return [op for op in module.walk() if isinstance(op, vector.TransferReadOp)]


@settings(max_examples=60, deadline=None)
@given(
    term=_TERMS,
    scale=st.sampled_from([1, -64, 3]),
    c1=st.integers(-200, 200),
    c2=st.integers(-200, 200),
    width=st.sampled_from([1, 4, 8]),
)
def test_constant_delta_through_non_linear_terms(
    term: str, scale: int, c1: int, c2: int, width: int
) -> None:
    a, b = _reads(
        f"s0 * 4 + ({term}) * {scale} + {c1}", f"s0 * 4 + ({term}) * {scale} + {c2}", width, False
    )
    assert disjoint_transfers(a, b) == (abs(c1 - c2) >= width)
    assert disjoint_transfers(b, a) == (abs(c1 - c2) >= width)


@settings(max_examples=30, deadline=None)
@given(term=_TERMS, other=_TERMS, c=st.integers(8, 200), swap=st.booleans())
def test_other_terms_or_operands_are_not_provably_disjoint(
    term: str, other: str, c: int, swap: bool
) -> None:
    if term == other and not swap:
        other = f"({other}) * 2"
    a, b = _reads(f"s0 + ({term})", f"s0 + ({other}) + {c}", 4, swap)
    assert not disjoint_transfers(a, b)
