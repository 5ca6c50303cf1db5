"""GPU schedules written as upstream writes them (tests/upstream_gpu.py) compile to PTX
that ptxas accepts for sm_90: One-Shot Bufferize's default fully dynamic layout at the
function boundary is specialized at the entry (the host ABI passes contiguous arrays), so
the copy of an argument written in place to its output parameter is a gpu.memcpy.
The same cases run on a device in tests/gpu/test_upstream_gpu_schedules.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir.gpu import assemble, kernel_names
from tests.upstream_gpu import CASES, Case

DYNAMIC = "strided<[?, ?], offset: ?>"


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.kind}-{'x'.join(map(str, c.sizes))}")
def test_upstream_schedule_compiles_and_ptxas_accepts(case: Case, ptxas: Path) -> None:
    kernel = schedir.compile(case.text, target="cuda")
    # The schedule as upstream runs it: fully dynamic layouts at the function boundary.
    assert DYNAMIC in kernel.stages["scheduled"]
    ptx = kernel.stages["ptx"]
    assert ".target sm_90" in ptx
    assert len(kernel_names(ptx)) == 1
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"
    host = kernel.stages["llvm-dialect"]
    # An argument written in place is copied to the output parameter on the device.
    assert ("mgpuMemcpy" in host) == (case.kind in ("matmul", "elementwise_in_place"))


@settings(max_examples=6)
@given(
    kind=st.sampled_from(["matmul", "elementwise", "elementwise_in_place"]),
    m=st.integers(1, 70),
    n=st.integers(1, 70),
    k=st.integers(1, 40),
    block_tile=st.sampled_from([(8, 16), (16, 32), (3, 7)]),
    threads=st.sampled_from([(4, 8), (8, 32), (1, 1)]),
)
def test_upstream_schedule_compiles_at_any_size(
    kind: str,
    m: int,
    n: int,
    k: int,
    block_tile: tuple[int, int],
    threads: tuple[int, int],
) -> None:
    sizes = (m, n, k) if kind == "matmul" else (m, n)
    case = Case(kind, sizes, block_tile=block_tile, threads=threads)
    kernel = schedir.compile(case.text, target="cuda")
    assert ".entry" in kernel.stages["ptx"]
