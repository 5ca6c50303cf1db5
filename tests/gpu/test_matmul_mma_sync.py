"""schedules/matmul_f16_mma_sync_cuda.mlir on the device: f16/bf16 -> f32 matmuls through
warp-level mma.sync (transform.nvgpu.rewrite_matmul_as_mma_sync) at sizes the tiles
divide and at sizes they do not (edge tiles in M, N and K: the fragments outside the
operands load as 0, their stores are skipped), at the selected knobs and at other tile
shapes; outputs pre-filled with NaN, inputs unchanged, compared with `schedir.reference`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import entry_signature, find_entry
from tests.gpu.conftest import run_sanitized
from tests.helpers import check_results
from tests.unit.gpu.test_mma_sync_schedule_ptx import PREVIOUS, SELECTED

pytestmark = pytest.mark.gpu

REPO = Path(__file__).parents[2]
FOUR_WARPS = {"block_n": 128, "warps": 4, "warps_n": 2}
"""128x128 blocks of 4 warps (64x64 warp tiles, 128 threads)."""


def schedule_text(**knobs: int) -> str:
    """The schedule with the knobs set to the given values."""
    text = (REPO / "schedules" / "matmul_f16_mma_sync_cuda.mlir").read_text()
    for knob, value in knobs.items():
        selected = f'"{knob}"> = {SELECTED[knob]} from'
        assert selected in text
        text = text.replace(selected, f'"{knob}"> = {value} from')
    return text


def payload(m: int, n: int, k: int, element: str) -> str:
    """The example's matmul of `element` (f16 or bf16) at M x N x K."""
    text = (REPO / "examples" / "matmul_f16_mma_sync_cuda.mlir").read_text()
    text = text.replace("1000x1016xf16", f"{m}x{k}x{element}")
    text = text.replace("1016x1032xf16", f"{k}x{n}x{element}")
    return text.replace("1000x1032xf32", f"{m}x{n}xf32")


CASES = [
    ("f16", {}, (1000, 1032, 1016)),
    ("f16", {}, (65, 136, 72)),
    ("f16", {}, (512, 256, 384)),
    ("f16", {}, (4096, 4096, 4096)),
    ("f16", {}, (1, 8, 40)),
    ("bf16", {}, (1000, 1032, 1016)),
    ("bf16", {}, (65, 136, 72)),
    ("f16", {}, (130, 512, 128)),
    ("f16", {}, (256, 512, 64)),
    ("f16", {"stages": 4}, (1000, 1032, 1016)),
    ("f16", {"block_k": 32}, (1000, 1032, 1016)),
    ("f16", {"block_n": 128}, (1000, 1032, 1016)),
    ("f16", {"block_n": 128}, (512, 256, 384)),
    ("f16", FOUR_WARPS, (1000, 1032, 1016)),
    ("f16", FOUR_WARPS, (512, 256, 384)),
    ("bf16", FOUR_WARPS, (65, 136, 72)),
    ("f16", FOUR_WARPS | {"block_k": 32, "stages": 6}, (1000, 1032, 1016)),
    ("f16", FOUR_WARPS | {"block_k": 32, "stages": 6}, (512, 256, 384)),
    ("f16", {"raster_group": 8}, (1000, 1032, 1016)),
    ("f16", {"raster_group": 8}, (4096, 4096, 4096)),
    ("f16", {"fragments": 0}, (1000, 1032, 1016)),
    ("f16", {"fragments": 0}, (512, 256, 384)),
    ("f16", {"fragments": 1}, (1000, 1032, 1016)),
    ("f16", {"fragments": 1}, (512, 256, 384)),
    ("bf16", {"fragments": 1}, (256, 512, 64)),
    ("f16", {"ring_offsets": 1}, (512, 256, 384)),
    ("f16", {"fragments": 1, "ring_offsets": 1}, (4096, 4096, 4096)),
    ("bf16", {}, (512, 256, 384)),
    ("f16", PREVIOUS | {"block_k": 16, "stages": 2}, (256, 384, 96)),
    ("f16", PREVIOUS, (1000, 1032, 1016)),
    ("f16", PREVIOUS, (512, 256, 384)),
    ("f16", PREVIOUS | {"block_m": 64, "block_n": 64, "warps_n": 2}, (1000, 1032, 1016)),
    ("f16", PREVIOUS | {"block_m": 64, "warps_n": 8}, (129, 72, 1000)),
    ("f16", PREVIOUS | {"stages": 3, "pad": 0}, (512, 256, 384)),
    ("f16", PREVIOUS | {"block_k": 16, "stages": 4}, (256, 384, 96)),
    ("bf16", PREVIOUS, (256, 128, 64)),
    ("f16", PREVIOUS | {"block_n": 256, "block_k": 16}, (256, 512, 80)),
    ("f16", PREVIOUS, (130, 256, 64)),
    ("f16", PREVIOUS | {"stages": 3}, (1000, 1032, 1016)),
    ("f16", PREVIOUS | {"stages": 4}, (512, 256, 384)),
    ("f16", PREVIOUS | {"block_k": 64, "stages": 3}, (256, 384, 320)),
    ("f16", PREVIOUS | {"block_n": 256, "stages": 3}, (256, 512, 96)),
    ("f16", PREVIOUS | {"block_m": 256, "warps_n": 2, "stages": 4}, (600, 264, 200)),
]
"""(element, knobs, (m, n, k)): the selected 128x256 blocks of 64-wide k steps (64x64
warp tiles, 3 stages in dynamic shared memory) at odd sizes (edge tiles in every
dimension, one row, a single partial tile), at sizes the tiles divide (pipelined; one k
step, fewer than the stages; an edge in M only: B's copies asynchronous, A's not),
4096^3, bf16, 4 stages, 32-wide k steps, 128x128 blocks (64x32 warp tiles), blocks of 4
warps (64x64 warp tiles; also 6 stages of 32-wide k steps), raster groups of 8 rows
of tiles, the fragments not pipelined across the k steps (fragments 0) and not
double-buffered across the k sub-steps (fragments 1), the ring offsets carried by the
k loop (ring_offsets 1); the earlier 2 stages of 128x128x32 tiles in static shared memory and other
tile shapes (rows unpadded, 16-wide k steps, 3 and 4 stages, 64-wide k steps, 128x256
and 256x128 blocks, odd sizes too)."""


