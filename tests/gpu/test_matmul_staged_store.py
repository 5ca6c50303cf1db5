"""The accumulator store through shared memory (`store_columns` knob,
`transform.schedir.nvgpu.stage_accumulator_store`) on the device: the f16, bf16 and bias +
relu schedules storing in chunks of 64, 128 or 256 columns through each warpgroup's staging
buffer, a block per tile and persistent grids (the next tile's store reusing the buffer),
one and two consumers; whole tiles (4096^3), edge tiles (65x136x72, 1000x1032x1016: the
pieces of the last columns partial) and rows no multiple of 16 bytes (N = 4097: element
stores); outputs pre-filled with NaN, compared with `schedir.reference`;
compute-sanitizer's racecheck and synccheck clean (the named barriers order the buffer's
writes and reads). The chunks stored out by TMA (`tma_buffers` knob: 1, 2 or 4 swizzled
buffers per consumer in turn; boxes of the warpgroup's 64 rows or, `tma_box_rows` 16,
each warp's own 16 stored by the warp alone; `stmatrix`: the buffers written by
stmatrix) at whole and edge tiles (TMA clips them), on persistent
grids with many tiles per block (the next tile's chunks reusing buffers whose stores may
still drain), and the fallback where C's rows are no multiple of 16 bytes (N = 4097);
compute-sanitizer's memcheck, racecheck and synccheck clean on them."""

from __future__ import annotations

import pytest

