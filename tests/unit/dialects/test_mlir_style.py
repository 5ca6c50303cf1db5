"""Printed IR in MLIR's own style: affine expressions, `#map` aliases, the module's name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser

from schedir.dialects import get_context
from schedir.dialects.mlir_style import format_affine_expr, format_affine_map, restyle


def _map(text: str) -> AffineMap:
    attr = Parser(get_context(), f"affine_map<{text}>").parse_attribute()
    assert isinstance(attr, AffineMapAttr)
    return attr.data


# Expected texts are what iree-opt (upstream MLIR) prints for the same maps.
@pytest.mark.parametrize(
    ("text", "mlir"),
    [
        ("(d0, d1) -> (d0 * 8 + d1)", "(d0, d1) -> (d0 * 8 + d1)"),
        ("(d0) -> (-d0)", "(d0) -> (-d0)"),
        ("(d0) -> (d0 mod 7 - 1)", "(d0) -> (d0 mod 7 - 1)"),
        ("(d0) -> (d0 * -2 + 64)", "(d0) -> (d0 * -2 + 64)"),
        ("(d0)[s0] -> (d0 * -5 + s0)", "(d0)[s0] -> (d0 * -5 + s0)"),
        ("(d0)[s0] -> ((d0 + s0) ceildiv 2)", "(d0)[s0] -> ((d0 + s0) ceildiv 2)"),
        ("(d0)[s0] -> (-(d0 mod 3) + s0)", "(d0)[s0] -> (-(d0 mod 3) + s0)"),
        ("(d0) -> ((d0 floordiv 4) mod 2)", "(d0) -> ((d0 floordiv 4) mod 2)"),
        ("()[s0, s1] -> (s0 - s1)", "()[s0, s1] -> (s0 - s1)"),
        ("(d0)[s0] -> (-d0 + s0, 5)", "(d0)[s0] -> (-d0 + s0, 5)"),
        ("(d0, d1) -> ()", "(d0, d1) -> ()"),
        ("() -> (0)", "() -> (0)"),
    ],
)
def test_maps_print_as_mlir_prints_them(text: str, mlir: str) -> None:
    assert format_affine_map(_map(text)) == mlir


_LEAF = st.one_of(
    st.integers(0, 2).map(lambda i: f"d{i}"),
    st.integers(0, 1).map(lambda i: f"s{i}"),
    st.integers(-9, 9).map(str),
)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Pure affine expressions: sums and products with a constant, mod/div by constants."""
    constant = st.integers(-4, 4).filter(lambda c: c != 0).map(str)
    positive = st.integers(1, 5).map(str)
    return st.one_of(
        st.tuples(children, children).map(lambda t: f"({t[0]} + {t[1]})"),
        st.tuples(children, children).map(lambda t: f"({t[0]} - {t[1]})"),
        st.tuples(children, constant).map(lambda t: f"({t[0]} * {t[1]})"),
        st.tuples(children).map(lambda t: f"(-{t[0]})"),
        st.tuples(children, positive, st.sampled_from(["mod", "floordiv", "ceildiv"])).map(
            lambda t: f"({t[0]} {t[2]} {t[1]})"
        ),
    )


_EXPR = st.recursive(_LEAF, _combine, max_leaves=8)


def _value(expr: AffineExpr, dims: list[int], symbols: list[int]) -> int:
    return AffineMap(3, 2, (expr,)).eval(dims, symbols)[0]


@settings(max_examples=300)
@given(_EXPR, st.lists(st.integers(-20, 20), min_size=5, max_size=5))
def test_printed_expressions_mean_what_they_meant(text: str, point: list[int]) -> None:
    # The parentheses MLIR leaves out must not change the value: parse the printed text
    # again and evaluate both at the same point.
    expr = _map(f"(d0, d1, d2)[s0, s1] -> ({text})").results[0]
    printed = format_affine_expr(expr)
    again = _map(f"(d0, d1, d2)[s0, s1] -> ({printed})").results[0]
    dims, symbols = point[:3], point[3:]
    assert _value(again, dims, symbols) == _value(expr, dims, symbols)


XDSL_TEXT = """\
builtin.module {
  func.func @f(%a: memref<4x4xf32, affine_map<(d0, d1) -> (((d0 * 8) + d1))>>) {
    %0 = affine.apply affine_map<(d0) -> ((d0 + 1))>(%i)
    %1 = affine.apply affine_map<(d0) -> ((d0 + 1))>(%0)
    "foo.bar"() {m = affine_map<() -> (0)>, s = "affine_map<(d0) -> (d0)>"} : () -> ()
    builtin.module {
    }
  }
}
"""


def test_aliases_are_numbered_in_order_of_first_use() -> None:
    text = restyle(XDSL_TEXT)
    head = text.splitlines()[:4]
    assert head == [
        "#map = affine_map<(d0, d1) -> (d0 * 8 + d1)>",
        "#map1 = affine_map<(d0) -> (d0 + 1)>",
        "#map2 = affine_map<() -> (0)>",
        "module {",
    ]
    assert "memref<4x4xf32, #map>" in text
    assert text.count("affine.apply #map1(") == 2
    # A map inside a string is text: it stays as it is and gets no alias.
    assert 's = "affine_map<(d0) -> (d0)>"' in text
    # Nested modules take the short form too.
    assert "    module {" in text


def test_local_scope_keeps_maps_in_place() -> None:
    text = restyle(XDSL_TEXT, aliases=False)
    assert text.startswith("module {\n")
    assert "affine_map<(d0, d1) -> (d0 * 8 + d1)>>" in text
    assert "#map" not in text


def test_text_without_maps_is_left_alone() -> None:
    text = "module {\n  func.func @f() {\n    func.return\n  }\n}\n"
    assert restyle(text) == text
