"""The column sums' kernels run on the CPU (tests/unit/gpu/launch_emulation.py: every
launch a loop nest over its blocks and threads), against the reference at odd sizes and
every knob setting, without a GPU; the emulation catches a kernel that skips work, and
refuses kernels whose threads exchange values."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IndexType

import schedir
from schedir.dialects.gpu import LaunchOp
from tests.helpers import check_kernel, resized_example
from tests.unit.gpu.launch_emulation import NotEmulable, launches_to_loops, scheduled_module

REPO = Path(__file__).parents[3]
COLSUM = REPO / "schedules" / "colsum_cuda.mlir"


def _colsum(rows: int, cols: int) -> str:
    return resized_example("colsum_cuda.mlir", {999: rows, 1000: cols})


@pytest.mark.parametrize(
    ("rows", "cols", "knobs"),
    [
        (8191, 1000, None),
        (100003, 3, {"blocks": 0, "row_step": 4}),
        (5, 33, None),
        (130, 2052, {"blocks": 2, "row_step": 16}),
        (999, 1000, {"row_step": 4}),
    ],
    ids=str,
)
def test_column_sums_match_the_reference(
    rows: int, cols: int, knobs: dict[str, int] | None
) -> None:
    payload = _colsum(rows, cols)
    host = launches_to_loops(scheduled_module(payload, COLSUM, knobs))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=rows)


def test_a_kernel_that_skips_blocks_is_caught() -> None:
    """Half the grid of the row-chunk kernel: half the partials stay zero."""
    payload = _colsum(256, 64)
    module = scheduled_module(payload, COLSUM)
    launches = [op for op in module.walk() if isinstance(op, LaunchOp)]
    chunks = launches[1]
    half = ConstantOp.from_int_and_width(64, IndexType())
    chunks.parent_block().insert_op_before(half, chunks)  # type: ignore[union-attr]  # a launch sits in a block
    chunks.operands = [half.result, *chunks.operands[1:]]
    kernel = schedir.compile(launches_to_loops(module), target="cpu")
    with pytest.raises(AssertionError):
        check_kernel(kernel, payload, seed=1)


def test_shuffles_are_refused() -> None:
    payload = resized_example("rowsum_cuda.mlir", {1000: 4, 999: 999})
    module = scheduled_module(payload, REPO / "schedules" / "rowsum_cuda.mlir")
    with pytest.raises(NotEmulable, match=r"gpu\.all_reduce"):
        launches_to_loops(module)
