"""The wgmma schedules' accumulator store through shared memory (`store_columns` knob,
`transform.schedir.nvgpu.stage_accumulator_store`) without a GPU: the f16, bf16 and bias +
relu schedules, one and two consumers, a block per tile and persistent grids, whole tiles
(4096^3), edge tiles (1000x1032x1016) and rows no multiple of 16 bytes (N = 4097) compile
to sm_90a PTX that ptxas assembles without serializing the wgmma, other C75xx warnings or
spills; each chunk of columns is written to shared memory and copied out between the
warpgroup's named barriers (`bar.sync <1 + warpgroup>, 128`), in 16-byte pieces where the
rows allow, else element by element (each warp 32 adjacent ones of a row); `store_columns = 0` keeps the stores from registers (64 is selected); a staging
buffer that does not fit beside the ring is a constraint violation."""

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
        TransformError, match=r"constraint violated for params \(128, 256, 4, 128\)"
    ):
        compile_matmul("f16", (1000, 1032, 1016), {"store_columns": 128})
