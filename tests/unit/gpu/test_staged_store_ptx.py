"""The wgmma schedules' accumulator store through shared memory (`store_columns` knob,
`transform.schedir.nvgpu.stage_accumulator_store`) without a GPU: the f16, bf16 and bias +
relu schedules, one and two consumers, a block per tile and persistent grids, whole tiles
(4096^3), edge tiles (1000x1032x1016) and rows no multiple of 16 bytes (N = 4097) compile
to sm_90a PTX that ptxas assembles without serializing the wgmma, other C75xx warnings or
spills; each chunk of columns is written to shared memory and copied out between the
warpgroup's named barriers (`bar.sync <1 + warpgroup>, 128`), in 16-byte pieces where the
rows allow, else element by element (each warp 32 adjacent ones of a row); `store_columns = 0` keeps the stores from registers (64 is selected); a staging
buffer that does not fit beside the ring is a constraint violation. With `tma_buffers`
(1, 2, 4) each chunk is written into its swizzled buffer, fenced for the async proxy and
stored by one thread's `cp.async.bulk.tensor` after one named barrier (two with one
buffer), the reuse of a buffer waited for with `cp.async.bulk.wait_group.read`, the last
stores drained before the consumer ends; where C's rows are no multiple of 16 bytes the
padded buffer and 16-byte pieces stay; too many buffers or chunks other than 64 columns
are constraint violations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from schedir.diagnostics import TransformError
from schedir.gpu.ptx import unknown_intrinsics
from tests.unit.gpu.ptxas_report import assert_assembles_cleanly
from tests.unit.gpu.test_persistent_ptx import compile_matmul

REPO = Path(__file__).parents[3]
NAMED_BARRIER = re.compile(r"bar\.sync\s+(%r\d+|[1-9]\d*), 128;")
"""A warpgroup's named barrier (its id 1 + the warpgroup, in a register or folded)."""


