"""Softmax's and layernorm's rows-in-registers regions at the benchmark's 8192 columns, as
PTX without a GPU: the kernel assembles for sm_90, reduces with shfl.sync, keeps no local
memory (ptxas -v: 0 bytes stack frame) and runs BARRIERS bar.sync. The partials of
tile_reduction_using_forall are written and re-read by their own thread at [0, tid]
(eliminate_barriers' access slots drop the barrier between the two, and the all-reduce,
which synchronizes a block of several warps, orders them); every thread merges the reduced
value with the init itself (reduce_to_all_reduce's merge_in_threads) and writes it into its
slot (a view of the partials), and forward_reads makes the readers' loads of slot 0 that
value: what remains per reduction is the all-reduce's exchange."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import schedir
from tests.helpers import resized_example
from tests.unit.gpu.ptxas_report import ptxas_log

REPO = Path(__file__).parents[3]

BARRIERS = 2
"""bar.sync per kernel: 1 per block reduction (max and sum, or mean and variance); 6 before
each thread merged and read its own result (thread 0's merge, its publication), 11 before
the all-reduce counted as a barrier (and ran once), 13 before the access slots."""


@pytest.mark.parametrize("threads", [0, 1, 2], ids=["256", "512", "1024"])
@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_register_region_barriers(name: str, threads: int, ptxas: Path) -> None:
    payload = resized_example(f"{name}_cuda.mlir", {1000: 4, 999: 8192})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    ptx = schedir.compile(
        payload, schedule=schedule, target="cuda", knobs={"threads": threads}
    ).stages["ptx"]
    kernels = re.findall(r"\.entry\s+(\w+)", ptx)
    assert len(kernels) == 1, kernels
    assert "shfl.sync.bfly" in ptx
    assert ".local" not in ptx
    assert len(re.findall(r"\bbar\.sync\b", ptx)) == BARRIERS
    log = ptxas_log(ptx, ptxas)
    assert "0 bytes stack frame" in log, log
