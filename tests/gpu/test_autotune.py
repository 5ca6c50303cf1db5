"""The autotuner on a real GPU: a candidate that faults on the device (illegal address) and
one that hangs are recorded with their causes and the run goes on with a fresh worker;
two devices measure in parallel and agree with one on the winner's validity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import schedir
from tests.gpu import autotune_faults

pytestmark = pytest.mark.gpu

REPO = Path(__file__).parents[2]
PAYLOAD = REPO / "examples" / "matmul_smem_cuda.mlir"
SCHEDULE = REPO / "schedules" / "matmul_smem_cuda.mlir"


def test_device_fault_and_hang_do_not_end_the_run() -> None:
    result = schedir.tune(
        str(PAYLOAD),
        schedule=str(SCHEDULE),
        target="cuda",
        budget=12,
        strategy="random",
        seed=1,
        measure_hook=autotune_faults.illegal_address_and_hang,
        first_timeout=20.0,
        peer=False,
    )
    by_n: dict[int, set[str]] = {}
    for r in result.trials:
        if r.duplicate_of is None and r.status not in ("invalid", "duplicate"):
            by_n.setdefault(json.loads(r.point)["thread_n"], set()).add(r.status)
    # Each thread split is a third of the valid space: the seed's 12 candidates include
    # both faulty ones (fixed seed: deterministic).
    assert by_n[8] == {"crashed"}
    assert by_n[32] <= {"timed-out", "pruned"} and "timed-out" in by_n[32]
    crashed = [r for r in result.trials if r.status == "crashed"]
    assert all("ILLEGAL_ADDRESS" in r.message for r in crashed)
    assert result.knobs["thread_n"] == 16  # the only split that neither faults nor hangs
    assert "verified" in by_n[16]


def test_two_devices_share_the_measurements(tmp_path: Path) -> None:
    cuda = pytest.importorskip("cuda.bindings.driver")
    cuda.cuInit(0)
    if cuda.cuDeviceGetCount()[1] < 2:
        pytest.skip("needs two GPUs")
    result = schedir.tune(
        str(PAYLOAD),
        schedule=str(SCHEDULE),
        target="cuda",
        budget=12,
        devices=(0, 1),
        storage=str(tmp_path / "j.journal"),
        peer=False,
    )
    assert result.candidates == 12
    assert result.best_ms > 0 and result.default_ms is not None


def test_candidates_reach_the_device_as_cubins() -> None:
    """The compile workers hand over what ptxas made: every compiled candidate's kernels
    are loaded as cubins (no driver JIT), and they verify as the PTX did."""
    result = schedir.tune(
        str(PAYLOAD),
        schedule=str(SCHEDULE),
        target="cuda",
        budget=6,
        strategy="random",
        seed=3,
        peer=False,
    )
    b = result.breakdown
    assert b is not None
    compiled = [
        r
        for r in result.trials
        if r.duplicate_of is None
        and r.status in ("verified", "wrong-result", "crashed", "timed-out", "error")
    ]
    assert compiled and all(r.status == "verified" for r in compiled)
    assert b.cubins == len(compiled)
    assert "ptxas" in b.compile_stages
