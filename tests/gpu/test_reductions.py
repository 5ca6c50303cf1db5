"""The reduction schedules on a real device at odd sizes: rows of 1000 and of 100003
elements, 8191 and 3 rows (and the transposed shapes for the column sums), outputs
NaN-prefilled and compared with `schedir.reference`; and compute-sanitizer's racecheck
finds no shared-memory hazard in the warp-shuffle all-reduce (skipped where
compute-sanitizer is not installed)."""

from __future__ import annotations

from pathlib import Path

import pytest

import schedir
from tests.gpu.conftest import run_sanitized
from tests.helpers import check_kernel, resized_example

pytestmark = pytest.mark.gpu

REPO = Path(__file__).parents[2]

ROW_SCHEDULES = ("softmax", "layernorm", "rowsum", "matvec", "softmax_f16")
"""Schedules of a row reduction; their examples are 1000 rows by 999 columns."""

ODD = ((8191, 1000), (3, 100003))


def _compile(
    name: str, dims: dict[int, int], knobs: dict[str, int] | None = None
) -> tuple[schedir.Kernel, str]:
    text = resized_example(f"{name}_cuda.mlir", dims)
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    return schedir.compile(text, schedule=schedule, target="cuda", knobs=knobs), text


@pytest.mark.parametrize(("rows", "cols"), ODD, ids=lambda v: str(v))
@pytest.mark.parametrize("name", ROW_SCHEDULES)
def test_row_reductions_at_odd_sizes(name: str, rows: int, cols: int) -> None:
    kernel, text = _compile(name, {1000: rows, 999: cols})
    check_kernel(kernel, text, seed=11, reduction=None)


@pytest.mark.parametrize(
    ("rows", "cols"), [(8191, 8192), (37, 4096), (3, 2048), (37, 1001)], ids=str
)
@pytest.mark.parametrize("threads", [0, 1, 2, 3], ids=["256", "512", "1024", "chunks"])
@pytest.mark.parametrize("name", ["softmax", "layernorm", "softmax_f16"])
def test_rows_in_registers(name: str, threads: int, rows: int, cols: int) -> None:
    """Every region of the "threads" knob: static pieces (columns a multiple of T, the
    row read once into registers as 16-byte vectors) and dynamic ones (1001 columns)."""
    kernel, text = _compile(name, {1000: rows, 999: cols}, {"threads": threads})
    check_kernel(kernel, text, seed=rows + threads, reduction=None)


CHUNKS_OF_FOUR = {"softmax": (9, 10), "layernorm": (9,)}
"""The regions of the "threads" knob whose threads own 4 floats of each chunk (a 16-byte
access): each reduction's per-thread partials are 4 wide, their barriers eliminated
through barrier_slots' slots of width 4."""


def run_chunks_of_four(name: str, region: int, rows: int, cols: int) -> None:
    """Compile `name` with the chunks-of-four `region` at rows x cols and check it."""
    kernel, text = _compile(name, {1000: rows, 999: cols}, {"threads": region})
    check_kernel(kernel, text, seed=rows + cols + region, reduction=None)


@pytest.mark.parametrize(
    ("rows", "cols"),
    [(8191, 8192), (37, 4096), (3, 2048), (37, 1001), (5, 9000), (8191, 1000)],
    ids=str,
)
@pytest.mark.parametrize(
    ("name", "region"), [(n, r) for n, rs in CHUNKS_OF_FOUR.items() for r in rs], ids=str
)
def test_chunks_of_four(name: str, region: int, rows: int, cols: int) -> None:
    """Static chunks (columns a multiple of the chunk: unrolled, the row read once), a
    remainder loop (9000) and a partial chunk (1001: scalar; 1000: static where the
    region peels it)."""
    run_chunks_of_four(name, region, rows, cols)


@pytest.mark.parametrize(("rows", "cols"), [(8191, 8192), (8191, 1000), (3, 100003)], ids=str)
@pytest.mark.parametrize("name", ["rowsum", "matvec"])
def test_pieces_region(name: str, rows: int, cols: int) -> None:
    """rowsum's and matvec's region 3 (vectorized pieces), static and dynamic."""
    kernel, text = _compile(name, {1000: rows, 999: cols}, {"threads": 3})
    check_kernel(kernel, text, seed=rows, reduction=None)


@pytest.mark.parametrize(
    ("rows", "cols", "threads"),
    [
        (8191, 1000, 4),
        (3, 100003, 4),
        (8192, 8192, 4),
        (8192, 8192, 6),
        (8200, 1001, 5),
        (8200, 1000, 6),
        (8, 33, 6),
    ],
    ids=str,
)
@pytest.mark.parametrize("name", ["rowsum"])
def test_warp_rows_rowsum(name: str, rows: int, cols: int, threads: int) -> None:
    """The warp-per-row regions (4: one row per block, 5: 4 rows, 6: 8 rows): 16-byte
    loads with a peeled last chunk, one subgroup reduction per row, no barrier."""
    kernel, text = _compile(name, {1000: rows, 999: cols}, {"threads": threads})
    check_kernel(kernel, text, seed=rows + cols, reduction=None)


