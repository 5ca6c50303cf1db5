"""The reduction schedules' kernels run on the CPU (tests/unit/gpu/launch_emulation.py:
every launch a loop nest over its blocks, its barriers and all-reduces phases over its
threads), against the reference at odd sizes and in every knob setting, without a GPU;
the emulation catches a kernel that skips work or combines wrongly, and refuses what it
does not model (a shuffle, a collective inside control flow)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IndexType, IntegerAttr, i32

import schedir
from schedir.dialects.gpu import (
    AllReduceOp,
    AllReduceOperation,
    AllReduceOperationAttr,
    LaunchOp,
    ShuffleOp,
    SubgroupReduceOp,
)
from tests.helpers import check_kernel, resized_example
from tests.unit.gpu.launch_emulation import NotEmulable, launches_to_loops, scheduled_module

REPO = Path(__file__).parents[3]
COLSUM = REPO / "schedules" / "colsum_cuda.mlir"


def _colsum(rows: int, cols: int) -> str:
    return resized_example("colsum_cuda.mlir", {999: rows, 1000: cols})


@pytest.mark.parametrize(
    ("rows", "cols", "knobs"),
    [
        (8191, 1000, {"kernels": 2}),
        (100003, 3, {"kernels": 2, "blocks": 0, "row_step": 4}),
        (5, 33, {"kernels": 2}),
        (130, 2052, {"kernels": 2, "blocks": 2, "row_step": 16}),
        (999, 1000, {"kernels": 2, "row_step": 4}),
        (37, 1001, {"kernels": 2, "threads": 0, "blocks": 2}),
        (300, 4100, {"kernels": 2, "threads": 2, "row_step": 16}),
        (3, 100003, {"kernels": 2, "threads": 0}),
        # Rows a multiple of G: the split region (G x N partials, a warp per column's G).
        (256, 64, {"kernels": 2}),
        (128, 1, {"kernels": 2}),
        (384, 1001, {"kernels": 2, "row_step": 16}),
        (512, 37, {"kernels": 2, "blocks": 2, "threads": 0}),
        (768, 2052, {"kernels": 2, "blocks": 1, "row_step": 4}),
        (1024, 4100, {"kernels": 2, "threads": 2}),
        # ... with a block per row chunk and column chunk (where 4T divides the columns;
        # the N x G schedule otherwise)
        (256, 4096, {"kernels": 2, "grid": 1}),
        (384, 1024, {"kernels": 2, "grid": 1, "threads": 0, "row_step": 16}),
        (256, 4100, {"kernels": 2, "grid": 1}),
        (1024, 2049, {"kernels": 2, "grid": 1, "blocks": 1}),
        (8191, 1000, {"kernels": 2, "grid": 1}),
        # rows a multiple of G, the N x G schedule chosen ("partials" = 1)
        (256, 64, {"kernels": 2, "partials": 1}),
        (1024, 4100, {"kernels": 2, "partials": 1, "threads": 2, "blocks": 2}),
        # one kernel ("kernels" = 1) where R divides the rows and W the columns: each
        # strip shape (W x R: 32x64, 32x128, 16x128, 16x64) and row step; strips of 8
        # columns where 8 divides the columns (region 0b: fewer than 128 rows, a single
        # peeled step: the accumulators of a step loop are written after a barrier, which
        # the emulation cannot split; the GPU tests run those); otherwise the two-kernel
        # regions
        (256, 64, {"kernels": 1}),
        (128, 96, {"kernels": 1, "strip": 1, "row_step": 4}),
        (512, 48, {"kernels": 1, "strip": 2, "row_step": 16}),
        (192, 16, {"kernels": 1, "strip": 3}),
        (100, 1000, {"kernels": 1, "strip_rows": 0}),
        (127, 24, {"kernels": 1, "strip": 1, "strip_rows": 0}),
        (1, 8, {"kernels": 1, "strip_rows": 0}),
        (37, 1001, {"kernels": 1}),
        (255, 63, {"kernels": 1}),
    ],
    ids=str,
)
def test_column_sums_match_the_reference(
    rows: int, cols: int, knobs: dict[str, int] | None
) -> None:
    payload = _colsum(rows, cols)
    host = launches_to_loops(scheduled_module(payload, COLSUM, knobs))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=rows)


ROWS = ("softmax", "layernorm", "rowsum", "matvec", "softmax_f16")
"""Schedules of a row reduction (examples of 1000 rows by 999 columns)."""


@pytest.mark.parametrize(("rows", "cols"), [(37, 1000), (3, 100003), (5, 33)], ids=str)
@pytest.mark.parametrize("name", ROWS)
def test_row_reductions_match_the_reference(name: str, rows: int, cols: int) -> None:
    """Rows of 33 are within one chunk of every schedule (its loops of one iteration)."""
    payload = resized_example(f"{name}_cuda.mlir", {1000: rows, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=cols)


@pytest.mark.parametrize(
    ("name", "threads"),
    [(n, t) for n in ("softmax", "layernorm", "rowsum") for t in (0, 2)] + [("matvec", 4)],
    ids=str,
)
def test_threads_knob_regions_match_the_reference(name: str, threads: int) -> None:
    payload = resized_example(f"{name}_cuda.mlir", {1000: 7, 999: 2050})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": threads}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=threads)


@pytest.mark.parametrize("cols", [2048, 1001], ids=["static", "dynamic"])
@pytest.mark.parametrize("threads", [0, 1, 2, 3], ids=["256", "512", "1024", "chunks"])
@pytest.mark.parametrize("name", ["softmax", "layernorm", "softmax_f16"])
def test_rows_in_registers_match_the_reference(name: str, threads: int, cols: int) -> None:
    """Every region of the "threads" knob; rows of 2048 make static pieces in the register
    regions (vectors, the later passes' reads forwarded to the first's), rows of 1001
    dynamic ones (loops, nothing forwarded)."""
    payload = resized_example(f"{name}_cuda.mlir", {1000: 3, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": threads}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=cols + threads)


@pytest.mark.parametrize("cols", [4096, 2048, 1001, 1000])
@pytest.mark.parametrize(
    ("name", "threads"), [("softmax", 9), ("softmax", 10), ("layernorm", 9)], ids=str
)
def test_chunks_of_four_match_the_reference(name: str, threads: int, cols: int) -> None:
    """The regions of 4 floats per thread and chunk: unrolled static chunks (the 4-wide
    partials' barriers eliminated, x and the published max read once), a row of one
    chunk or less and a partial chunk (1001: scalar; 1000: softmax's region 10 and
    layernorm's region 9 peel it, static 4-wide tiles)."""
    payload = resized_example(f"{name}_cuda.mlir", {1000: 3, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": threads}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=cols + threads)


@pytest.mark.parametrize("cols", [4100, 9000])
@pytest.mark.parametrize(("name", "threads"), [("softmax", 10), ("layernorm", 9)], ids=str)
def test_peeled_chunk_matches_the_reference(name: str, threads: int, cols: int) -> None:
    """softmax's region 10 and layernorm's region 9: full chunks of 2048 then the peeled
    last chunk (static)."""
    payload = resized_example(f"{name}_cuda.mlir", {1000: 3, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": threads}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=cols)


@pytest.mark.parametrize("cols", [8192, 2048, 9000, 1000, 1001, 33])
def test_matvec_chunks_of_four_match_the_reference(cols: int) -> None:
    """matvec's region 5 (4 floats of the row and of x per thread and chunk of 2048):
    unrolled static chunks, a row of one chunk, full chunks and a peeled static last chunk
    (9000, 1000: vectors of 4 in 250 threads), a last chunk of dynamic tiles (1001) and a
    row shorter than a warp's chunk (33)."""
    payload = resized_example("matvec_cuda.mlir", {1000: 3, 999: cols})
    schedule = REPO / "schedules" / "matvec_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": 5}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=cols)


@pytest.mark.parametrize(("rows", "cols"), [(5, 2048), (37, 1001), (3, 33)], ids=str)
@pytest.mark.parametrize("name", ["rowsum", "matvec"])
def test_pieces_region_matches_the_reference(name: str, rows: int, cols: int) -> None:
    """rowsum's and matvec's region 3: static pieces (vectors) and dynamic ones."""
    payload = resized_example(f"{name}_cuda.mlir", {1000: rows, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": 3}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=cols)


def test_a_wrong_all_reduce_is_caught() -> None:
    """The row sums combined with max instead of add."""
    payload = resized_example("rowsum_cuda.mlir", {1000: 4, 999: 700})
    module = scheduled_module(payload, REPO / "schedules" / "rowsum_cuda.mlir", {"threads": 1})
    (reduction,) = [op for op in module.walk() if isinstance(op, AllReduceOp)]
    reduction.op = AllReduceOperationAttr(AllReduceOperation.MAXNUMF)
    kernel = schedir.compile(launches_to_loops(module), target="cpu")
    with pytest.raises(AssertionError):
        check_kernel(kernel, payload, seed=2)


@pytest.mark.parametrize(
    ("rows", "cols"), [(37, 1000), (8, 1001), (16, 100), (3, 33), (4, 5)], ids=str
)
@pytest.mark.parametrize("threads", [4, 5, 6], ids=["warp_rows_1", "warp_rows_4", "warp_rows_8"])
@pytest.mark.parametrize("name", ["rowsum"])
def test_warp_rows_match_the_reference(name: str, threads: int, rows: int, cols: int) -> None:
    """The warp-per-row regions (R rows per block): a full last chunk, a short one (33,
    100: fewer lanes than a warp), rows within one chunk (5); R must divide the rows, so
    the rows are padded up to a multiple of R."""
    rows = -(-rows // (1, 4, 8)[threads - 4]) * (1, 4, 8)[threads - 4]
    payload = resized_example(f"{name}_cuda.mlir", {1000: rows, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": threads}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=rows + cols)


@pytest.mark.parametrize(("rows", "cols"), [(3, 33), (2, 128), (4, 5)], ids=str)
@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_softmax_warp_rows_in_one_chunk_match_the_reference(
    name: str, rows: int, cols: int
) -> None:
    """softmax's and layernorm's region 4 with rows of at most one chunk (longer rows keep the lanes'
    accumulators in registers across a barrier, which the emulation does not model: the
    GPU tests cover them)."""
    payload = resized_example(f"{name}_cuda.mlir", {1000: rows, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": 4}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=rows + cols)


def test_a_wrong_subgroup_reduce_is_caught() -> None:
    """The warp's row sums combined over clusters of 16 lanes instead of the warp."""
    payload = resized_example("rowsum_cuda.mlir", {1000: 4, 999: 700})
    module = scheduled_module(payload, REPO / "schedules" / "rowsum_cuda.mlir", {"threads": 5})
    (reduction,) = [op for op in module.walk() if isinstance(op, SubgroupReduceOp)]
    reduction.cluster_size = IntegerAttr(16, i32)
    kernel = schedir.compile(launches_to_loops(module), target="cpu")
    with pytest.raises(AssertionError):
        check_kernel(kernel, payload, seed=2)


def test_a_kernel_that_skips_blocks_is_caught() -> None:
    """Half the grid of the row-chunk kernel: half the partials stay zero."""
    payload = _colsum(256, 64)
    module = scheduled_module(payload, COLSUM, {"kernels": 2})
    launches = [op for op in module.walk() if isinstance(op, LaunchOp)]
    chunks = launches[0]
    half = ConstantOp.from_int_and_width(64, IndexType())
    chunks.parent_block().insert_op_before(half, chunks)  # type: ignore[union-attr]  # a launch sits in a block
    chunks.operands = [half.result, *chunks.operands[1:]]
    kernel = schedir.compile(launches_to_loops(module), target="cpu")
    with pytest.raises(AssertionError):
        check_kernel(kernel, payload, seed=1)


def test_shuffles_are_refused() -> None:
    """After gpu-lower-reductions an all-reduce is shuffles, which the emulation refuses."""
    payload = resized_example("rowsum_cuda.mlir", {1000: 4, 999: 999})
    module = scheduled_module(payload, REPO / "schedules" / "rowsum_cuda.mlir", {"threads": 1})
    (reduction,) = [op for op in module.walk() if isinstance(op, AllReduceOp)]
    shuffle = ShuffleOp(reduction.value, reduction.value, reduction.value, "xor")
    assert reduction.parent is not None
    reduction.parent.insert_op_before(shuffle, reduction)
    with pytest.raises(NotEmulable, match=r"gpu\.shuffle"):
        launches_to_loops(module)


@pytest.mark.parametrize(
    ("region", "cols"),
    [(5, 8192), (5, 8192 + 512 + 3), (6, 255), (7, 1025), (7, 2 * 8192 + 1)],
    ids=str,
)
@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_chunks_in_registers_match_the_reference(name: str, region: int, cols: int) -> None:
    """softmax's and layernorm's chunks in registers (regions 5-7: T = 512, 256, 1024), their
    chunk loops unrolled by 8192 / T: a whole group (every read of x forwarded to the
    first pass's), a group and a partial chunk (a remainder), rows shorter than a chunk and
    one float past it."""
    payload = resized_example(f"{name}_cuda.mlir", {1000: 2, 999: cols})
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    host = launches_to_loops(scheduled_module(payload, schedule, {"threads": region}))
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=cols + region)
