"""schedules/matmul_f16_mma_sync_cuda.mlir run on the CPU (tests/unit/gpu/mma_block_emulation.py:
a block's threads in lockstep, ldmatrix, mma.sync and cp.async groups as the PTX ISA
defines them): at sizes the tiles divide, the pipelined kernel (cp.async ring of 2-4
stages, padded rows or not, 16-, 32- and 64-wide k steps, 64x32 and 64x64 warp tiles, fewer k
steps than stages) computes A x B exactly (small integers), reading no shared-memory
slot before its copies completed (the slots start as NaN), and so does the kernel at odd
sizes."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.lowering.gpu import launches
from schedir.lowering.gpu_workgroup_to_dynamic_shared_memory import (
    move_to_dynamic_shared_memory,
)
from schedir.pipeline import apply_schedule
from tests.unit.gpu.mma_block_emulation import run_matmul

REPO = Path(__file__).parents[3]
SCHEDULE = REPO / "schedules" / "matmul_f16_mma_sync_cuda.mlir"
EXAMPLE = REPO / "examples" / "matmul_f16_mma_sync_cuda.mlir"


def _scheduled(m: int, n: int, k: int, knobs: dict[str, int]) -> ModuleOp:
    payload = EXAMPLE.read_text()
    payload = payload.replace("1000x1016xf16", f"{m}x{k}xf16")
    payload = payload.replace("1016x1032xf16", f"{k}x{n}xf16")
    payload = payload.replace("1000x1032xf32", f"{m}x{n}xf32")
    schedule = SCHEDULE.read_text()
    for knob, value in knobs.items():
        schedule, count = re.subn(rf'"{knob}"> = \d+ from', f'"{knob}"> = {value} from', schedule)
        assert count == 1, knob
    ctx = get_context()
    module = parse_module(payload, "<payload>", ctx=ctx)
    assert apply_schedule(ctx, module, parse_module(schedule, "<schedule>", ctx=ctx))
    return module


SELECTED = {"block_m": 128, "block_n": 256, "block_k": 64}
"""The selected block tile and k step."""
PREVIOUS = {"block_n": 128, "block_k": 32, "stages": 2}
"""An earlier selection: 2 stages of 128x32 / 32x128 tiles (static shared memory)."""
FOUR_WARPS = {"block_n": 128, "warps": 4, "warps_n": 2}
"""128x128 blocks of 4 warps (64x64 warp tiles, 128 threads)."""

CASES = [
    ({}, (128, 256, 192)),
    ({}, (256, 512, 64)),
    ({}, (200, 264, 104)),
    ({}, (130, 512, 128)),
    ({"block_n": 128}, (256, 256, 192)),
    (PREVIOUS, (128, 256, 96)),
    (PREVIOUS, (128, 128, 64)),
    (PREVIOUS | {"stages": 3, "pad": 0}, (128, 128, 160)),
    (PREVIOUS | {"stages": 3, "pad": 0}, (128, 128, 64)),
    (PREVIOUS | {"block_k": 16, "stages": 4}, (128, 128, 112)),
    (PREVIOUS | {"block_k": 16, "stages": 4}, (128, 128, 32)),
    (PREVIOUS | {"block_n": 256, "block_k": 16, "stages": 3}, (128, 256, 64)),
    (PREVIOUS, (65, 136, 72)),
    (PREVIOUS, (200, 264, 104)),
    (PREVIOUS | {"block_m": 64, "warps_n": 8}, (129, 72, 100)),
    (PREVIOUS, (130, 256, 64)),
    (FOUR_WARPS, (256, 256, 192)),
    (FOUR_WARPS, (200, 264, 104)),
    ({"raster_group": 2}, (384, 256, 64)),
    ({"raster_group": 4}, (200, 264, 104)),
    ({"fragments": 0}, (128, 256, 192)),
    ({"fragments": 1}, (128, 256, 192)),
    (PREVIOUS | {"fragments": 1}, (128, 128, 96)),
    (PREVIOUS | {"fragments": 1}, (200, 264, 104)),
    ({"ring_offsets": 1}, (128, 256, 192)),
    ({"fragments": 1, "ring_offsets": 1}, (128, 256, 256)),
    ({"fragments": 0, "ring_offsets": 1}, (128, 256, 256)),
    (PREVIOUS | {"fragments": 0}, (128, 128, 96)),
    (PREVIOUS | {"block_k": 16, "stages": 2}, (128, 128, 48)),
]
"""(knobs, (m, n, k)): the selected 3 stages of padded 128x64 / 64x256 tiles (64x64 warp
tiles), 3 of 128x64 / 64x128 tiles (64x32 warp tiles), the earlier 2 stages of 128x32 / 32x128 tiles, 3 stages unpadded, 4 stages of
16-wide k steps, 128x256 blocks of 16-wide k steps; k of 1 to 10 steps (as few as the
stages or fewer: the copies past the end predicated off); and odd sizes (edge tiles:
synchronous copies into the multi-buffered, padded slots, the element loads where a tile
is partial; with edges in M only, B's copies are asynchronous and A's synchronous, and
the loop is not pipelined); blocks of 4 warps (64x64 warp tiles, 128 threads copying);
blocks in raster groups of 2 and 4 rows of tiles (every tile still computed once: a
tile no block computes stays NaN); the fragments of each k step's first sub-step loaded
in the step before and each later sub-step's before the sub-step before's mma.sync ops
(the default, fragments 2), only the former (fragments 1) and neither (fragments 0),
also with one sub-step per k step on 2 stages (the wait for the next step's copies
right after they are issued); the ring slots' offsets recomputed in each step (the
default) and carried by the k loop (ring_offsets 1)."""


@pytest.mark.parametrize(
    ("knobs", "size"),
    CASES,
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_pipelined_kernel_computes_a_times_b(
    knobs: dict[str, int], size: tuple[int, int, int]
) -> None:
    m, n, k = size
    module = _scheduled(m, n, k, knobs)
    text = str(module)
    tiles = SELECTED | knobs
    whole = m % tiles["block_m"] == 0 and n % tiles["block_n"] == 0 and k % tiles["block_k"] == 0
    # Pipelined where the tiles divide the sizes (edge tiles keep synchronous copies) and
    # there is a k loop (one k step: canonicalization folds the loop away).
    assert "nvgpu.ldmatrix" in text
    assert ("numGroups" in text) == (whole and k > tiles["block_k"])
    rng = np.random.default_rng(m + n + k)
    a = rng.integers(-3, 4, size=(m, k)).astype(np.float16)
    b = rng.integers(-3, 4, size=(k, n)).astype(np.float16)
    c = run_matmul(module, a, b)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64))


DYNAMIC_CASES = [
    (PREVIOUS | {"stages": 3}, (128, 128, 160)),
    (PREVIOUS | {"stages": 4}, (256, 128, 96)),
    (PREVIOUS | {"block_k": 64, "stages": 3}, (128, 128, 256)),
    (PREVIOUS | {"block_n": 256, "stages": 3, "pad": 0}, (128, 256, 128)),
    (PREVIOUS | {"block_m": 256, "warps_n": 2, "stages": 4}, (256, 128, 160)),
    ({"stages": 4}, (128, 256, 320)),
    (FOUR_WARPS | {"block_k": 32, "stages": 6}, (128, 128, 256)),
    (FOUR_WARPS | {"block_k": 32, "stages": 5}, (128, 128, 96)),
    (PREVIOUS | {"stages": 3}, (200, 264, 104)),
]
"""(knobs, (m, n, k)): rings beyond the 48 KiB of static shared memory (3 and 4 stages of
padded 128x32 / 32x128 tiles, 3 stages of 64-wide k steps, 128x256 and 256x128 blocks of
64x64 warp tiles, 4 stages of the selected tiles, 5 and 6 stages of 32-wide k steps for
blocks of 4 warps: more k steps than stages and fewer), pipelined and at odd sizes
(synchronous edge copies)."""


@pytest.mark.parametrize(
    ("knobs", "size"),
    DYNAMIC_CASES,
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_rings_in_dynamic_shared_memory_compute_a_times_b(
    knobs: dict[str, int], size: tuple[int, int, int]
) -> None:
    """The shared tiles as views of the launch's dynamic shared memory
    (gpu-workgroup-to-dynamic-shared-memory), each at its own offset: no two rings
    overlap (an overlap corrupts a slot: NaN or a wrong sum)."""
    m, n, k = size
    module = _scheduled(m, n, k, knobs)
    (launch,) = launches(module)
    launch = move_to_dynamic_shared_memory(launch)
    assert launch.dynamicSharedMemorySize is not None
    assert "gpu.dynamic_shared_memory" in str(module)
    rng = np.random.default_rng(m + n + k)
    a = rng.integers(-3, 4, size=(m, k)).astype(np.float16)
    b = rng.integers(-3, 4, size=(k, n)).astype(np.float16)
    c = run_matmul(module, a, b)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64))