def run_case(element: str, knobs: dict[str, int], size: tuple[int, int, int]) -> None:
    """Compile the schedule (with `knobs`) for the M x N x K `element` matmul, run it on
    NaN-prefilled outputs and compare with the reference; the inputs stay unchanged."""
    m, n, k = size
    text = payload(m, n, k, element)
    kernel = schedir.compile(text, schedule=schedule_text(**knobs), target="cuda")
    assert "mma.sync.aligned.m16n8k16.row.col.f32" in kernel.stages["ptx"]
    module = parse_module(text, "<payload>", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed=m + n + k)
    before = [a.copy() for a in inputs]
    expected = reference.evaluate_with_bounds(module, signature.name, inputs)
    results = kernel.run(*inputs, prefill_nan=True)
    check_results(
        results, expected, [np.dtype(np.float32)], where=f" ({element} {m}x{n}x{k} {knobs})"
    )
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    ("element", "knobs", "size"),
    CASES,
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_mma_sync_matmul_matches_the_reference(
    element: str, knobs: dict[str, int], size: tuple[int, int, int]
) -> None:
    run_case(element, knobs, size)


_SANITIZED = """
from tests.gpu.test_matmul_mma_sync import run_case
run_case("f16", {}, (200, 264, 104))
run_case("f16", {}, (256, 256, 256))
run_case("f16", {"fragments": 1, "ring_offsets": 1}, (256, 256, 256))
run_case("f16", {"block_n": 128, "block_k": 32, "stages": 2}, (256, 256, 128))
run_case("f16", {"block_n": 128, "warps": 4, "warps_n": 2}, (256, 256, 256))
print("ran")
"""


@pytest.mark.parametrize("tool", ["memcheck", "racecheck"])
def test_sanitizer_clean(tool: str) -> None:
    """No out-of-bounds access (edge tiles: partial copies, masked fragments) and no
    shared-memory hazard between the k steps' copies and the ldmatrix reads of the
    previous step, at an odd size and at sizes the tiles divide (the selected 3 stages in
    dynamic shared memory, with fragments pipelined across the k steps and
    double-buffered, also only pipelined with the ring offsets carried, the previous 2
    in static, blocks of 4 warps)."""
    run_sanitized(tool, _SANITIZED)
