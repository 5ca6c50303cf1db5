"""Round trips and verifier errors of the `match.structured` family."""

from __future__ import annotations

import pytest
from test_transform_helpers import expect_error, roundtrip, upstream_errors

ANY = "!transform.any_op"
P64 = "!transform.param<i64>"
VAL = "!transform.any_value"

PREDICATES = [
    'transform.match.structured.body %s contraction = ["arith.mulf", "arith.addf"] : '
    "!transform.any_op",
    f"transform.match.structured.body %s elementwise : {ANY}",
    f"transform.match.structured.body %s reduction_position = 0 : {ANY}",
    f"transform.match.structured.body %s passthrough : {ANY}",
    f"%d = transform.match.structured.dim %s[0] : ({ANY}) -> {P64}",
    f"transform.match.structured.dim %s[except(-1, 0)] parallel : {ANY}",
    f"transform.match.structured.dim %s[all] reduction : {ANY}",
    f"%r = transform.match.structured.rank %s : ({ANY}) -> {P64}",
    f"%i = transform.match.structured.input %s[0] : ({ANY}) -> {VAL}",
    f"transform.match.structured.input %s[all] permutation : {ANY}",
    f"%i2 = transform.match.structured.init %s[0] projected_permutation : ({ANY}) -> {ANY}",
    f"%res = transform.match.structured.result %s[0] single : ({ANY}) -> {ANY}",
    f"%res2 = transform.match.structured.result %s[-1] any : ({ANY}) -> {ANY}",
    f"%res3 = transform.match.structured.result %s[1] : ({ANY}) -> {VAL}",
    f"%ni = transform.match.structured.num_inputs %s : ({ANY}) -> {P64}",
    f"%nn = transform.match.structured.num_inits %s : ({ANY}) -> {P64}",
    f"%bw = transform.match.structured.elemental_bitwidth %in : ({VAL}) -> {P64}",
    "%b, %m, %n, %k = transform.match.structured.classify_contraction_dims %s : "
    f"({ANY}) -> ({P64}, {P64}, {P64}, {P64})",
    "%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7 = "
    f"transform.match.structured.classify_convolution_dims %s : ({ANY}) -> "
    f"({P64}, {P64}, {P64}, {P64}, {P64}, {P64}, {P64}, {P64})",
]


def _matcher(body: str, mode: str = "failures(suppress) ") -> str:
    lines = "\n".join("      " + line for line in body.splitlines())
    return f"""module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @m(%op: {ANY} {{transform.readonly}}) -> ({ANY}, {P64}) {{
    %r0, %r1 = transform.match.structured {mode}%op : ({ANY}) -> ({ANY}, {P64}) {{
    ^bb0(%s: {ANY}):
      %in = transform.match.structured.input %s[0] : ({ANY}) -> {VAL}
{lines}
      %z = transform.match.structured.rank %s : ({ANY}) -> {P64}
      transform.match.structured.yield %s, %z : {ANY}, {P64}
    }}
    transform.yield %r0, %r1 : {ANY}, {P64}
  }}
}}
"""


@pytest.mark.parametrize("predicate", PREDICATES, ids=range(len(PREDICATES)))
def test_predicate_roundtrip(predicate: str) -> None:
    printed = roundtrip(_matcher(predicate))
    assert predicate in printed
    assert "transform.match.structured failures(suppress) %op : (" in printed


def test_upstream_accepts_the_predicates() -> None:
    assert not upstream_errors([roundtrip(_matcher("\n".join(PREDICATES)))])


def test_match_structured_short_type_and_implicit_yield() -> None:
    text = f"""module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @m(%op: {ANY} {{transform.readonly}}) -> {ANY} {{
    transform.match.structured %op : {ANY} {{
    ^bb0(%s: {ANY}):
    }}
    transform.yield %op : {ANY}
  }}
}}
"""
    printed = roundtrip(text)
    assert f"transform.match.structured %op : {ANY} {{" in printed
    assert "transform.match.structured.yield" not in printed
    assert not upstream_errors([printed])


@pytest.mark.parametrize(
    ("predicate", "message"),
    [
        (
            f"transform.match.structured.body %s elementwise passthrough : {ANY}",
            'only one of {"reduction_position", "passthrough", "elementwise", "contraction"} '
            "is allowed",
        ),
        (
            f'transform.match.structured.body %s contraction = ["arith.mulf"] : {ANY}',
            'expects "contraction" to contain two elements',
        ),
        (
            f"transform.match.structured.dim %s[all] parallel reduction : {ANY}",
            "cannot request the same dimension to be both parallel and reduction",
        ),
        (
            f"transform.match.structured.dim %s[0, 0] : {ANY}",
            "expected the listed values to be unique",
        ),
        (
            f"transform.match.structured.input %s[0] permutation projected_permutation : {ANY}",
            '"permutation" and "projected_permutation" are mutually exclusive',
        ),
        (
            f"%x = transform.match.structured.input %s[0, 1] : ({ANY}) -> {ANY}",
            "cannot bind multiple inputs/inits to the same value",
        ),
        (
            f"%x = transform.match.structured.result %s[0] any single : ({ANY}) -> {ANY}",
            "'any' and 'single' are mutually exclusive",
        ),
        (
            f"%x = transform.match.structured.result %s[0] : ({ANY}) -> {ANY}",
            "expects either the any/single keyword or the type value handle result type",
        ),
        (
            f"%x = transform.match.structured.rank %op : ({ANY}) -> {P64}",
            "expected predicate to apply to the surrounding structured op",
        ),
    ],
)
def test_predicate_verifier_errors(predicate: str, message: str) -> None:
    text = _matcher(predicate)
    line = text.splitlines().index("      " + predicate) + 1
    expect_error(text, message, line, 7)
    assert upstream_errors([text]), "upstream accepts what schedir rejects"


def test_predicate_outside_match_structured() -> None:
    text = f"""module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @m(%op: {ANY} {{transform.readonly}}) {{
    transform.match.structured.body %op passthrough : {ANY}
    transform.yield
  }}
}}
"""
    expect_error(text, "expects parent op to be 'transform.match.structured'", 3, 5)


def test_match_structured_body_argument() -> None:
    text = f"""module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @m(%op: {ANY} {{transform.readonly}}) {{
    transform.match.structured %op : {ANY} {{
    ^bb0(%s: {ANY}, %t: {ANY}):
    }}
    transform.yield
  }}
}}
"""
    expect_error(text, "expected one body argument", 3, 5)
