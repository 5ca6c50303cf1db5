"""The reduction schedules (softmax, layernorm, rowsum, matvec, softmax_f16, colsum) compile
to PTX without a GPU, ptxas accepts it for sm_90 (a missing ptxas fails under CI=true, see
conftest), and their cross-thread reductions are warp shuffles: 5 `shfl.sync.bfly` steps
within each warp and 3 over the 8 warp results of a 256-thread block per gpu.all_reduce,
also at odd sizes (a row of 100003 elements, 8191 rows)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import schedir
from schedir.gpu import assemble

REPO = Path(__file__).parents[3]

ALL_REDUCES = {"softmax": 2, "layernorm": 2, "rowsum": 1, "matvec": 1, "softmax_f16": 2}
"""The gpu.all_reduce ops of each schedule (one per row reduction)."""


def _payload(name: str, rows: int | None = None, cols: int | None = None) -> str:
    """The example of `name` (rows x cols 1000x999), resized."""
    text = (REPO / "examples" / f"{name}_cuda.mlir").read_text()
    if cols is not None:
        text = text.replace("999", str(cols))
    if rows is not None:
        text = text.replace("1000", str(rows))
    return text


def _ptx(name: str, payload: str) -> str:
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    return schedir.compile(payload, schedule=schedule, target="cuda").stages["ptx"]


@pytest.mark.parametrize("name", sorted(ALL_REDUCES))
def test_reductions_are_shuffle_butterflies(name: str, ptxas: Path) -> None:
    ptx = _ptx(name, _payload(name))
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == 8 * ALL_REDUCES[name], name
    # the cross-warp step: one shared slot per warp, written by lane 0, read after bar.sync
    assert re.search(r"\.shared \.align 16 \.b8 __wg_\w+\[32\]", ptx), name
    assert "bar.sync" in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize(("name", "rows", "cols"), [("rowsum", 8191, 1000), ("softmax", 3, 100003)])
def test_odd_sizes_assemble(name: str, rows: int, cols: int, ptxas: Path) -> None:
    ptx = _ptx(name, _payload(name, rows, cols))
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == 8 * ALL_REDUCES[name]
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def test_colsum_reads_rows_coalesced(ptxas: Path) -> None:
    """colsum: one column per lane, a warp per 32 columns; no shared memory, no shuffle."""
    ptx = _ptx("colsum", (REPO / "examples" / "colsum_cuda.mlir").read_text())
    assert ".maxntid 32, 1, 1" in ptx
    assert ".shared" not in ptx and "shfl" not in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"
