"""schedules/matmul_f16_ring_cuda.mlir and matmul_bf16_ring_cuda.mlir on the device: f16/bf16 -> f32 matmuls through TMA,
mbarriers and wgmma, at 4096^3 and at other sizes the tiles divide (K loops of one,
several and an odd number of steps, so both barrier phases are waited on), for every
tile shape (block_m, block_n) the knobs allow (wgmma m64n64/n128/n256, B loaded in 64-column
chunks) and every number of stages (1: no ring; 2-4: a TMA ring in dynamic shared
memory); outputs pre-filled with NaN, inputs unchanged, compared with
`schedir.reference`. Sizes the tiles do not divide (edge tiles: TMA zero-fills the boxes
past the tensors, the store is bounded) at every tile shape, odd M and edge tiles in all
three dimensions; K or N not a multiple of 8 (rows TMA cannot describe, staged by the
host): tests/gpu/test_matmul_unaligned_rows.py."""

from __future__ import annotations

import re
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
SELECTED = {"block_m": 128, "block_n": 128, "stages": 3}
"""The knobs' selected values in the schedules."""
SHAPES = [(64, 64), (64, 128), (64, 256), (128, 64), (128, 128)]
"""Every (block_m, block_n) the knobs and their constraint allow."""


def schedule_text(element: str, **knobs: int) -> str:
    """The schedule for `element` with the knobs set to the given values."""
    text = (REPO / "schedules" / f"matmul_{element}_ring_cuda.mlir").read_text()
    for knob, value in knobs.items():
        selected = f'"{knob}"> = {SELECTED[knob]} from'
        assert selected in text
        text = text.replace(selected, f'"{knob}"> = {value} from')
    return text


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


SIZES = [(128, 256, 64), (256, 512, 320), (640, 768, 1088)]
"""K loops of 1, 5 and 17 steps: shorter than the ring, not a multiple of it, and long
enough for every barrier to wrap its phase several times."""
CASES = [
    (element, shape, stages, size)
    for element, shapes in (("f16", SHAPES), ("bf16", [(128, 128), (64, 256)]))
    for shape in shapes
    for size, stage_options in [*((s, (1, 2, 3, 4)) for s in SIZES), ((4096, 4096, 4096), (1, 4))]
    for stages in stage_options
]
"""(element, (block_m, block_n), stages, (m, n, k)): every tile shape and stage count at
the small sizes, 1 and 4 stages at 4096^3; bf16 at the two widest shapes."""


@pytest.mark.parametrize(
    ("element", "shape", "stages", "size"),
    CASES,
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_matmul_matches_the_reference(
    element: str, shape: tuple[int, int], stages: int, size: tuple[int, int, int]
) -> None:
    (block_m, block_n), (m, n, k) = shape, size
    text = payload(m, n, k, element)
    schedule = schedule_text(element, block_m=block_m, block_n=block_n, stages=stages)
    kernel = schedir.compile(text, schedule=schedule, target="cuda")
    assert "wgmma.mma_async" in kernel.stages["ptx"]
    module = parse_module(text, "<payload>", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed=m + n + k + block_m + block_n + stages)
    before = [a.copy() for a in inputs]
    expected = reference.evaluate_with_bounds(module, signature.name, inputs)
    results = kernel.run(*inputs, prefill_nan=True)
    check_results(
        results,
        expected,
        [np.dtype(np.float32)],
        where=f" ({m}x{n}x{k}, block {block_m}x{block_n}, {stages} stages)",
    )
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)
    # A second call (descriptors of the same buffers come from the runtime's cache).
    again = kernel.run(*inputs, prefill_nan=True)
    check_results(again, expected, [np.dtype(np.float32)], where=f" ({m}x{n}x{k}, second call)")


EDGE_SIZES = [(1000, 1032, 1016), (65, 136, 72), (4095, 4104, 4096), (129, 72, 1000), (1, 8, 72)]
"""Sizes the tiles do not divide: edge tiles in M, N and K (1032 = 8 x 128 + 8: B's last
64-column box lies wholly past N), a single partial tile, a K loop of 64 steps with a
tail, odd M, and one row of 8 columns."""
EDGE_CASES = [
    (element, shape, stages, size)
    for size in EDGE_SIZES
    for element, shape, stages in (
        ("f16", (128, 128), 3),
        ("f16", (64, 256), 4),
        ("f16", (128, 64), 1),
        ("f16", (64, 64), 2),
        ("bf16", (128, 128), 3),
        ("bf16", (64, 128), 1),
    )
]
"""(element, (block_m, block_n), stages, (m, n, k)): every edge size at four tile shapes of
f16 (ring and single stage) and two of bf16."""


@pytest.mark.parametrize(
    ("element", "shape", "stages", "size"),
    EDGE_CASES,
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_edge_tiles_match_the_reference(
    element: str, shape: tuple[int, int], stages: int, size: tuple[int, int, int]
) -> None:
    """Sizes the tiles do not divide: the edge tiles load whole boxes (zeros past the
    tensors) and store only their part of C; the NaN prefill shows an element not stored,
    a wrong k tail shows as an error."""
    test_matmul_matches_the_reference(element, shape, stages, size)


F16_OUT_SIZES = [(512, 256, 384), (4096, 4096, 4096), (1000, 1032, 1016), (65, 136, 72)]
"""Sizes the tiles divide (one at 4096^3) and edge sizes, for the f16-out schedule."""


def f16_out_payload(m: int, n: int, k: int) -> str:
    """examples/matmul_f16_f16out_cuda.mlir at M x N x K."""
    text = (REPO / "examples" / "matmul_f16_f16out_cuda.mlir").read_text()
    for old, new in (("1000", str(m)), ("1016", str(k)), ("1032", str(n))):
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("size", F16_OUT_SIZES, ids=lambda v: "x".join(map(str, v)))
@pytest.mark.parametrize("stages", [1, 3])
def test_f16_out_matches_the_reference(size: tuple[int, int, int], stages: int) -> None:
    """f16 in, f32 accumulation, f16 out: the conversion is fused into the store of the
    accumulator registers (rounded to nearest even, as the reference's truncf)."""
    m, n, k = size
    text = f16_out_payload(m, n, k)
    schedule = (REPO / "schedules" / "matmul_f16_f16out_cuda.mlir").read_text()
    selected = f'"stages"> = {SELECTED["stages"]} from'
    assert selected in schedule
    schedule = schedule.replace(selected, f'"stages"> = {stages} from')
    kernel = schedir.compile(text, schedule=schedule, target="cuda")
    assert re.search(r"cvt\.rn\.f16(x2)?\.f32", kernel.stages["ptx"])
    module = parse_module(text, "<payload>", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed=m + n + k + stages)
    before = [a.copy() for a in inputs]
    expected = reference.evaluate_with_bounds(module, signature.name, inputs)
    results = kernel.run(*inputs, prefill_nan=True)
    check_results(
        results, expected, [np.dtype(np.float16)], where=f" ({m}x{n}x{k} f16 out, {stages} stages)"
    )
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)