@pytest.mark.parametrize(
    ("rows", "cols"), [(8191, 1000), (3, 100003), (8192, 8192), (37, 1001), (5, 33)], ids=str
)
@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_warp_rows_softmax(name: str, rows: int, cols: int) -> None:
    """softmax's and layernorm's region 4 (a row per warp, chunks of 128 with a peeled
    last chunk, two subgroup reductions, accumulators in registers)."""
    kernel, text = _compile(name, {1000: rows, 999: cols}, {"threads": 4})
    check_kernel(kernel, text, seed=rows + cols, reduction=None)


@pytest.mark.parametrize(
    ("rows", "cols"),
    [
        (8191, 1000),
        (100003, 3),
        (3, 100003),
        (37, 1001),
        (5, 33),
        (8192, 8192),
        # rows a multiple of every G: the split region (G x N partials)
        (1024, 1001),
        (1536, 37),
        (512, 4100),
        (8192, 1000),
    ],
    ids=str,
)
@pytest.mark.parametrize(
    "knobs",
    [
        None,
        {"kernels": 2},
        {"kernels": 2, "blocks": 0, "row_step": 16, "threads": 2},
        {"kernels": 2, "blocks": 2, "row_step": 4, "threads": 0},
        {"kernels": 2, "grid": 1, "threads": 0},
        {"kernels": 2, "grid": 1, "blocks": 1, "row_step": 16},
        {"kernels": 2, "partials": 1, "threads": 2},
    ],
    ids=["default", "two", "128x1024x16", "512x256x4", "2d-256", "2d-256x512x16", "nxg-1024"],
)
def test_column_sums_at_odd_sizes(rows: int, cols: int, knobs: dict[str, int] | None) -> None:
    """The default (one kernel where 8 divides the columns) and, with "kernels" = 2, every
    "blocks" region (128, 256, 512 row chunks: chunks of a dynamic row count where they do
    not divide the rows), "threads" region (256, 512, 1024) and row step, columns in and
    out of 16-byte alignment, a column count past a whole chunk of 2048 and the
    warp-per-column merge; rows that G divides take the split region (G x N partials), the
    others the N x G one."""
    kernel, text = _compile("colsum", {999: rows, 1000: cols}, knobs)
    check_kernel(kernel, text, seed=rows + cols, reduction=None)


@pytest.mark.parametrize(
    ("rows", "cols"),
    [(8192, 8192), (1024, 4096), (256, 32), (8191, 1000), (8192, 1000), (1000, 8), (129, 24)],
    ids=str,
)
@pytest.mark.parametrize("strip", [0, 1, 2, 3])
def test_column_sums_in_one_kernel(rows: int, cols: int, strip: int) -> None:
    """colsum's one-kernel regions ("kernels" = 1): each "strip" shape (the block's R x W
    partials in shared memory) where R divides the rows and W the columns, strips of 8
    columns (region 0b: steps of 128 rows, a peeled ragged step) where 8 divides the
    columns."""
    knobs = {"kernels": 1, "strip": strip}
    kernel, text = _compile("colsum", {999: rows, 1000: cols}, knobs)
    check_kernel(kernel, text, seed=rows + cols + strip, reduction=None)


@pytest.mark.parametrize(
    ("rows", "cols"), [(8191, 1000), (1000, 8), (129, 24), (4097, 16)], ids=str
)
@pytest.mark.parametrize(
    "knobs",
    [{"strip_rows": 1}, {"steps_unroll": 1}, {"strip_rows": 1, "steps_unroll": 1}],
    ids=["r256", "u16", "r256-u16"],
)
def test_column_sums_in_strips_of_8(rows: int, cols: int, knobs: dict[str, int]) -> None:
    """Region 0b's knobs: 256 rows per step (32 x 16 threads, the merge in half the warps)
    and the step loop unrolled by 16."""
    kernel, text = _compile("colsum", {999: rows, 1000: cols}, knobs)
    check_kernel(kernel, text, seed=rows + cols, reduction=None)


_COLSUM_RACECHECK_SCRIPT = """
import sys
import schedir
from tests.helpers import check_kernel, resized_example
rows, cols, strip, strip_rows = (int(a) for a in sys.argv[1:5])
text = resized_example("colsum_cuda.mlir", {999: rows, 1000: cols})
knobs = {"kernels": 1, "strip": strip, "strip_rows": strip_rows}
kernel = schedir.compile(text, schedule="schedules/colsum_cuda.mlir", target="cuda", knobs=knobs)
check_kernel(kernel, text, seed=1, reduction=None)
print("ran")
"""


