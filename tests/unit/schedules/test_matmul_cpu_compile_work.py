"""The CPU matmul schedule at sizes its tiles do not divide: the compile work is bounded by
the tiles, not by the problem.

Each peeled block of C used to get a buffer of its own (copied in and out), and a matmul
smaller than the blocks copied its whole result at the return; the vectorizer turned each
copy into one vector of the block (vector<256x512xf32>), which LLVM took minutes to
compile (1000x1031x997: 24 minutes). The counts here: no `memref.copy`, one f32
allocation (the result), and no vector with more lanes than the largest tile row or
register tile of the knobs, for sizes that peel at every level and sizes below a block.
"""

from __future__ import annotations

import re
from math import prod
from pathlib import Path

import pytest

import schedir
from tests.helpers import check_kernel, matmul_payload, payload_part

ROOT = Path(__file__).parents[3]
SCHEDULE = ROOT / "schedules" / "matmul_cpu.mlir"
KNOBS = {"block_n": 64, "block_m": 64, "block_k": 64, "reg_m": 6, "reg_n": 16, "unroll_k": 4}


def _largest_vector_bound(knobs: dict[str, int]) -> int:
    """Lanes of the largest vector the schedule builds: a row of a block (the fill, the
    A packing copy) or a register tile (accumulator, A and B operands)."""
    rm, rn, uk = knobs["reg_m"], knobs["reg_n"], knobs["unroll_k"]
    return max(knobs["block_n"], knobs["block_k"], rm * rn, rm * uk, uk * rn)


@pytest.mark.parametrize(
    ("m", "n", "k"),
    [
        (70, 75, 67),  # every level peels: 64 + 6, 64 + 11, 64 + 3
        (13, 29, 9),  # below a block: no tile loop left, the result carried as ?x?
        (131, 67, 131),  # two main blocks and a tail in M and K
    ],
)
def test_odd_sizes_build_no_block_sized_copy(m: int, n: int, k: int) -> None:
    payload = matmul_payload(m, n, k)
    kernel = schedir.compile(payload, SCHEDULE, knobs=KNOBS)
    ir = payload_part(kernel.stages["scheduled"])
    assert "memref.copy" not in ir, "a block of C is copied"
    f32_allocs = re.findall(r"memref\.alloc\(\)[^:]*: memref<[0-9x]*xf32>", ir)
    assert len(f32_allocs) == 1, f"allocations of f32 (only the result's): {f32_allocs}"
    bound = _largest_vector_bound(KNOBS)
    lanes = [
        prod(int(d) for d in shape.split("x"))
        for shape in re.findall(r"vector<((?:\d+x)*\d+)xf32>", ir)
    ]
    assert lanes and max(lanes) <= bound, f"a vector of {max(lanes)} lanes (bound {bound})"
    # What reaches LLVM likewise: no vector wider than the bound.
    llvm_lanes = [int(w) for w in re.findall(r"<(\d+) x float>", kernel.stages["llvm-ir"])]
    assert max(llvm_lanes) <= bound
    check_kernel(kernel, payload, seed=m + n + k)