from tests.gpu.conftest import run_sanitized
from tests.gpu.test_matmul_persistent import SHAPES, run_case

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize(
    ("kind", "shape", "size", "ctas", "stages", "columns"),
    [
        ("f16", "2x128x256", (1000, 1032, 1016), 0, 4, 64),
        ("f16", "2x128x256", (65, 136, 72), 0, 4, 64),
        ("f16", "2x128x256", (1000, 1032, 1016), 3, 3, 128),
        ("f16", "2x128x256", (4096, 4096, 4096), 132, 4, 64),
        ("f16", "2x128x256", (4095, 4097, 4096), 0, 4, 64),
        ("f16", "1x128x128", (1000, 1032, 1016), 7, 4, 128),
        ("bf16", "2x128x256", (1000, 1032, 1016), 132, 4, 64),
        ("bias_relu", "2x128x256", (1000, 1032, 1016), 0, 4, 64),
        ("bias_relu", "2x128x256", (1000, 1032, 1016), 5, 3, 128),
        ("bias_relu", "2x128x256", (1000, 1032, 1016), 132, 3, 256),
        ("f16", "2x128x256", (4095, 4097, 4096), 132, 3, 256),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else None,
)
def test_staged_store_matches_the_reference(
    kind: str, shape: str, size: tuple[int, int, int], ctas: int, stages: int, columns: int
) -> None:
    run_case(kind, SHAPES[shape], size, ctas, stages, store_columns=columns)


@pytest.mark.parametrize(
    ("kind", "size", "ctas", "stages", "buffers", "box_rows"),
    [
        ("f16", (1000, 1032, 1016), 0, 4, 2, 0),
        ("f16", (1000, 1032, 1016), 132, 4, 2, 16),
        ("f16", (1000, 1032, 72), 3, 4, 2, 0),
        ("f16", (1000, 1032, 72), 3, 4, 2, 16),
        ("f16", (65, 136, 72), 0, 4, 1, 0),
        ("f16", (65, 136, 72), 0, 4, 1, 16),
        ("f16", (2048, 2048, 512), 7, 4, 2, 0),
        ("f16", (2048, 2048, 512), 7, 4, 2, 16),
        ("f16", (2048, 2048, 512), 7, 4, 1, 16),
        ("f16", (2048, 2048, 512), 5, 3, 4, 0),
        ("f16", (4096, 4096, 4096), 132, 4, 2, 0),
        ("f16", (4096, 4096, 4096), 132, 4, 2, 16),
        ("f16", (4095, 4097, 4096), 132, 4, 2, 16),
        ("bf16", (1000, 1032, 1016), 132, 4, 2, 16),
        ("bias_relu", (1000, 1032, 1016), 132, 4, 2, 0),
        ("bias_relu", (1000, 1032, 1016), 3, 4, 1, 16),
        ("bias_relu", (4096, 4096, 4096), 132, 4, 2, 16),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else None,
)
def test_tma_store_matches_the_reference(
    kind: str, size: tuple[int, int, int], ctas: int, stages: int, buffers: int, box_rows: int
) -> None:
    run_case(
        kind,
        SHAPES["2x128x256"],
        size,
        ctas,
        stages,
        store_columns=64,
        tma_buffers=buffers,
        tma_box_rows=box_rows,
    )


@pytest.mark.parametrize(
    ("kind", "size", "ctas", "stages", "buffers", "box_rows"),
    [
        ("f16", (1000, 1032, 1016), 3, 4, 0, 0),
        ("f16", (4096, 4096, 4096), 132, 4, 0, 0),
        ("f16", (4095, 4097, 4096), 132, 4, 0, 0),
        ("bf16", (1000, 1032, 72), 7, 4, 0, 0),
        ("bias_relu", (1000, 1032, 1016), 132, 4, 0, 0),
        ("f16", (1000, 1032, 1016), 3, 4, 2, 0),
        ("bias_relu", (65, 136, 72), 0, 4, 1, 16),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else None,
)
def test_stmatrix_matches_the_reference(
    kind: str, size: tuple[int, int, int], ctas: int, stages: int, buffers: int, box_rows: int
) -> None:
    """The staging buffers written by stmatrix (padded rows; swizzled TMA boxes)."""
    run_case(
        kind,
        SHAPES["2x128x256"],
        size,
        ctas,
        stages,
        store_columns=64,
        tma_buffers=buffers,
        tma_box_rows=box_rows,
        stmatrix=1,
    )


_TMA_SANITIZED = """
import sys
from tests.gpu.test_matmul_persistent import SHAPES, run_case
run_case("f16", SHAPES["2x128x256"], (300, 1000, 320), 3, 4, store_columns=64, tma_buffers=2)
run_case("f16", SHAPES["2x128x256"], (300, 1000, 320), 3, 4, store_columns=64, tma_buffers=2,
         tma_box_rows=16)
run_case("bias_relu", SHAPES["2x128x256"], (300, 520, 128), 0, 4, store_columns=64, tma_buffers=1,
         tma_box_rows=16)
run_case("f16", SHAPES["2x128x256"], (300, 1000, 320), 3, 4, store_columns=64, stmatrix=1)
run_case("f16", SHAPES["2x128x256"], (300, 1000, 320), 3, 4, store_columns=64, tma_buffers=2,
         stmatrix=1)
print("ran")
"""


@pytest.mark.parametrize("tool", ["memcheck", "racecheck", "synccheck"])
def test_tma_store_sanitizer_clean(tool: str) -> None:
    """No out-of-bounds access (TMA clips the edge tiles), no shared-memory hazard between
    a chunk's writes and its TMA store or a later chunk's writes into a buffer still being
    read (3 persistent blocks over many tiles), no barrier misuse."""
    run_sanitized(tool, _TMA_SANITIZED)


_SANITIZED = """
import sys
from tests.gpu.test_matmul_persistent import SHAPES, run_case
run_case("f16", SHAPES["2x128x256"], (256, 1000, 320), 3, 3, store_columns=64)
run_case("bias_relu", SHAPES["2x128x256"], (300, 520, 128), 0, 4, store_columns=64)
print("ran")
"""


@pytest.mark.parametrize("tool", ["racecheck", "synccheck"])
def test_sanitizer_clean(tool: str) -> None:
    """No shared-memory hazard between a chunk's writes and reads (or the next chunk's, or
    the next tile's, on 3 persistent blocks) and no barrier misuse."""
    run_sanitized(tool, _SANITIZED)
