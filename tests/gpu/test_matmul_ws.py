"""schedules/matmul_f16_ws_cuda.mlir on the device: warp-specialized f16/bf16 -> f32
matmuls (a producer warpgroup issues the TMA ring's loads, one or two consumer
warpgroups multiply their rows of the block with wgmma), for one consumer on 128x128
blocks and two on 128x256 and 256x128 blocks, 2 to 4 stages, K loops of 1 (no loop:
canonicalization folds it), 5 and 17 steps (shorter than the ring, not a multiple of it,
wrapping every barrier's phase several times), 1024^3 and 4096^3, and sizes the blocks do
not divide (1000x1032x1016, 4095x4104x4096: TMA zero-fills the edge tiles' loads, each
consumer's store is bounded to its rows of C that exist), in raster groups of
1, 3, 4, 8 and 16 rows of tiles (full and partial groups); outputs pre-filled
with NaN, inputs unchanged, compared with `schedir.reference`; compute-sanitizer's
memcheck and racecheck clean on one run of each consumer count (skipped where
compute-sanitizer is not installed)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import entry_signature, find_entry
from tests.gpu.conftest import SANITIZER_SUMMARY, run_sanitized
from tests.gpu.mbr_payloads import bias_relu_payload
from tests.gpu.test_matmul_wgmma import f16_out_payload, payload
from tests.helpers import check_results

pytestmark = pytest.mark.gpu

REPO = Path(__file__).parents[2]
SCHEDULE = REPO / "schedules" / "matmul_f16_ws_cuda.mlir"
SHAPES = [(1, 128, 128), (2, 128, 256), (2, 256, 128)]
"""(consumers, block_m, block_n): one consumer of 128 rows, two of 64 rows (m64n256) and
two of 128 rows (m64n128, twice per k16)."""
SMALL = [(256, 512, 64), (256, 512, 320), (512, 768, 1088)]
"""K loops of 1, 5 and 17 steps at sizes every shape's blocks divide."""
CASES = [
    *(("f16", shape, stages, size) for shape in SHAPES for size in SMALL for stages in (2, 3, 4)),
    *(("f16", shape, 4, size) for shape in SHAPES for size in ((1024,) * 3, (4096,) * 3)),
    *(("f16", shape, 3, (1000, 1032, 1016)) for shape in SHAPES),
    ("f16", SHAPES[1], 4, (4095, 4104, 4096)),
    ("bf16", SHAPES[1], 4, (1000, 1032, 1016)),
    *(("bf16", shape, stages, size) for shape in SHAPES[:2] for size in SMALL for stages in (2, 4)),
    *(("bf16", shape, 3, (4096,) * 3) for shape in SHAPES[1:]),
]
"""(element, (consumers, block_m, block_n), stages, (m, n, k))."""


def _run(
    element: str,
    shape: tuple[int, int, int],
    stages: int,
    size: tuple[int, ...],
    raster_group: int = 16,
) -> None:
    (consumers, block_m, block_n), (m, n, k) = shape, size
    knobs = {
        "consumers": consumers,
        "block_m": block_m,
        "block_n": block_n,
        "stages": stages,
        "raster_group": raster_group,
    }
    text = payload(m, n, k, element)
    kernel = schedir.compile(text, schedule=SCHEDULE, target="cuda", knobs=knobs)
    ptx = kernel.stages["ptx"]
    assert "wgmma.mma_async" in ptx and "setmaxnreg.inc.sync.aligned.u32" in ptx
    module = parse_module(text, "<payload>", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed=m + n + k + block_m + block_n + stages)
    before = [a.copy() for a in inputs]
    expected = reference.evaluate_with_bounds(module, signature.name, inputs)
    where = (
        f" ({m}x{n}x{k}, {consumers} consumers of {block_m}x{block_n}, {stages} stages, "
        f"raster groups of {raster_group})"
    )
    results = kernel.run(*inputs, prefill_nan=True)
    check_results(results, expected, [np.dtype(np.float32)], where=where)
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)
    again = kernel.run(*inputs, prefill_nan=True)
    check_results(again, expected, [np.dtype(np.float32)], where=where + " (second call)")


