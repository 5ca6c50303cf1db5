"""Every GPU schedule of schedules/ compiles its example payload to PTX without a GPU, and
ptxas accepts that PTX for sm_90 (a missing ptxas fails under CI=true, see conftest)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import schedir
from schedir.gpu import assemble, kernel_names

REPO = Path(__file__).parents[3]
SCHEDULES = sorted((REPO / "schedules").glob("*_cuda.mlir"))


def test_every_cuda_schedule_has_an_example() -> None:
    assert SCHEDULES, "no GPU schedules found"
    for schedule in SCHEDULES:
        example = REPO / "examples" / schedule.name
        assert example.exists(), f"{schedule.name} has no example payload"
        assert schedule.read_text().startswith("//"), f"{schedule.name} lacks its comment"


@pytest.mark.parametrize("schedule", SCHEDULES, ids=lambda p: p.name)
def test_schedule_compiles_to_ptx_ptxas_accepts(schedule: Path, ptxas: Path) -> None:
    kernel = schedir.compile(REPO / "examples" / schedule.name, schedule=schedule, target="cuda")
    ptx = kernel.stages["ptx"]
    assert ".target sm_90" in ptx
    names = kernel_names(ptx)
    assert names == [f"{kernel.name}_kernel"], names
    # The launch bound of known_block_size reaches the PTX.
    assert re.search(r"\.maxntid \d+, \d+, \d+", ptx)
    cubin = assemble(ptx, "sm_90", ptxas=ptxas)
    assert cubin[:4] == b"\x7fELF"
    for stage in ("payload", "scheduled", "llvm-dialect", "llvm-ir", "ptx"):
        assert kernel.stages[stage], stage


def test_shared_memory_of_block_buffers(ptxas: Path) -> None:
    """softmax keeps its row maximum, sum and the partial results of its reductions (256,
    then 16) in shared memory; the exponentials are recomputed, never stored (no 999-float
    buffer)."""
    kernel = schedir.compile(
        REPO / "examples" / "softmax_cuda.mlir",
        schedule=REPO / "schedules" / "softmax_cuda.mlir",
        target="cuda",
    )
    ptx = kernel.stages["ptx"]
    assert len(re.findall(r"\.shared \.align 16 \.\w+ __wg_softmax_kernel_\d+", ptx)) == 4
    assert "[1024]" in ptx and "[64]" in ptx
    assert "[3996]" not in ptx
    assert "bar.sync" in ptx
    assert re.search(r"ld\.shared", ptx) and re.search(r"st\.shared", ptx)


def _resized_matmul(n: int) -> str:
    text = (REPO / "examples" / "matmul_cuda.mlir").read_text()
    for odd in ("999", "1001", "1003"):
        text = text.replace(odd, str(n))
    return text


def test_matmul_vector_loads_only_where_alignment_is_proven(ptxas: Path) -> None:
    """At 256^3 the rows of A, B and C and every thread's 8-wide piece start on 16 bytes
    (pointer arguments `align 16`, strides and offsets multiples of 4): the loads and
    stores are ld/st.global.v4. At the example's odd sizes (row lengths 1001, 1003)
    nothing proves it, and every access stays scalar. The launch's nvvm.minctasm reaches
    the PTX as .minnctapersm (128 registers, two blocks per SM)."""
    schedule = REPO / "schedules" / "matmul_cuda.mlir"
    aligned = schedir.compile(_resized_matmul(256), schedule=schedule, target="cuda")
    ptx = aligned.stages["ptx"]
    assert re.search(r"\.param \.u64 \.ptr \.align 16 matmul_kernel_param_1\b", ptx)
    assert re.search(r"ld\.global\.v4\.(b|f)32", ptx)
    assert re.search(r"st\.global\.v4\.(b|f)32", ptx)
    assert not re.search(r"ld\.global\.(b|f)32", ptx)
    assert ".minnctapersm 2" in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"
    odd = schedir.compile(REPO / "examples" / "matmul_cuda.mlir", schedule=schedule, target="cuda")
    assert not re.search(r"\.global\.v\d", odd.stages["ptx"])
