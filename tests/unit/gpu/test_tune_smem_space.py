"""The search space of schedules/matmul_smem_cuda.mlir: its constraints keep points that
build, and the kernels of sampled valid points assemble for sm_90 within the limits the
constraints state (the shared tiles they size, 256 threads, `min_blocks` blocks per SM); a
point whose registers still spill (the constraints bound the accumulators, not every live
value: 128x128x32 with 8-float B copy rows spills 8 bytes) is one the tuner's `ptxas -v`
check prunes. The shapes that reach cuBLAS's speed (128x128 blocks, k steps of 8 and 16,
8x8 thread tiles whose columns are one piece or two strided 4-wide pieces; 128x256 blocks
with 8x16 thread tiles at one block per SM) are in the space, assemble without spills and
read the shared tiles with 16-byte loads, every piece's accumulator in registers."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import schedir
from schedir.autotune import prepare
from schedir.autotune.compile_pool import ptx_limits
from schedir.autotune.space import Point, Space
from schedir.options import CompileOptions
from tests.helpers import matmul_payload
from tests.unit.gpu.ptxas_report import ptxas_log

REPO = Path(__file__).parents[3]
SCHEDULE = REPO / "schedules" / "matmul_smem_cuda.mlir"


def _space() -> Space:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.mlir"
        path.write_text(matmul_payload(512, 512, 512))
        prepared = prepare(str(path), str(SCHEDULE), None, CompileOptions(target="cuda"))
    return prepared.loaded.problem.space


SPACE = _space()
VALID = SPACE.valid_points() or []


def test_constraints_keep_the_points_the_schedule_can_map() -> None:
    default = SPACE.default()
    assert default is not None and default in VALID
    assert 0 < len(VALID) < SPACE.raw_size
    for p in SPACE.points():
        m, n, k, tn, ak, bn, blocks, split, _raster = (int(p[x]) for x in SPACE.names)  # pyright: ignore[reportArgumentType]
        tm, am, bk = 256 // tn, 256 // ak, 256 // bn
        even = all(a % b == 0 for a, b in ((m, tm), (n, tn), (m, am), (k, ak), (k, bk), (n, bn)))
        acc = (m // tm) * (n // tn)
        ok = (
            even
            and 16 <= acc <= 128 // blocks
            and (m + n) * k * 4 <= 48 * 1024
            and 4 <= k // ak <= 8
            and 4 <= n // bn <= 8
            and n % (split * tn) == 0
            and n // split // tn >= 4
        )
        assert (p in VALID) == ok, p


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(point=st.sampled_from(VALID), size=st.sampled_from([(512, 512, 512), (256, 512, 384)]))
def test_valid_points_assemble_within_their_limits(
    ptxas: Path, point: Point, size: tuple[int, int, int]
) -> None:
    kernel = schedir.compile(matmul_payload(*size), schedule=SCHEDULE, target="cuda", knobs=point)
    ptx = kernel.stages["ptx"]
    m, n, k = (int(point[x]) for x in ("block_m", "block_n", "block_k"))  # pyright: ignore[reportArgumentType]
    shared = re.findall(r"\.shared \.align \d+ \.b8 __wg_matmul_kernel_\d+\[(\d+)\]", ptx)
    assert sorted(int(s) for s in shared) == sorted([m * k * 4, k * n * 4]), shared
    assert ".maxntid 16, 16, 1" in ptx and f".minnctapersm {point['min_blocks']}" in ptx
    log = ptxas_log(ptx, ptxas)
    if not re.search(r"\b0 bytes spill stores", log):
        assert "registers spill" in ptx_limits(ptx, "sm_90"), log  # pruned by the tuner
    smem = re.search(r"(\d+) bytes smem", log)
    assert smem and int(smem.group(1)) == (m + n) * k * 4 <= 48 * 1024, log


def _with_defaults(knobs: Point) -> Point:
    default = SPACE.default()
    assert default is not None
    return {**default, **knobs}


@pytest.mark.parametrize("split", [1, 2])
@pytest.mark.parametrize("block_k", [8, 16])
def test_the_fast_shapes_are_in_the_space_and_assemble_cleanly(
    ptxas: Path, block_k: int, split: int
) -> None:
    point = _with_defaults(
        {
            "block_m": 128,
            "block_n": 128,
            "block_k": block_k,
            "thread_n": 16,
            "copy_a_k": block_k // 4,
            "copy_b_n": 32,
            "split_n": split,
        }
    )
    assert point in VALID
    kernel = schedir.compile(
        matmul_payload(4096, 4096, 4096), schedule=SCHEDULE, target="cuda", knobs=point
    )
    ptx = kernel.stages["ptx"]
    # An 8x8 thread tile: per k step one 8-float row of A and of B (two 16-byte shared
    # loads each), 64 FMAs: split in two pieces, A is still read once (both pieces'
    # accumulators are loop-carried registers, so no barrier or C access separates them).
    assert len(re.findall(r"ld\.shared\.v4\.(?:b|f)32", ptx)) == 4 * block_k
    assert not re.search(r"ld\.shared\.(?:b|f)32", ptx)
    assert len(re.findall(r"fma\.rn\.f32", ptx)) == 64 * block_k
    # Barriers: after the fill, after the copies, after the compute (none between pieces).
    assert len(re.findall(r"bar\.sync", ptx)) == 3
    log = ptxas_log(ptx, ptxas)
    assert re.search(r"\b0 bytes spill stores", log), log
    used = re.search(r"Used (\d+) registers", log)
    assert used and int(used.group(1)) <= 128, log


@pytest.mark.parametrize("split", [1, 2])
def test_one_block_per_sm_holds_8x16_thread_tiles(ptxas: Path, split: int) -> None:
    """With `min_blocks` = 1 a thread may hold 128 accumulators: 128x256 blocks of 16x8
    thread tiles (A: 16 rows of four 16-byte loads per 16-wide k step, B: two per k)
    assemble within the 255 registers of one 256-thread block per SM, without spills."""
    point = _with_defaults(
        {
            "block_m": 128,
            "block_n": 256,
            "block_k": 16,
            "thread_n": 32,
            "copy_a_k": 4,
            "copy_b_n": 32,
            "min_blocks": 1,
            "split_n": split,
        }
    )
    assert point in VALID
    assert _with_defaults({**point, "min_blocks": 2}) not in VALID
    kernel = schedir.compile(
        matmul_payload(1024, 1024, 512), schedule=SCHEDULE, target="cuda", knobs=point
    )
    ptx = kernel.stages["ptx"]
    assert ".minnctapersm 1" in ptx
    assert len(re.findall(r"ld\.shared\.v4\.(?:b|f)32", ptx)) == 16 * 4 + 16 * 2
    assert len(re.findall(r"fma\.rn\.f32", ptx)) == 128 * 16
    log = ptxas_log(ptx, ptxas)
    assert re.search(r"\b0 bytes spill stores", log), log
    assert "registers spill" not in ptx_limits(ptx, "sm_90")
