"""softmax_cuda.mlir's default ("threads" = 11) picks its region by row length N through
transform.alternatives: a row per warp (region 4) where N < 2048, chunks of four floats
with 512 threads (region 10) where N >= 8192 and 2048 divides N, chunks in registers with
256 threads (region 6) otherwise. Without a GPU: the default's PTX is the chosen region's,
and the default's kernel at a long row, run on the CPU through the launch emulation,
matches the reference."""

from __future__ import annotations

from pathlib import Path

import pytest

import schedir
from tests.helpers import check_kernel, resized_example
from tests.unit.gpu.launch_emulation import launches_to_loops, scheduled_module

REPO = Path(__file__).parents[3]
SCHEDULE = REPO / "schedules" / "softmax_cuda.mlir"


def _ptx(cols: int, knobs: dict[str, int] | None = None) -> str:
    payload = resized_example("softmax_cuda.mlir", {1000: 3, 999: cols})
    return schedir.compile(payload, schedule=SCHEDULE, target="cuda", knobs=knobs).stages["ptx"]


@pytest.mark.parametrize(
    ("cols", "region"),
    [(1000, 4), (2048, 6), (9000, 6), (8192, 10), (16384, 10)],
    ids=str,
)
def test_default_region_follows_the_row_length(cols: int, region: int) -> None:
    chosen = _ptx(cols)
    assert chosen == _ptx(cols, {"threads": region})
    launch_bound = {4: ".maxntid 32, 1, 1", 6: ".maxntid 256, 1, 1", 10: ".maxntid 512, 1, 1"}
    assert launch_bound[region] in chosen


def test_default_at_a_long_row_matches_the_reference() -> None:
    """3 rows of 8192 (region 10: four chunks of 2048, unrolled) on the CPU."""
    payload = resized_example("softmax_cuda.mlir", {1000: 3, 999: 8192})
    host = launches_to_loops(scheduled_module(payload, SCHEDULE))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=8192)
