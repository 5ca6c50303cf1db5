"""`structured.flatten_elementwise` keeps the payload's results: elementwise generics (with
a rank-0 operand, static and dynamic shapes of odd sizes) and named elementwise ops
flattened to one loop, compiled for the CPU and compared with `schedir.reference`.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module

FLATTEN = f"    %f = transform.structured.flatten_elementwise %op : ({ANY}) -> {ANY}\n"


def generic(shape: str) -> str:
    rank = len(shape.split("x"))
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    scalar = f"affine_map<({dims}) -> ()>"
    t = f"tensor<{shape}xf32>"
    parallel = ", ".join(['"parallel"'] * rank)
    return (
        f"  func.func @ew(%A: {t}, %s: tensor<f32>, %B: {t}) -> {t} {{\n"
        f"    %0 = linalg.generic {{indexing_maps = [{ident}, {scalar}, {ident}], "
        f"iterator_types = [{parallel}]}} ins(%A, %s : {t}, tensor<f32>) outs(%B : {t}) {{\n"
        "    ^bb0(%a: f32, %c: f32, %b: f32):\n"
        "      %m = arith.mulf %a, %c : f32\n"
        "      %r = arith.addf %m, %b : f32\n"
        "      linalg.yield %r : f32\n"
        f"    }} -> {t}\n    return %0 : {t}\n  }}"
    )


@pytest.mark.parametrize("shape", ["3x5", "7x3x5", "?x5", "3x?x2"])
def test_flatten_generic(shape: str) -> None:
    scheduled = run_and_check(
        schedule_module(generic(shape), match("%op", "linalg.generic") + FLATTEN), dynamic=7
    )
    assert "tensor.collapse_shape" in scheduled


def test_flatten_named_copy() -> None:
    t = "tensor<5x3x7xf32>"
    payload = (
        f"  func.func @cp(%A: {t}, %B: {t}) -> {t} {{\n"
        f"    %0 = linalg.copy ins(%A : {t}) outs(%B : {t}) -> {t}\n"
        f"    return %0 : {t}\n  }}"
    )
    run_and_check(schedule_module(payload, match("%op", "linalg.copy") + FLATTEN))


@settings(max_examples=6)
@given(dims=st.lists(st.integers(1, 6), min_size=1, max_size=4))
def test_flatten_property(dims: list[int]) -> None:
    shape = "x".join(map(str, dims))
    run_and_check(schedule_module(generic(shape), match("%op", "linalg.generic") + FLATTEN))
