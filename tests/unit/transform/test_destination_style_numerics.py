"""`structured.rewrite_in_destination_passing_style` keeps the payload's results: pads
(constant, loop-invariant and index-dependent padding values, static and dynamic source
sizes), generates and from_elements rewritten into empty + fill/generic/inserts, then
compiled for the CPU and compared with `schedir.reference` on the untransformed payload.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, run_and_check, schedule_module

REWRITE = (
    '    %t = transform.structured.match ops{["tensor.pad", "tensor.generate", '
    f'"tensor.from_elements"]}} in %root : ({ANY}) -> {ANY}\n'
    f"    %r = transform.structured.rewrite_in_destination_passing_style %t : ({ANY}) -> {ANY}\n"
)

PAD_VALUES = {
    "constant": "    %z = arith.constant 0.75 : f32\n    tensor.yield %z : f32\n",
    "invariant": "    tensor.yield %v : f32\n",
    "indexed": (
        "    %s = arith.addi %i, %j : index\n"
        "    %x = arith.index_cast %s : index to i32\n"
        "    %y = arith.sitofp %x : i32 to f32\n"
        "    tensor.yield %y : f32\n"
    ),
}


def pad(rows: int, cols: str, low: tuple[int, int], high: tuple[int, int], value: str) -> str:
    """A pad of a rows x cols tensor (cols may be `?`), plus a use so the result is computed."""
    out_rows = rows + low[0] + high[0]
    out_cols = "?" if cols == "?" else str(int(cols) + low[1] + high[1])
    src, dst = f"tensor<{rows}x{cols}xf32>", f"tensor<{out_rows}x{out_cols}xf32>"
    return (
        f"  func.func @pad(%t: {src}, %v: f32) -> {dst} {{\n"
        f"    %p = tensor.pad %t low[{low[0]}, {low[1]}] high[{high[0]}, {high[1]}] {{\n"
        "    ^bb0(%i: index, %j: index):\n"
        f"{PAD_VALUES[value]}"
        f"    }} : {src} to {dst}\n"
        f"    return %p : {dst}\n  }}"
    )


@pytest.mark.parametrize("value", sorted(PAD_VALUES))
@pytest.mark.parametrize("cols", ["7", "?"])
def test_pad(value: str, cols: str) -> None:
    run_and_check(schedule_module(pad(5, cols, (1, 2), (3, 1), value), REWRITE), dynamic=7)


@settings(max_examples=6)
@given(
    rows=st.integers(1, 6),
    cols=st.integers(1, 6),
    low=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    high=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    value=st.sampled_from(sorted(PAD_VALUES)),
)
def test_pad_property(
    rows: int, cols: int, low: tuple[int, int], high: tuple[int, int], value: str
) -> None:
    run_and_check(schedule_module(pad(rows, str(cols), low, high, value), REWRITE))


def test_generate_and_from_elements() -> None:
    payload = (
        "  func.func @gen(%a: f32, %b: f32) -> (tensor<3x5xf32>, tensor<2x3xf32>) {\n"
        "    %g = tensor.generate {\n"
        "    ^bb0(%i: index, %j: index):\n"
        "      %k = arith.muli %i, %j : index\n"
        "      %x = arith.index_cast %k : index to i32\n"
        "      %y = arith.sitofp %x : i32 to f32\n"
        "      %s = arith.mulf %a, %y : f32\n"
        "      tensor.yield %s : f32\n"
        "    } : tensor<3x5xf32>\n"
        "    %c = arith.addf %a, %b : f32\n"
        "    %f = tensor.from_elements %a, %b, %c, %b, %a, %c : tensor<2x3xf32>\n"
        "    return %g, %f : tensor<3x5xf32>, tensor<2x3xf32>\n  }"
    )
    scheduled = run_and_check(schedule_module(payload, REWRITE))
    assert "tensor.generate" not in scheduled
    assert "tensor.from_elements" not in scheduled
