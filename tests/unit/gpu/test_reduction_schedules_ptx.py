"""The reduction schedules (softmax, layernorm, rowsum, matvec, softmax_f16, colsum) compile
to PTX without a GPU, ptxas accepts it for sm_90 (a missing ptxas fails under CI=true, see
conftest), and their cross-thread reductions are warp shuffles: per gpu.all_reduce, 5
`shfl.sync.bfly` steps within each warp and log2(W) over the W warp results of the block
(one shared slot per warp), also at odd sizes (a row of 100003 elements, 8191 rows)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import schedir
from schedir.gpu import assemble
from tests.helpers import resized_example

REPO = Path(__file__).parents[3]

ALL_REDUCES = {"softmax": 2, "layernorm": 2, "rowsum": 1, "matvec": 1, "softmax_f16": 2}
"""The gpu.all_reduce ops of each schedule (one per row reduction)."""


def _payload(name: str, rows: int = 1000, cols: int = 999) -> str:
    """The example of `name` (rows x cols 1000x999), resized."""
    return resized_example(f"{name}_cuda.mlir", {1000: rows, 999: cols})


def _shuffles_per_all_reduce(ptx: str) -> int:
    """5 steps in a warp plus log2 of the block's warps (from its .maxntid)."""
    found = re.search(r"\.maxntid (\d+), 1, 1", ptx)
    assert found, "no 1-D launch bound"
    warps = int(found.group(1)) // 32
    return 5 + warps.bit_length() - 1


def _ptx(name: str, payload: str) -> str:
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    return schedir.compile(payload, schedule=schedule, target="cuda").stages["ptx"]


@pytest.mark.parametrize("name", sorted(ALL_REDUCES))
def test_reductions_are_shuffle_butterflies(name: str, ptxas: Path) -> None:
    ptx = _ptx(name, _payload(name))
    shuffles = _shuffles_per_all_reduce(ptx)
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == shuffles * ALL_REDUCES[name], name
    # the cross-warp step: one shared slot per warp, written by lane 0, read after bar.sync
    slots = 4 * (1 << (shuffles - 5))
    assert re.search(rf"\.shared \.align 16 \.b8 __wg_\w+\[{slots}\]", ptx), name
    assert "bar.sync" in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize(("name", "rows", "cols"), [("rowsum", 8191, 1000), ("softmax", 3, 100003)])
def test_odd_sizes_assemble(name: str, rows: int, cols: int, ptxas: Path) -> None:
    ptx = _ptx(name, _payload(name, rows, cols))
    shuffles = _shuffles_per_all_reduce(ptx)
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == shuffles * ALL_REDUCES[name]
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def test_colsum_reads_rows_coalesced(ptxas: Path) -> None:
    """colsum: one column per lane, a warp per 32 columns; no shared memory, no shuffle."""
    ptx = _ptx("colsum", (REPO / "examples" / "colsum_cuda.mlir").read_text())
    assert ".maxntid 32, 1, 1" in ptx
    assert ".shared" not in ptx and "shfl" not in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"
