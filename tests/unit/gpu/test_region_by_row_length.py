"""softmax_cuda.mlir's and layernorm_cuda.mlir's defaults pick their "threads" region by the
row length N through transform.alternatives: a row per warp (region 4) where N < 2048;
softmax: chunks of four floats with 512 threads (region 10) where N >= 8192 and 2048
divides N, chunks in registers with 256 threads (region 6) otherwise; layernorm: chunks
of four floats with 512 threads (region 9) otherwise. Without a GPU: the default's PTX is
the chosen region's, and the default's kernel at a long row, run on the CPU through the
launch emulation, matches the reference."""

from __future__ import annotations

from pathlib import Path

import pytest

import schedir
from tests.helpers import check_kernel, resized_example
from tests.unit.gpu.launch_emulation import launches_to_loops, scheduled_module

REPO = Path(__file__).parents[3]

LAUNCH_BOUNDS = {4: 32, 6: 256, 9: 512, 10: 512}
"""Threads per block of the regions the defaults choose."""


def _ptx(name: str, cols: int, knobs: dict[str, int] | None = None) -> str:
    payload = resized_example(f"{name}_cuda.mlir", {1000: 3, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    return schedir.compile(payload, schedule=schedule, target="cuda", knobs=knobs).stages["ptx"]


@pytest.mark.parametrize(
    ("name", "cols", "region"),
    [
        ("softmax", 1000, 4),
        ("softmax", 2048, 6),
        ("softmax", 9000, 6),
        ("softmax", 8192, 10),
        ("softmax", 16384, 10),
        ("layernorm", 1000, 4),
        ("layernorm", 2048, 9),
    ],
    ids=str,
)
def test_default_region_follows_the_row_length(name: str, cols: int, region: int) -> None:
    chosen = _ptx(name, cols)
    assert chosen == _ptx(name, cols, {"threads": region})
    assert f".maxntid {LAUNCH_BOUNDS[region]}, 1, 1" in chosen


@pytest.mark.parametrize("cols", [8192, 16384])
def test_softmax_default_at_long_rows_matches_the_reference(cols: int) -> None:
    """3 rows of 8192 and of 16384 (region 10: four chunks of 2048, unrolled; two groups of
    four) on the CPU."""
    payload = resized_example("softmax_cuda.mlir", {1000: 3, 999: cols})
    host = launches_to_loops(scheduled_module(payload, REPO / "schedules" / "softmax_cuda.mlir"))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=cols)