@pytest.mark.parametrize(
    ("element", "shape", "stages", "size"),
    CASES,
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_warp_specialized_matmul_matches_the_reference(
    element: str, shape: tuple[int, int, int], stages: int, size: tuple[int, int, int]
) -> None:
    _run(element, shape, stages, size)  # raster groups of 16 (the schedule's)


@pytest.mark.parametrize("raster_group", [1, 3, 4, 8])
@pytest.mark.parametrize(
    "shape", [(2, 128, 256), (1, 128, 128)], ids=lambda s: "x".join(map(str, s))
)
def test_every_raster_order_computes_every_tile_once(
    shape: tuple[int, int, int], raster_group: int
) -> None:
    """Groups of 1 (the launch's order), 3, 4 and 8 rows of tiles (the last group partial:
    10 rows of tiles) over a grid of 10 x 3 or 10 x 6 blocks (16, the schedule's, is one
    partial group there: the other tests):
    every block computes a distinct tile, whatever the order."""
    _run("f16", shape, 3, (1280, 768, 320), raster_group)


@pytest.mark.parametrize("element", ["f16", "bf16"])
@pytest.mark.parametrize(
    "size",
    [(1000, 1032, 1016), (4095, 4104, 4096), (4096, 4096, 4096)],
    ids=lambda v: "x".join(map(str, v)),
)
@pytest.mark.parametrize(
    "shape", [(2, 128, 256), (1, 128, 128)], ids=lambda s: "x".join(map(str, s))
)
def test_f16_out_matches_the_reference(
    shape: tuple[int, int, int], size: tuple[int, int, int], element: str
) -> None:
    """schedules/matmul_f16_cuda.mlir and matmul_bf16_cuda.mlir (the default schedules):
    each consumer stores its rows rounded to f16/bf16 (as the reference's truncf), bounded
    at the edge tiles."""
    (consumers, block_m, block_n), (m, n, k) = shape, size
    text = f16_out_payload(m, n, k).replace("f16", element)
    knobs = {"consumers": consumers, "block_m": block_m, "block_n": block_n}
    schedule = REPO / "schedules" / f"matmul_{element}_cuda.mlir"
    kernel = schedir.compile(text, schedule=schedule, target="cuda", knobs=knobs)
    assert "setmaxnreg.inc.sync.aligned.u32" in kernel.stages["ptx"]
    module = parse_module(text, "<payload>", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed=m + n + k + consumers)
    before = [a.copy() for a in inputs]
    expected = reference.evaluate_with_bounds(module, signature.name, inputs)
    where = f" ({m}x{n}x{k} {element} out, {consumers} consumers of {block_m}x{block_n})"
    results = kernel.run(*inputs, prefill_nan=True)
    out = np.dtype(np.float16) if element == "f16" else np.dtype(ml_dtypes.bfloat16)
    check_results(results, expected, [out], where=where)
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    ("size", "bias", "by"),
    [
        ((1000, 1032, 1016), "f16", "column"),
        ((1000, 1032, 1016), "f32", "column"),
        ((1000, 1032, 1016), "f16", "row"),
        ((4095, 4104, 4096), "f16", "column"),
        ((4096, 4096, 4096), "f16", "column"),
        ((4096, 4096, 4096), "f32", "row"),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
@pytest.mark.parametrize(
    "shape", [(2, 128, 256), (1, 128, 128)], ids=lambda s: "x".join(map(str, s))
)
def test_bias_relu_f16_matches_the_reference(
    shape: tuple[int, int, int], size: tuple[int, int, int], bias: str, by: str
) -> None:
    """schedules/matmul_bias_relu_f16_cuda.mlir: each consumer adds the bias (by column, or
    by row: the consumer's rows offset), takes the relu and rounds to f16 in registers
    before its bounded store; one kernel."""
    (consumers, block_m, block_n), (m, n, k) = shape, size
    text = bias_relu_payload(m, n, k, bias, by)
    knobs = {"consumers": consumers, "block_m": block_m, "block_n": block_n}
    schedule = REPO / "schedules" / "matmul_bias_relu_f16_cuda.mlir"
    kernel = schedir.compile(text, schedule=schedule, target="cuda", knobs=knobs)
    ptx = kernel.stages["ptx"]
    assert "setmaxnreg.inc.sync.aligned.u32" in ptx and ptx.count(".entry") == 1
    module = parse_module(text, "<payload>", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed=m + n + k + consumers + len(by))
    before = [a.copy() for a in inputs]
    expected = reference.evaluate_with_bounds(module, signature.name, inputs)
    where = f" ({m}x{n}x{k} bias {bias} by {by}, {consumers} consumers of {block_m}x{block_n})"
    results = kernel.run(*inputs, prefill_nan=True)
    check_results(results, expected, [np.dtype(np.float16)], where=where)
    assert (results[0] == 0).any() and (results[0] > 0).any(), "relu: both signs expected"
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)


_SANITIZED = """
import sys
from tests.gpu.test_matmul_ws import _run
shape = tuple(int(x) for x in sys.argv[2].split("x"))
size = tuple(int(x) for x in sys.argv[4].split("x"))
_run(sys.argv[1], shape, int(sys.argv[3]), size)
print("ran")
"""


@pytest.mark.parametrize("tool", sorted(SANITIZER_SUMMARY))
@pytest.mark.parametrize("shape", ["1x128x128", "2x128x256"])
def test_sanitizer_clean(tool: str, shape: str) -> None:
    """No out-of-bounds access and no shared-memory hazard between the producer's TMA
    loads, the consumers' MMAs and the stage releases (5 k steps on a 3-stage ring)."""
    run_sanitized(tool, _SANITIZED, "f16", shape, "3", "256x512x320")