@pytest.mark.parametrize(
    ("rows", "cols", "strip", "strip_rows"),
    [(512, 64, 0, 0), (512, 64, 2, 0), (1001, 8, 0, 0), (1001, 8, 0, 1)],
)
def test_colsum_one_kernel_racecheck_clean(
    rows: int, cols: int, strip: int, strip_rows: int
) -> None:
    """The one-kernel regions' shared partials: written by every thread, read by the
    merge's threads after the barrier (region 0 at 512 rows of 64 columns; region 0b at
    1001 rows of 8: the step loop's accumulators and the peeled step's row per thread,
    128 and 256 rows per step)."""
    args = (str(rows), str(cols), str(strip), str(strip_rows))
    run_sanitized("racecheck", _COLSUM_RACECHECK_SCRIPT, *args)


# --- s15-col: colsum, rowsum and matvec at the shapes, every region that the
# benchmark times (1x1: single-row chunks, empty row chunks and a one-lane merge).

BRIEF_SHAPES = ((8192, 8192), (8191, 1000), (3, 100003), (100003, 3), (1, 1))
"""(rows, columns) of the matrix: aligned, odd, short and wide, tall and thin, a scalar."""

REDUCTION_KNOBS = {
    "colsum": (
        None,
        {"kernels": 2, "blocks": 2, "threads": 0},
        {"kernels": 2, "blocks": 2, "threads": 0, "row_step": 4},
    ),
    "rowsum": (None, {"threads": 4}, {"threads": 3}),
    "matvec": (None, {"threads": 0}, {"threads": 3}),
}
"""Each schedule's default and the regions that benchmarks/gpu.py times at the odd size."""


@pytest.mark.parametrize("knob_index", [0, 1, 2], ids=["default", "odd-a", "odd-b"])
@pytest.mark.parametrize(("rows", "cols"), BRIEF_SHAPES, ids=str)
@pytest.mark.parametrize("name", sorted(REDUCTION_KNOBS))
def test_reductions_one_by_one_to_8192(name: str, rows: int, cols: int, knob_index: int) -> None:
    """colsum (dims 999 x 1000), rowsum and matvec (1000 x 999) against the reference."""
    dims = {999: rows, 1000: cols} if name == "colsum" else {1000: rows, 999: cols}
    kernel, text = _compile(name, dims, REDUCTION_KNOBS[name][knob_index])
    check_kernel(kernel, text, seed=rows * 7 + cols, reduction=None)


@pytest.mark.parametrize(("rows", "cols"), BRIEF_SHAPES, ids=str)
def test_matvec_row_per_warp(rows: int, cols: int) -> None:
    """matvec's region of a row per warp ("threads" = 4: 16-byte loads of the row and of
    x, one subgroup reduction) against the reference."""
    kernel, text = _compile("matvec", {1000: rows, 999: cols}, {"threads": 4})
    check_kernel(kernel, text, seed=rows + cols, reduction=None)


@pytest.mark.parametrize(("rows", "cols"), BRIEF_SHAPES, ids=str)
def test_matvec_chunks_of_four(rows: int, cols: int) -> None:
    """matvec's region 5 ("threads" = 5: 4 floats of the row and of x per thread and chunk
    of 2048, the chunks unrolled; a partial scalar chunk where 2048 does not divide the
    row) against the reference."""
    kernel, text = _compile("matvec", {1000: rows, 999: cols}, {"threads": 5})
    check_kernel(kernel, text, seed=rows + cols, reduction=None)


_RACECHECK_SCRIPT = """
import sys
import schedir
from tests.helpers import check_kernel, resized_example
name, cols, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
text = resized_example(f"{name}_cuda.mlir", {1000: 4, 999: cols})
kernel = schedir.compile(
    text, schedule=f"schedules/{name}_cuda.mlir", target="cuda", knobs={"threads": threads}
)
check_kernel(kernel, text, seed=1, reduction=None)
print("ran")
"""