@pytest.mark.parametrize(
    ("kind", "size", "knobs", "chunks"),
    [
        ("f16", (4096, 4096, 4096), {"store_columns": 64}, 4),
        ("f16", (4096, 4096, 4096), {"store_columns": 128, "stages": 3, "persistent": 132}, 2),
        ("f16", (1000, 1032, 1016), {"store_columns": 64, "persistent": 3}, 4),
        ("f16", (4095, 4097, 4096), {"store_columns": 64}, 4),
        ("bf16", (1000, 1032, 1016), {"store_columns": 64}, 4),
        ("bias_relu", (1000, 1032, 1016), {"store_columns": 64}, 4),
        ("bias_relu", (4096, 4096, 4096), {"store_columns": 64, "persistent": 132}, 4),
        ("bias_relu", (1000, 1032, 1016), {"store_columns": 256, "stages": 3}, 1),
        ("f16", (4096, 4096, 4096), {"store_columns": 256, "stages": 3, "persistent": 132}, 1),
        ("f16", (1000, 1032, 1016), {"store_columns": 128, "consumers": 1, "block_n": 128}, 1),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else None,
)
def test_staged_store_assembles_cleanly(
    kind: str, size: tuple[int, int, int], knobs: dict[str, int], chunks: int, ptxas: Path
) -> None:
    kernel = compile_matmul(kind, size, knobs)
    ptx = kernel.stages["ptx"]
    assert not unknown_intrinsics(ptx)
    assert_assembles_cleanly(ptx, ptxas)
    assert "wgmma.mma_async" in ptx
    # Two named barriers per chunk, around its writes into the buffer.
    assert len(NAMED_BARRIER.findall(ptx)) == 2 * chunks
    assert "st.shared.b32" in ptx
    m, n, _ = size
    # 16-byte pieces where the rows allow, else element by element (each warp 32
    # adjacent elements of a row).
    assert ("ld.shared.v4.b32" in ptx) == (n % 8 == 0)
    assert ("ld.shared.b16" in ptx) == (n % 8 != 0)
    if (m, n) == (4096, 4096):
        # Whole tiles: plain 16-byte stores, nothing element by element.
        assert "st.global.v4.b32" in ptx and "st.global.b16" not in ptx
    elif n % 8 == 0:
        # Edge tiles of aligned rows: a whole piece in one predicated 16-byte store.
        assert "@!w st.global.v4.b32" in ptx and "st.global.b16" in ptx
    else:
        # Rows of 8194 bytes: no 16-byte stores; a consumer's 64 x 256 elements over its
        # 128 threads, each stored once, predicated.
        assert "st.global.v4" not in ptx
        assert len(re.findall(r"@p st\.global\.b16", ptx)) == 64 * 256 // 128


def test_no_staging_is_the_store_from_registers() -> None:
    """store_columns = 0: no staging buffer, no named barrier; the schedules' selection (64)
    stages."""
    ptx = compile_matmul("f16", (1000, 1032, 1016), {"store_columns": 0}).stages["ptx"]
    assert not NAMED_BARRIER.search(ptx) and "ld.shared.v4" not in ptx
    selected = compile_matmul("f16", (1000, 1032, 1016), {}).stages["ptx"]
    assert NAMED_BARRIER.search(selected) and "ld.shared.v4" in selected


def test_a_staging_buffer_beyond_the_shared_memory_is_a_constraint_violation() -> None:
    """128 x 256 blocks on 4 stages take 192 KiB of ring: 128 rows of 128 + 8 f16 more do
    not fit (64 columns do)."""
    with pytest.raises(
        TransformError, match=r"constraint violated for params \(128, 256, 4, 128, 0, 2, 0\)"
    ):
        compile_matmul("f16", (1000, 1032, 1016), {"store_columns": 128})


TMA_STORE = re.compile(
    r"@(%p\d+) cp\.async\.bulk\.tensor\.2d\.global\.shared::cta\.bulk_group "
    r"\[%rd\d+, \{%r\d+, %r\d+\}\], \[%r\d+\];\s*@\1 cp\.async\.bulk\.commit_group;"
)
"""A chunk's TMA store and commit by the warpgroup's leader (one predicate)."""
READ_WAIT = re.compile(r"(@%p\d+ )?cp\.async\.bulk\.wait_group\.read\s+(\d+);")


@pytest.mark.parametrize(
    ("kind", "size", "knobs"),
    [
        ("f16", (4096, 4096, 4096), {"tma_buffers": 2}),
        ("f16", (1000, 1032, 1016), {"tma_buffers": 1, "persistent": 3}),
        ("f16", (2048, 2048, 512), {"tma_buffers": 4, "stages": 3, "persistent": 7}),
        ("bf16", (1000, 1032, 1016), {"tma_buffers": 2}),
        ("bias_relu", (1000, 1032, 1016), {"tma_buffers": 2}),
        ("bias_relu", (4096, 4096, 4096), {"tma_buffers": 2, "persistent": 0}),
        ("f16", (4096, 4096, 4096), {"tma_buffers": 2, "tma_box_rows": 16}),
        ("f16", (1000, 1032, 1016), {"tma_buffers": 1, "tma_box_rows": 16, "persistent": 3}),
        ("bias_relu", (1000, 1032, 1016), {"tma_buffers": 1, "tma_box_rows": 16}),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else None,
)
def test_tma_store_assembles_cleanly(
    kind: str, size: tuple[int, int, int], knobs: dict[str, int], ptxas: Path
) -> None:
    kernel = compile_matmul(kind, size, knobs)
    ptx = kernel.stages["ptx"]
    assert not unknown_intrinsics(ptx)
    assert_assembles_cleanly(ptx, ptxas)
    buffers = knobs["tma_buffers"]
    chunks = 4
    meetings = chunks * (2 if buffers == 1 else 1)
    # Each chunk: its writes, the async-proxy fence, one meeting (and one before the
    # writes with a single buffer): the warpgroup's named barrier, or with boxes of 16
    # rows the warp's barrier only; one TMA store + commit by the leader; no 16-byte
    # copy-out through registers.
    assert len(TMA_STORE.findall(ptx)) == chunks
    assert ptx.count("fence.proxy.async.shared::cta;") == chunks
    by_warp = knobs.get("tma_box_rows") == 16
    assert len(NAMED_BARRIER.findall(ptx)) == (0 if by_warp else meetings)
    assert ptx.count("bar.warp.sync") == (meetings if by_warp else 0)
    assert "ld.shared.v4" not in ptx and "st.global" not in ptx
    # The leader waits before each buffer is written again: B - 2 groups pending at each
    # chunk's barrier (0 before the writes with one buffer); all threads drain theirs at
    # the end of the consumer role.
    waits = READ_WAIT.findall(ptx)
    predicated = [int(n) for p, n in waits if p]
    assert predicated == [max(buffers - 2, 0)] * chunks
    assert [int(n) for p, n in waits if not p] == [0]


def test_tma_store_falls_back_where_rows_are_not_16_byte_multiples(ptxas: Path) -> None:
    """N = 4097 f16: rows of 8194 bytes, which no TMA descriptor describes: the padded
    buffer and the element stores of `tma_buffers = 0`, unchanged."""
    size = (4095, 4097, 4096)
    ptx = compile_matmul("f16", size, {"tma_buffers": 2}).stages["ptx"]
    assert_assembles_cleanly(ptx, ptxas)
    assert "cp.async.bulk.tensor.2d.global" not in ptx and "wait_group.read" not in ptx
    assert ptx == compile_matmul("f16", size, {"tma_buffers": 0}).stages["ptx"]


@pytest.mark.parametrize(
    ("knobs", "params"),
    [
        ({"tma_buffers": 3}, "(128, 256, 4, 64, 3, 2, 0)"),
        ({"tma_buffers": 4}, "(128, 256, 4, 64, 4, 2, 0)"),
        ({"tma_buffers": 2, "store_columns": 128, "stages": 3}, "(128, 256, 3, 128, 2, 2, 0)"),
    ],
)
def test_tma_buffers_out_of_range_are_constraint_violations(
    knobs: dict[str, int], params: str
) -> None:
    """3 buffers do not divide the 4 chunks of 256 columns; 4 of 128 x 64 f16 per consumer
    do not fit beside 4 stages; TMA chunks are 64 f16 columns (one 128-byte swizzle span)."""
    with pytest.raises(TransformError, match=re.escape(f"constraint violated for params {params}")):
        compile_matmul("f16", (1000, 1032, 1016), knobs)


@pytest.mark.parametrize(
    ("kind", "size", "knobs"),
    [
        ("f16", (4096, 4096, 4096), {"stmatrix": 1}),
        ("bias_relu", (1000, 1032, 1016), {"stmatrix": 1}),
        ("bf16", (4095, 4097, 4096), {"stmatrix": 1}),
        ("f16", (1000, 1032, 1016), {"stmatrix": 1, "tma_buffers": 2}),
        ("f16", (2048, 2048, 512), {"stmatrix": 1, "tma_buffers": 4, "stages": 3}),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else None,
)
def test_stmatrix_writes_the_buffers(
    kind: str, size: tuple[int, int, int], knobs: dict[str, int], ptxas: Path
) -> None:
    """stmatrix = 1: each consumer thread's 64 pairs of a tile go into the staging buffer
    as 16 stmatrix.x4 (four 8x8 matrices each), no 4-byte shared stores; the copy-out (or
    the TMA store) as without it."""
    ptx = compile_matmul(kind, size, knobs).stages["ptx"]
    assert_assembles_cleanly(ptx, ptxas)
    assert ptx.count("stmatrix.sync.aligned.m8n8.x4.shared.b16") == 16
    assert "st.shared" not in ptx
    plain = compile_matmul(kind, size, {**knobs, "stmatrix": 0}).stages["ptx"]
    assert "stmatrix" not in plain and plain.count("st.shared.b32") == 64
    assert ("cp.async.bulk.tensor.2d.global" in ptx) == ("tma_buffers" in knobs)


@pytest.mark.parametrize(
    "knobs",
    [
        {"tma_buffers": 1},
        {"tma_buffers": 1, "tma_box_rows": 16},
        {"tma_buffers": 2, "tma_box_rows": 16, "stmatrix": 1},
        {"tma_buffers": 4, "tma_box_rows": 16, "stages": 3, "persistent": 3, "stmatrix": 1},
    ],
    ids=str,
)
def test_tma_store_of_bias_relu_edge_tiles_assembles_without_spills(
    knobs: dict[str, int], ptxas: Path
) -> None:
    """The bias + relu epilogue at edge tiles with TMA stores: the bias loads stay with
    their pairs (not all issued ahead, as for whole tiles), which leaves registers for the
    descriptor, coordinates and leader (ptxas spilled 4-48 bytes at 168 otherwise)."""
    ptx = compile_matmul("bias_relu", (331, 264, 200), knobs).stages["ptx"]
    assert_assembles_cleanly(ptx, ptxas)
    assert "cp.async.bulk.tensor.2d.global" in ptx
