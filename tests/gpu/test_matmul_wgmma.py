"""schedules/matmul_f16_cuda.mlir and matmul_bf16_cuda.mlir on the device: f16/bf16 -> f32 matmuls through TMA,
mbarriers and wgmma, at 4096^3 and at other sizes the tiles divide (K loops of one,
several and an odd number of steps, so both barrier phases are waited on), for every
tile shape (block_m, block_n) the knobs allow (wgmma m64n64/n128/n256, B loaded in 64-column
chunks); outputs pre-filled with NaN, inputs unchanged, compared with
`schedir.reference`. Sizes the tiles do not divide are rejected at compile time (see
tests/unit/gpu/test_wgmma_schedule_ptx.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import entry_signature, find_entry
from tests.helpers import check_results

pytestmark = pytest.mark.gpu

REPO = Path(__file__).parents[2]
SELECTED_M = '"block_m"> = 128 from'
SELECTED_N = '"block_n"> = 128 from'
SHAPES = [(64, 64), (64, 128), (64, 256), (128, 64), (128, 128)]
"""Every (block_m, block_n) the knobs and their constraint allow."""


def payload(m: int, n: int, k: int, element: str = "f16") -> str:
    """The examples' matmul of `element` (f16 or bf16) at M x N x K."""
    return f"""
func.func @matmul(%A: tensor<{m}x{k}x{element}>, %B: tensor<{k}x{n}x{element}>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<{m}x{n}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %c = linalg.matmul ins(%A, %B : tensor<{m}x{k}x{element}>, tensor<{k}x{n}x{element}>)
                     outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %c : tensor<{m}x{n}xf32>
}}
"""


@pytest.mark.parametrize("element", ["f16", "bf16"])
@pytest.mark.parametrize(("block_m", "block_n"), SHAPES, ids=lambda v: str(v))
@pytest.mark.parametrize(
    ("m", "n", "k"),
    [(128, 256, 64), (256, 512, 320), (640, 768, 1088), (4096, 4096, 4096)],
    ids=lambda v: str(v),
)
def test_matmul_matches_the_reference(
    element: str, block_m: int, block_n: int, m: int, n: int, k: int
) -> None:
    text = payload(m, n, k, element)
    schedule = (
        (REPO / "schedules" / f"matmul_{element}_cuda.mlir")
        .read_text()
        .replace(SELECTED_M, f'"block_m"> = {block_m} from')
        .replace(SELECTED_N, f'"block_n"> = {block_n} from')
    )
    kernel = schedir.compile(text, schedule=schedule, target="cuda")
    assert "wgmma.mma_async" in kernel.stages["ptx"]
    module = parse_module(text, "<payload>", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed=m + n + k + block_m + block_n)
    before = [a.copy() for a in inputs]
    expected = reference.evaluate_with_bounds(module, signature.name, inputs)
    results = kernel.run(*inputs, prefill_nan=True)
    check_results(
        results,
        expected,
        [np.dtype(np.float32)],
        where=f" ({m}x{n}x{k}, block {block_m}x{block_n})",
    )
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)
    # A second call (descriptors of the same buffers come from the runtime's cache).
    again = kernel.run(*inputs, prefill_nan=True)
    check_results(again, expected, [np.dtype(np.float32)], where=f" ({m}x{n}x{k}, second call)")
