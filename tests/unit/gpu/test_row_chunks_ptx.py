"""softmax's and layernorm's chunks in registers (regions 5-7 of their "threads" knob) without a
GPU: at 8192 columns every chunk loop is unrolled, so each thread issues its loads of x (one
float per chunk of T, coalesced: consecutive threads, consecutive floats) once, before any
use, the later passes read them from registers, and ptxas assembles the PTX for sm_90 with
no local memory and no spill; the block reductions' barriers are counted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import schedir
from tests.helpers import resized_example
from tests.unit.gpu.ptxas_report import ptxas_log

REPO = Path(__file__).parents[3]

COLS = 8192

REGIONS = {5: 512, 6: 256, 7: 1024}
"""Region of the "threads" knob: threads per block (and chunk length)."""

ROW_READS = {"softmax": 1, "layernorm": 3}
"""Row-long arrays each thread reads: softmax x; layernorm x, gamma and beta."""

BARRIERS = 2
"""bar.sync per row: one per block reduction, the all-reduce's warp exchange. Every thread
merges the reduced value with the init and writes it into its own slot
(reduce_to_all_reduce's merge_in_threads), and forward_reads makes the readers' loads of
slot 0 that value, so neither a merge by thread 0 nor its publication needs a barrier (6
before: three per reduction). The all-reduce itself orders the partials' slots (no barrier
before it), it runs once (no barrier after its reads), and the shared buffers' deallocs at
the end need none."""


def _ptx(name: str, region: int) -> str:
    text = resized_example(f"{name}_cuda.mlir", {1000: 8, 999: COLS})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    kernel = schedir.compile(text, schedule=schedule, target="cuda", knobs={"threads": region})
    return kernel.stages["ptx"]


@pytest.mark.parametrize("region", list(REGIONS), ids=[f"T{t}" for t in REGIONS.values()])
@pytest.mark.parametrize("name", list(ROW_READS))
def test_chunks_in_registers_read_the_row_once(name: str, region: int, ptxas: Path) -> None:
    threads = REGIONS[region]
    chunks = COLS // threads
    ptx = _ptx(name, region)
    loads = re.findall(r"\bld\.global\.(?:b|f)32\s+%r\d+, \[(%rd\d+)(?:\+(\d+))?\]", ptx)
    assert len(loads) == ROW_READS[name] * chunks, loads
    # One base per array; the chunks at multiples of T floats from it (coalesced).
    bases: dict[str, list[int]] = {}
    for base, offset in loads:
        bases.setdefault(base, []).append(int(offset or 0))
    assert len(bases) == ROW_READS[name], bases
    for offsets in bases.values():
        assert sorted(offsets) == [4 * threads * c for c in range(chunks)], offsets
    # Every load before the first barrier: all of x in flight at once.
    first_barrier = ptx.index("bar.sync")
    x_base = loads[0][0]
    assert all(ptx.index(f"[{x_base}+{4 * threads * c}]") < first_barrier for c in range(1, chunks))
    assert len(re.findall(r"\bst\.global\.(?:b|f)32\b", ptx)) == chunks
    assert not re.search(r"\.global\.v\d", ptx)  # one float per thread and chunk
    assert len(re.findall(r"\bbar\.sync\b", ptx)) == BARRIERS
    assert ".local" not in ptx
    log = ptxas_log(ptx, ptxas)
    assert re.search(r"0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads", log), log