@pytest.mark.parametrize(
    ("name", "cols", "threads"),
    [
        ("softmax", 999, 1),
        ("softmax", 999, 3),
        ("softmax", 2048, 1),
        ("layernorm", 2048, 1),
        ("softmax_f16", 4096, 0),
        ("rowsum", 1000, 4),
        ("rowsum", 1001, 5),
        ("softmax", 1000, 4),
        ("softmax", 1001, 4),
        ("layernorm", 1000, 4),
        ("colsum", 1001, 0),
        ("colsum", 1024, 0),
        ("softmax", 8192, 5),
        ("layernorm", 8192, 5),
        ("softmax", 8192, 6),
        ("layernorm", 1001, 7),
        # chunks of four (16-byte accesses, 4-wide partials' barriers eliminated)
        ("softmax", 8192, 9),
        ("softmax", 1001, 9),
        # 512 threads x chunks of 2048; each thread merges its reductions (2 barriers a row)
        ("softmax", 8192, 10),
        ("softmax", 1001, 10),
        ("softmax_f16", 8192, 1),
        ("layernorm", 8192, 7),
        # the peeled last chunk, static 4-wide tiles in 250 of the 512 threads
        ("softmax", 1000, 10),
        ("layernorm", 8192, 9),
        ("layernorm", 1000, 9),
        # matvec's chunks of four: unrolled static chunks, a peeled static last chunk
        ("matvec", 8192, 5),
        ("matvec", 1000, 5),
    ],
    ids=str,
)
def test_all_reduce_racecheck_clean(name: str, cols: int, threads: int) -> None:
    """The shared partials, the all-reduce's warp slots and the row values: no hazard in
    the chunked region, in the register regions with static pieces (the forwarded reads of
    x) or with dynamic ones; colsum's merge (its lanes' partials in shared memory; the
    example resized to 1001 rows of 4 columns, 256 threads in the row-chunk kernel; 1024
    rows take the split region)."""
    run_sanitized("racecheck", _RACECHECK_SCRIPT, name, str(cols), str(threads))


# --- s15-smx: softmax / layernorm at the benchmark's and the sizes, every region ---

BENCH_SHAPES = ((8192, 8192), (8191, 1000), (3, 100003), (1, 1))
"""The benchmark's aligned size, the issue's odd sizes, and a single element."""

THREAD_REGIONS = {
    0: "256",
    1: "512",
    2: "1024",
    3: "chunks",
    4: "warps",
    5: "regs512",
    6: "regs256",
    7: "regs1024",
    None: "default",
}
"""The regions of softmax's and layernorm's "threads" knob (None: the selected one)."""


@pytest.mark.parametrize(("rows", "cols"), BENCH_SHAPES, ids=str)
@pytest.mark.parametrize("threads", list(THREAD_REGIONS), ids=list(THREAD_REGIONS.values()))
@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_row_regions_at_benchmark_sizes(
    name: str, threads: int | None, rows: int, cols: int
) -> None:
    """Every region of the "threads" knob at 8192x8192 (static 16-byte pieces), 8191x1000
    and 3x100003 (dynamic pieces, masked tails) and 1x1 (a row shorter than a warp):
    NaN-prefilled outputs, compared with the reference."""
    knobs = None if threads is None else {"threads": threads}
    kernel, text = _compile(name, {1000: rows, 999: cols}, knobs)
    check_kernel(kernel, text, seed=rows + cols + (threads or 0), reduction=None)


# --- s16-smx: the chunks in registers (regions 5-7) around their chunk and unroll boundaries ---

CHUNK_REGIONS = {5: 512, 6: 256, 7: 1024}
"""softmax's and layernorm's regions of chunks in registers: threads per block (and chunk)."""


def _boundary_columns(threads: int) -> list[int]:
    """Row lengths at the edges of a chunk of T and of an unrolled group of 8192 / T chunks,
    where the unrolled loop gets a remainder or a partial last chunk."""
    group = 8192
    return [
        threads - 1,
        threads + 1,
        3 * threads + 5,
        group - 1,
        group + 1,
        2 * group + threads + 3,
    ]


@pytest.mark.parametrize(
    ("region", "cols"),
    [(r, c) for r, t in CHUNK_REGIONS.items() for c in _boundary_columns(t)],
    ids=str,
)
@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_chunks_in_registers_at_unroll_boundaries(name: str, region: int, cols: int) -> None:
    """Regions 5-7 unroll their chunk loops by 8192 / T: row lengths one short of and one past
    a chunk and a group of chunks (a partial chunk, a remainder loop), 5 rows, NaN-prefilled
    outputs compared with the reference."""
    kernel, text = _compile(name, {1000: 5, 999: cols}, {"threads": region})
    check_kernel(kernel, text, seed=cols + region, reduction=None)


@pytest.mark.parametrize(("rows", "cols"), [(8192, 8192), (5, 1000), (3, 8192 + 129)], ids=str)
@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_chunks_in_registers_of_128_threads(name: str, rows: int, cols: int) -> None:
    """Region 8 (chunks of 128, unrolled by 64): the benchmark's size, rows shorter than a
    group of chunks, and a group and a partial chunk."""
    kernel, text = _compile(name, {1000: rows, 999: cols}, {"threads": 8})
    check_kernel(kernel, text, seed=cols + 8, reduction=None)
