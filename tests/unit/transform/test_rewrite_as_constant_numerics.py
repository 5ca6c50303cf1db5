"""`apply_patterns.tensor.rewrite_as_constant` keeps the payload's results: pads and
generates of constants (float and integer, odd shapes) folded to constants that feed a
computation on the inputs, compiled for the CPU and compared with `schedir.reference`.
"""

from __future__ import annotations

import pytest

from tests.helpers import ANY, match, run_and_check, schedule_module


def payload(rows: int, cols: int, low: tuple[int, int], high: tuple[int, int]) -> str:
    out = (rows + low[0] + high[0], cols + low[1] + high[1])
    src = f"tensor<{rows}x{cols}xf32>"
    dst = f"tensor<{out[0]}x{out[1]}xf32>"
    values = ", ".join(
        "[" + ", ".join(f"{1.0 + r * cols + c}" for c in range(cols)) + "]" for r in range(rows)
    )
    ident = "affine_map<(d0, d1) -> (d0, d1)>"
    return (
        f"  func.func @f(%A: {dst}, %B: {dst}) -> {dst} {{\n"
        f"    %s = arith.constant dense<[{values}]> : {src}\n"
        "    %z = arith.constant -2.5 : f32\n"
        f"    %p = tensor.pad %s low[{low[0]}, {low[1]}] high[{high[0]}, {high[1]}] {{\n"
        "    ^bb0(%i: index, %j: index):\n"
        "      tensor.yield %z : f32\n"
        f"    }} : {src} to {dst}\n"
        "    %h = arith.constant 0.25 : f32\n"
        "    %g = tensor.generate {\n"
        "    ^bb0(%i: index, %j: index):\n"
        "      tensor.yield %h : f32\n"
        f"    }} : {dst}\n"
        f"    %0 = linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}, {ident}], "
        '"iterator_types" = ["parallel", "parallel"]} '
        f"ins(%A, %p, %g : {dst}, {dst}, {dst}) outs(%B : {dst}) {{\n"
        "    ^bb0(%a: f32, %q: f32, %r: f32, %b: f32):\n"
        "      %m = arith.mulf %a, %q : f32\n"
        "      %n = arith.addf %m, %r : f32\n"
        "      linalg.yield %n : f32\n"
        f"    }} -> {dst}\n    return %0 : {dst}\n  }}"
    )


@pytest.mark.parametrize(
    ("rows", "cols", "low", "high"), [(1, 3, (1, 0), (2, 0)), (3, 5, (0, 2), (1, 1))]
)
def test_rewrite_as_constant(
    rows: int, cols: int, low: tuple[int, int], high: tuple[int, int]
) -> None:
    schedule = (
        match("%f", "func.func") + "    transform.apply_patterns to %f {\n"
        "      transform.apply_patterns.tensor.rewrite_as_constant\n"
        f"    }} : {ANY}\n"
    )
    scheduled = run_and_check(schedule_module(payload(rows, cols, low, high), schedule))
    assert "tensor.pad" not in scheduled
    assert "tensor.generate" not in scheduled
