"""Every GPU schedule of schedules/ compiles its example payload to PTX without a GPU, and
ptxas accepts that PTX for sm_90 (a missing ptxas fails under CI=true, see conftest)."""

from __future__ import annotations

import re
import subprocess
import tempfile
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
    """softmax keeps its row maximum, sum, the 512 per-thread partials of its reductions and
    one slot per warp for each of its two all-reduces (16 floats) in shared memory; the
    exponentials are recomputed, never stored (no 999-float buffer)."""
    kernel = schedir.compile(
        REPO / "examples" / "softmax_cuda.mlir",
        schedule=REPO / "schedules" / "softmax_cuda.mlir",
        target="cuda",
    )
    ptx = kernel.stages["ptx"]
    assert len(re.findall(r"\.shared \.align 16 \.\w+ __wg_softmax_kernel_\d+", ptx)) == 5
    assert "[2048]" in ptx and "[64]" in ptx
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


def _resized(example: str, sizes: dict[str, int]) -> str:
    text = (REPO / "examples" / example).read_text()
    for old, new in sizes.items():
        text = text.replace(old, str(new))
    return text


def test_elementwise_vector_accesses_where_tiles_are_full(ptxas: Path) -> None:
    """At 1024x1024 every 4x512 block tile is full: each thread reads its four contiguous
    elements of a, b and c with one ld.global.v4 each (a once, though both generics read
    it) and writes them with one st.global.v4, unpredicated; tanh and exp on vector<4xf32>
    are scalarized into libdevice calls. At the example's 1001x777 every access is scalar."""
    schedule = REPO / "schedules" / "elementwise_cuda.mlir"
    payload = _resized("elementwise_cuda.mlir", {"1001": 1024, "777": 1024})
    ptx = schedir.compile(payload, schedule=schedule, target="cuda").stages["ptx"]
    assert len(re.findall(r"\bld\.global\.v4\.(?:b|f)32", ptx)) == 3
    assert len(re.findall(r"\bst\.global\.v4\.(?:b|f)32", ptx)) == 1
    assert not re.search(r"\b(?:ld|st)\.global\.(?:b|f)32", ptx)
    assert not re.search(r"@%p\d+ (?:ld|st)\.global", ptx)
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"
    odd = schedir.compile(
        REPO / "examples" / "elementwise_cuda.mlir", schedule=schedule, target="cuda"
    )
    assert not re.search(r"\.global\.v\d", odd.stages["ptx"])


def test_layernorm_keeps_partials_in_shared_memory_without_copies(ptxas: Path) -> None:
    """layernorm, like softmax: the row sum and sum of squares (one float each), the 512
    partials of both reductions (reused by the second reduction) and a slot per warp for
    each all-reduce in shared memory; no row-sized buffer, and no memref.copy between shared buffers (the
    reductions' zero fills are kept apart, so no fill result is copied by every thread)."""
    kernel = schedir.compile(
        REPO / "examples" / "layernorm_cuda.mlir",
        schedule=REPO / "schedules" / "layernorm_cuda.mlir",
        target="cuda",
    )
    assert "memref.copy" not in kernel.stages["scheduled"]
    ptx = kernel.stages["ptx"]
    assert len(re.findall(r"\.shared \.align 16 \.\S+ __wg_layernorm_kernel_\d+", ptx)) == 5
    assert "[2048]" in ptx and "[64]" in ptx
    assert "[3996]" not in ptx
    assert re.search(r"\.maxntid 512, 1, 1", ptx)
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def test_matmul_smem_stages_tiles_in_shared_memory(ptxas: Path) -> None:
    """At 256^3 the shared-memory matmul declares its A (128x16) and B (16x128) tiles as
    two 8 KiB shared buffers, fills them with 16-byte global loads and shared stores, syncs
    the block (bar.sync) and reads them with 16-byte shared loads into 8x8x16 FMAs per k
    step; the accumulator stays in registers: C is written only after the k loop, with
    16-byte stores. ptxas fits it in 128 registers (.minnctapersm 2) without spilling."""
    schedule = REPO / "schedules" / "matmul_smem_cuda.mlir"
    ptx = schedir.compile(_resized_matmul(256), schedule=schedule, target="cuda").stages["ptx"]
    shared = re.findall(r"\.shared \.align \d+ \.b8 __wg_matmul_kernel_\d+\[(\d+)\]", ptx)
    assert sorted(shared) == ["8192", "8192"], shared
    assert "bar.sync" in ptx
    assert re.search(r"st\.shared\.v4\.(b|f)32", ptx)
    assert len(re.findall(r"ld\.shared\.v4\.(?:b|f)32", ptx)) == 64
    assert len(re.findall(r"fma\.rn\.f32", ptx)) == 8 * 8 * 16
    assert len(re.findall(r"st\.global\.v4\.(?:b|f)32", ptx)) == 2 * 16  # fill and result
    assert not re.search(r"(ld|st)\.global\.(b|f)32", ptx)
    assert ".minnctapersm 2" in ptx
    log = _ptxas_log(ptx, ptxas)
    assert "0 bytes spill stores" in log, log
    used = re.search(r"Used (\d+) registers", log)
    assert used and int(used.group(1)) <= 128, log
    assert "16384 bytes smem" in log, log


def _ptxas_log(ptx: str, ptxas: Path) -> str:
    """ptxas -v's resource report for `ptx` (sm_90)."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "kernel.ptx"
        source.write_text(ptx)
        done = subprocess.run(
            [str(ptxas), "-arch=sm_90", "-v", str(source), "-o", str(source.with_suffix(".o"))],
            capture_output=True,
            text=True,
            check=True,
        )
    return done.stdout + done.stderr
