"""`tensor.pad` verifies as upstream: a dynamic pad amount may give a static result dim.

The verifier infers each result dim (`source + low + high` when all are static, dynamic
otherwise) and rejects only a declared static dim that differs from a static inferred one.
Pads whose amounts are computed at run time to reach a static size compile for the CPU and
match `schedir.reference` on odd sizes (drawn by hypothesis); the schedule vectorizes them
or not.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from tests.helpers import check_kernel, schedule_module


def padded(size: int, low: int, shape: str = "?") -> str:
    """Pad a `tensor<{shape}x3xf32>` with `low` rows in front and what reaches `size` after."""
    return f"""
  func.func @pad(%t: tensor<{shape}x3xf32>, %v: f32) -> tensor<{size}x3xf32> {{
    %c0 = arith.constant 0 : index
    %lo = arith.constant {low} : index
    %total = arith.constant {size - low} : index
    %n = tensor.dim %t, %c0 : tensor<{shape}x3xf32>
    %hi = arith.subi %total, %n : index
    %p = tensor.pad %t low[%lo, 0] high[%hi, 0] {{
    ^bb0(%i: index, %j: index):
      tensor.yield %v : f32
    }} : tensor<{shape}x3xf32> to tensor<{size}x3xf32>
    return %p : tensor<{size}x3xf32>
  }}"""


@settings(max_examples=8)
@given(rows=st.integers(1, 9), extra=st.integers(0, 5), low=st.integers(0, 3))
def test_dynamic_amounts_to_a_static_size(rows: int, extra: int, low: int) -> None:
    size = rows + extra + low
    payload = schedule_module(padded(size, low), "")
    kernel = schedir.compile(payload)
    x = np.linspace(-1.0, 1.5, rows * 3, dtype=np.float32).reshape(rows, 3) + 0.25
    inputs = [x, np.float32(0.75)]
    check_kernel(kernel, payload, inputs=inputs)
    (got,) = kernel.run(*inputs, prefill_nan=True)
    expected = np.full((size, 3), 0.75, dtype=np.float32)
    expected[low : low + rows] = x
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(reference.evaluate(payload, "pad", inputs)[0], expected)


@pytest.mark.parametrize(
    ("source", "result", "ok"),
    [
        ("4x3", "9x3", True),  # 4 + 2 + %h: any static size
        ("?x3", "7x3", True),
        ("?x3", "?x3", True),
        ("4x3", "?x3", True),
        ("4x3", "9x4", False),  # dim 1 is static: 3 + 0 + 0
        ("4x3", "9x3x1", False),
    ],
)
def test_verifier_infers_dims(source: str, result: str, ok: bool) -> None:
    text = f"""
func.func @f(%t: tensor<{source}xf32>, %h: index, %v: f32) -> tensor<{result}xf32> {{
  %p = tensor.pad %t low[2, 0] high[%h, 0] {{
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  }} : tensor<{source}xf32> to tensor<{result}xf32>
  return %p : tensor<{result}xf32>
}}"""
    if ok:
        parse_module(text, "<pad>", ctx=get_context()).verify()
    else:
        with pytest.raises(Exception, match="does not match the inferred type"):
            parse_module(text, "<pad>", ctx=get_context()).verify()
