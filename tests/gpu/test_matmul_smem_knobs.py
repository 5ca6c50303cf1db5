"""The knobs of schedules/matmul_smem_cuda.mlir beyond block sizes give correct kernels on
the device: each thread's columns in one, two or four strided pieces (`split_n`, every piece's
accumulator hoisted across the k loop), one block per SM (`min_blocks`: 8x16 register
tiles, or more registers), raster groups that divide the grid's rows, do not, or exceed
them (`raster_group`), at full tiles (the vectorized path), at odd sizes (partial tiles
everywhere) and at a mix of both; inputs are left unmodified."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import entry_signature, find_entry
from tests.helpers import check_results, matmul_payload

pytestmark = pytest.mark.gpu

SCHEDULE = Path(__file__).parents[2] / "schedules" / "matmul_smem_cuda.mlir"

POINTS = [
    {"split_n": 2, "block_k": 16, "copy_a_k": 4},
    {"split_n": 1, "raster_group": 4},
    {"split_n": 2, "block_k": 8, "copy_a_k": 2, "raster_group": 16},
    {"split_n": 2, "block_k": 32, "copy_a_k": 8, "raster_group": 8},
    {"block_m": 64, "block_n": 256, "block_k": 32, "thread_n": 32, "copy_a_k": 8,
     "copy_b_n": 64, "split_n": 2},
    {"block_m": 128, "block_n": 256, "block_k": 16, "copy_a_k": 4, "copy_b_n": 32, "thread_n": 32,
     "min_blocks": 1, "split_n": 2},
    {"block_m": 256, "block_n": 128, "block_k": 16, "copy_a_k": 4, "copy_b_n": 32, "thread_n": 16,
     "min_blocks": 1, "split_n": 2, "raster_group": 2},
    {"thread_n": 8, "split_n": 4, "min_blocks": 1},
]  # fmt: skip

SIZES = [
    (512, 512, 160),  # every block tile and k step full (k: a multiple of 8, 16 and 32)
    (999, 1003, 1001),  # partial tiles on every side
    (768, 600, 520),  # full rows of tiles, partial columns, a partial last k step
]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("knobs", POINTS, ids=lambda k: ",".join(f"{n}={v}" for n, v in k.items()))
def test_knob_point_matches_the_reference(
    knobs: dict[str, int], size: tuple[int, int, int]
) -> None:
    m, n, k = size
    payload = matmul_payload(m, n, k)
    kernel = schedir.compile(payload, schedule=SCHEDULE, target="cuda", knobs=knobs)
    module = parse_module(payload, "matmul_smem_knobs", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, 7)
    before = [np.copy(x) for x in inputs]
    (want,) = reference.evaluate_with_bounds(module, signature.name, inputs)
    (got,) = kernel.run(*inputs, prefill_nan=True)
    check_results([got], [want], [np.dtype(np.float32)])
    for x, y in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(x, y)
