"""The reduction schedules (softmax, layernorm, rowsum, matvec, softmax_f16, colsum) compile
to PTX without a GPU, ptxas accepts it for sm_90 (a missing ptxas fails under CI=true, see
conftest), and their cross-thread reductions are warp shuffles: per gpu.all_reduce, 5
`shfl.sync.bfly` steps within each warp and log2(W) over the W warp results of the block
(one shared slot per warp), also at odd sizes (a row of 100003 elements, 8191 rows)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import schedir
from schedir.gpu import assemble
from tests.helpers import resized_example

REPO = Path(__file__).parents[3]

ALL_REDUCES = {"softmax": 2, "layernorm": 2, "rowsum": 1, "matvec": 1, "softmax_f16": 2}
"""The gpu.all_reduce ops of each schedule (one per row reduction)."""

BLOCK_REDUCTIONS = dict(ALL_REDUCES)
"""The schedules whose default region reduces across the block (all of them; rowsum's
region of a row per warp: `test_warp_rows_are_one_butterfly`)."""


def _payload(name: str, rows: int = 1000, cols: int = 999) -> str:
    """The example of `name` (rows x cols 1000x999), resized."""
    return resized_example(f"{name}_cuda.mlir", {1000: rows, 999: cols})


def _shuffles_per_all_reduce(ptx: str) -> int:
    """5 steps in a warp plus log2 of the block's warps (from its .maxntid)."""
    found = re.search(r"\.maxntid (\d+), 1, 1", ptx)
    assert found, "no 1-D launch bound"
    warps = int(found.group(1)) // 32
    return 5 + warps.bit_length() - 1


def _ptx(name: str, payload: str) -> str:
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    return schedir.compile(payload, schedule=schedule, target="cuda").stages["ptx"]


@pytest.mark.parametrize("name", sorted(BLOCK_REDUCTIONS))
def test_reductions_are_shuffle_butterflies(name: str, ptxas: Path) -> None:
    ptx = _ptx(name, _payload(name))
    shuffles = _shuffles_per_all_reduce(ptx)
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == shuffles * ALL_REDUCES[name], name
    # the cross-warp step: one shared slot per warp, written by lane 0, read after bar.sync
    slots = 4 * (1 << (shuffles - 5))
    assert re.search(rf"\.shared \.align 16 \.b8 __wg_\w+\[{slots}\]", ptx), name
    assert "bar.sync" in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize(("name", "rows", "cols"), [("rowsum", 8191, 1000), ("softmax", 3, 100003)])
def test_odd_sizes_assemble(name: str, rows: int, cols: int, ptxas: Path) -> None:
    ptx = _ptx(name, _payload(name, rows, cols))
    shuffles = _shuffles_per_all_reduce(ptx)
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == shuffles * ALL_REDUCES[name]
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize("threads", [0, 1, 2, 3], ids=["256", "512", "1024", "chunks"])
@pytest.mark.parametrize("name", ["softmax", "layernorm", "softmax_f16"])
def test_threads_alternatives_are_shuffle_butterflies(name: str, threads: int, ptxas: Path) -> None:
    """Each region of the "threads" knob (rows in registers with T = 256, 512, 1024
    threads, chunks of 512) blocks T threads and reduces with 5 + log2(T / 32) shuffles per
    all-reduce, without local memory (rows of 4096, a multiple of every T: static pieces;
    rows of 2000 for the chunks, longer than a chunk)."""
    cols = 2000 if threads == 3 else 4096
    kernel = _compile(name, 64, cols, threads)
    ptx = kernel.stages["ptx"]
    assert f".maxntid {256 << threads if threads < 3 else 512}, 1, 1" in ptx
    shuffles = _shuffles_per_all_reduce(ptx)
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == shuffles * ALL_REDUCES[name]
    assert ".local" not in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def _compile(name: str, rows: int, cols: int, threads: int | None = None) -> schedir.Kernel:
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    knobs = None if threads is None else {"threads": threads}
    return schedir.compile(
        _payload(name, rows, cols), schedule=schedule, target="cuda", knobs=knobs
    )


def _ptxas_usage(ptx: str, ptxas: Path, tmp_path: Path) -> str:
    """ptxas -v's report (registers, spills) of the PTX for sm_90."""
    source = tmp_path / "kernel.ptx"
    source.write_text(ptx)
    done = subprocess.run(
        [str(ptxas), "-arch=sm_90", "-v", str(source), "-o", str(tmp_path / "kernel.cubin")],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout + done.stderr


# (name, threads) -> 16-byte loads and stores per thread at 8192 columns: x is read once
# (softmax: 8192 / T floats, a v4 per 4; f16: a v4 per 8 halves), layernorm also reads
# gamma and beta once each.
REGISTER_ROWS = {
    ("softmax", 0): (8, 8),
    ("softmax", 1): (4, 4),
    ("softmax", 2): (2, 2),
    ("layernorm", 0): (24, 8),
    ("layernorm", 1): (12, 4),
    ("layernorm", 2): (6, 2),
    ("softmax_f16", 0): (4, 4),
    ("softmax_f16", 1): (2, 2),
    ("softmax_f16", 2): (1, 1),
}


@pytest.mark.parametrize(("name", "threads"), sorted(REGISTER_ROWS), ids=str)
def test_rows_in_registers_read_x_once(
    name: str, threads: int, ptxas: Path, tmp_path: Path
) -> None:
    """Rows of 8192 (the benchmark's): every global access of the kernel is a 16-byte
    ld.global.v4 / st.global.v4, one per 16 bytes of the thread's piece, loads only in the
    first pass (forward_reads makes the later passes' reads the first's), all issued before
    the first shuffle (in flight together); no local memory, no spills."""
    ptx = _compile(name, 4, 8192, threads).stages["ptx"]
    loads, stores = REGISTER_ROWS[name, threads]
    v4_loads = re.findall(r"ld\.global(?:\.nc)?\.v4\.\w+", ptx)
    assert len(v4_loads) == loads, v4_loads
    assert len(re.findall(r"ld\.global", ptx)) == loads
    assert len(re.findall(r"st\.global\.v4\.\w+", ptx)) == stores
    assert len(re.findall(r"st\.global", ptx)) == stores
    # x's loads all come before the first shuffle (gamma's and beta's, in layernorm's
    # epilogue, after the reductions)
    first_shuffle = ptx.index("shfl.sync")
    early = len(re.findall(r"ld\.global", ptx[:first_shuffle]))
    assert early == (loads // 3 if name == "layernorm" else loads)
    assert ".local" not in ptx
    usage = _ptxas_usage(ptx, ptxas, tmp_path)
    assert "0 bytes spill stores, 0 bytes spill loads" in usage, usage
    found = re.search(r"Used (\d+) registers", usage)
    assert found, usage
    registers = int(found.group(1))
    assert registers <= 65536 // (256 << threads), usage  # a full block fits the SM


@pytest.mark.parametrize(("name", "loads"), [("rowsum", 4), ("matvec", 8)])
def test_pieces_region_reads_16_bytes_per_load(
    name: str, loads: int, ptxas: Path, tmp_path: Path
) -> None:
    """rowsum's and matvec's region 3 (contiguous pieces per thread, 512 threads): at 8192
    columns the thread's 16 elements (and matvec's 16 of x) are four ld.global.v4 each,
    before the first shuffle; the only other global access is the row's init."""
    ptx = _compile(name, 4, 8192, 3).stages["ptx"]
    assert ".maxntid 512, 1, 1" in ptx
    first_shuffle = ptx.index("shfl.sync")
    assert len(re.findall(r"ld\.global(?:\.nc)?\.v4\.\w+", ptx[:first_shuffle])) == loads
    assert len(re.findall(r"ld\.global", ptx)) == loads + 1
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == _shuffles_per_all_reduce(ptx)
    assert ".local" not in ptx
    assert "0 bytes spill stores" in _ptxas_usage(ptx, ptxas, tmp_path)


def _modules(ptx: str) -> list[str]:
    """The PTX modules of the stage (one per kernel, each with its own header)."""
    parts = re.split(r"(?=^//\n// Generated by LLVM NVPTX)", ptx, flags=re.M)
    return [part for part in parts if ".entry" in part]


COLSUM_BLOCKS = {0: 128, 1: 256, 2: 512}
"""colsum's "blocks" regions -> row chunks G (the partials of a column, merged by a warp)."""


@pytest.mark.parametrize("blocks", sorted(COLSUM_BLOCKS))
@pytest.mark.parametrize(("rows", "cols"), [(8192, 8192), (8191, 1000), (999, 1000)])
def test_colsum_kernels_read_16_bytes_per_load(
    rows: int, cols: int, blocks: int, ptxas: Path, tmp_path: Path
) -> None:
    """colsum with "kernels" = 2: two kernels (row chunks reduced into the partials, partials merged), each
    assembling for sm_90 without local memory or spills; the row-chunk kernel reads a
    step of 8 rows (where its chunks have 8 rows) as 16-byte loads (ld.global.v4) and
    nothing else (its accumulators start as zeros in registers: no partial is read back)
    with no lane reading another's sum (no shuffle, no shared memory, no barrier); the
    merge is a warp per column (blocks of 32 threads) combining by one subgroup
    reduction (5 shfl.sync.bfly, no barrier). Where G divides the rows (the split
    region), the partials are G x N: each thread stores its 4 sums as one
    st.global.v4 (no 4-byte store 4G bytes from the next), and a merge lane reads 4
    partials of its column per chunk of 128 (4-byte loads down the column); otherwise
    (N x G) a merge lane reads 4 adjacent partials as one ld.global.v4 per chunk."""
    payload = resized_example("colsum_cuda.mlir", {999: rows, 1000: cols})
    schedule = REPO / "schedules" / "colsum_cuda.mlir"
    ptx = schedir.compile(
        payload, schedule=schedule, target="cuda", knobs={"blocks": blocks, "kernels": 2}
    ).stages["ptx"]
    modules = _modules(ptx)
    assert len(modules) == 2
    chunks, merge = modules
    assert ".maxntid 512, 1, 1" in chunks and ".maxntid 32, 1, 1" in merge
    v4_loads = len(re.findall(r"ld\.global(?:\.nc)?\.v4\.[bf]32", chunks))
    if rows // COLSUM_BLOCKS[blocks] >= 8:  # a whole step of 8 rows in each chunk
        assert v4_loads >= 8
    if rows % COLSUM_BLOCKS[blocks] == 0 and cols % 4 == 0:  # no scalar tail
        assert len(re.findall(r"ld\.global", chunks)) == v4_loads
    merge_loads = re.findall(r"ld\.global(?:\.nc)?\.v4\.[bf]32", merge)
    if rows % COLSUM_BLOCKS[blocks] == 0:  # the split region: G x N partials
        assert not merge_loads
        assert len(re.findall(r"ld\.global(?:\.nc)?\.[bf]32", merge)) >= 4
        if cols % 4 == 0:
            stores = re.findall(r"st\.global\.(v4\.)?[bf]32", chunks)
            assert stores and all(stores), stores  # every partial store 16 bytes
    else:
        assert len(merge_loads) == COLSUM_BLOCKS[blocks] // 128
    assert "shfl" not in chunks and ".shared" not in chunks and "bar.sync" not in chunks
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", merge)) == 5
    assert "bar.sync" not in merge
    for module in modules:
        assert ".local" not in module and "__local_depot" not in module
        assert "0 bytes spill stores, 0 bytes spill loads" in _ptxas_usage(module, ptxas, tmp_path)
        assert assemble(module, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


COLSUM_STRIPS = {0: (32, 64), 1: (32, 128), 2: (16, 128), 3: (16, 64)}
"""colsum's "strip" regions (one kernel) -> (W columns, R row groups) of a block."""


@pytest.mark.parametrize("strip", sorted(COLSUM_STRIPS))
def test_colsum_one_kernel_partials_in_shared_memory(
    strip: int, ptxas: Path, tmp_path: Path
) -> None:
    """colsum with "kernels" = 1 at 8192^2: one kernel of W / 4 x R threads (32 x W R / 128; a block per
    strip of W columns), each thread reading a step of 8 rows of its 4 columns as 16-byte
    loads, its 4 sums stored to the block's R x W partials in shared memory, one barrier,
    then W threads adding a column's R partials: no second kernel, no global partials
    (one global store per column), no local memory, no spills."""
    width, groups = COLSUM_STRIPS[strip]
    payload = resized_example("colsum_cuda.mlir", {999: 8192, 1000: 8192})
    schedule = REPO / "schedules" / "colsum_cuda.mlir"
    ptx = schedir.compile(
        payload, schedule=schedule, target="cuda", knobs={"kernels": 1, "strip": strip}
    ).stages["ptx"]
    (module,) = _modules(ptx)
    assert f".maxntid 32, {width // 4 * groups // 32}, 1" in module
    assert re.search(rf"\.shared \.align \d+ \.b8 __wg_\w+\[{4 * width * groups}\]", module)
    loads = re.findall(r"ld\.global(?:\.nc)?\.(v4\.)?[bf]32", module)
    assert len(loads) == 8 and all(loads), loads
    assert len(re.findall(r"bar\.sync", module)) == 1
    assert len(re.findall(r"ld\.shared\.[bf]32", module)) == groups
    assert len(re.findall(r"st\.global", module)) <= 2  # the column's zero and its sum
    assert ".local" not in module
    assert "0 bytes spill stores, 0 bytes spill loads" in _ptxas_usage(module, ptxas, tmp_path)
    assert assemble(module, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize(("rows", "cols"), [(8191, 1000), (8192, 1000), (8191, 8192), (37, 8)])
def test_colsum_one_kernel_of_8_column_strips(
    rows: int, cols: int, ptxas: Path, tmp_path: Path
) -> None:
    """Where R does not divide the rows or W the columns but 8 divides the columns,
    "kernels" = 1 takes region 0b: one kernel of 32 x 8 threads per strip of 8 columns,
    thread row y adding row y of every step of 128 rows (16-byte loads) into its 4
    partials in shared memory, a warp per column merging them (5 shfl.sync.bfly); no
    local memory, no spills."""
    payload = resized_example("colsum_cuda.mlir", {999: rows, 1000: cols})
    schedule = REPO / "schedules" / "colsum_cuda.mlir"
    knobs = {"kernels": 1, "strip_rows": 0}
    ptx = schedir.compile(payload, schedule=schedule, target="cuda", knobs=knobs)
    (module,) = _modules(ptx.stages["ptx"])
    assert ".maxntid 32, 8, 1" in module
    assert re.search(r"\.shared \.align \d+ \.b8 __wg_\w+\[4096\]", module)
    if rows >= 128:
        assert re.search(r"ld\.global(?:\.nc)?\.v4\.[bf]32", module)
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", module)) == 5
    assert ".local" not in module
    assert "0 bytes spill stores, 0 bytes spill loads" in _ptxas_usage(module, ptxas, tmp_path)
    assert assemble(module, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize(
    ("knobs", "threads_y", "v4_loads"),
    [
        ({"strip_rows": 0, "steps_unroll": 0}, 8, 9),
        ({"strip_rows": 0, "steps_unroll": 1}, 8, 17),
        ({"strip_rows": 1, "steps_unroll": 1}, 16, 17),
    ],
    ids=["default", "u16", "r256-u16"],
)
def test_colsum_strips_of_8_unrolled_steps(
    knobs: dict[str, int], threads_y: int, v4_loads: int, ptxas: Path, tmp_path: Path
) -> None:
    """Region 0b at 8191x1000: its step loop unrolled by 8 ("steps_unroll" = 0) or 16, as
    many 16-byte loads in the loop (and one in the peeled step); 32 x 8 threads, or 32 x 16
    with 256 rows per step ("strip_rows" = 1)."""
    payload = resized_example("colsum_cuda.mlir", {999: 8191, 1000: 1000})
    schedule = REPO / "schedules" / "colsum_cuda.mlir"
    ptx = schedir.compile(payload, schedule=schedule, target="cuda", knobs=knobs).stages["ptx"]
    (module,) = _modules(ptx)
    assert f".maxntid 32, {threads_y}, 1" in module
    assert len(re.findall(r"ld\.global(?:\.nc)?\.v4\.[bf]32", module)) == v4_loads
    assert "0 bytes spill stores, 0 bytes spill loads" in _ptxas_usage(module, ptxas, tmp_path)


@pytest.mark.parametrize(("rows", "cols"), [(8191, 1001), (8192, 999), (5, 3)])
def test_colsum_one_kernel_falls_back_to_two(rows: int, cols: int) -> None:
    """Where 8 does not divide the columns, "kernels" = 1 takes the two-kernel regions
    (transform.alternatives after the strips' silenceable guards)."""
    payload = resized_example("colsum_cuda.mlir", {999: rows, 1000: cols})
    schedule = REPO / "schedules" / "colsum_cuda.mlir"
    ptx = schedir.compile(payload, schedule=schedule, target="cuda", knobs={"kernels": 1})
    assert len(_modules(ptx.stages["ptx"])) == 2


WARP_ROWS = {("rowsum", 4): 1, ("rowsum", 5): 4, ("rowsum", 6): 8, ("matvec", 4): 1}
"""(schedule, region of the "threads" knob) -> rows per block of its warp-per-row region."""


@pytest.mark.parametrize(("rows", "cols"), [(8192, 1000), (8192, 8192), (8200, 1001), (8, 33)])
@pytest.mark.parametrize(("name", "threads"), sorted(WARP_ROWS), ids=str)
def test_warp_rows_are_one_butterfly(
    name: str, threads: int, rows: int, cols: int, ptxas: Path, tmp_path: Path
) -> None:
    """A row per warp (blocks of 32 x R threads): one gpu.subgroup_reduce per row, 5
    shfl.sync.bfly and no barrier; the row read as 16-byte loads where the rows are
    16-byte aligned (columns a multiple of 4: one per 128 columns, the peeled last chunk
    too), scalar loads otherwise (matvec's x: 16-byte loads at any column count); no local
    memory, no spills."""
    per_block = WARP_ROWS[name, threads]
    ptx = _compile(name, rows, cols, threads).stages["ptx"]
    assert f".maxntid 32, {per_block}, 1" in ptx
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == 5
    assert "bar.sync" not in ptx and ".local" not in ptx
    v4_loads = len(re.findall(r"ld\.global(?:\.nc)?\.v4\.\w+", ptx))
    if cols % 4 == 0:
        assert v4_loads >= min(8, -(-cols // 128)), v4_loads
    elif name == "rowsum":  # matvec's chunks of x stay 16-byte aligned
        assert v4_loads == 0
    usage = _ptxas_usage(ptx, ptxas, tmp_path)
    assert "0 bytes spill stores, 0 bytes spill loads" in usage, usage
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def test_warp_rows_at_odd_rows(ptxas: Path) -> None:
    """rowsum's region of a row per warp, one per block (short rows' region) at 8191 rows
    of 1000: the seven full chunks and the last (104 columns, 26 lanes) are eight
    ld.global.v4 per lane."""
    ptx = _compile("rowsum", 8191, 1000, 4).stages["ptx"]
    assert ".maxntid 32, 1, 1" in ptx
    assert len(re.findall(r"ld\.global(?:\.nc)?\.v4\.\w+", ptx)) == 8
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == 5
    assert "bar.sync" not in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize(("rows", "cols"), [(8191, 1000), (64, 8192), (8, 1001), (3, 100003)])
@pytest.mark.parametrize("name", ["softmax", "layernorm"])
def test_softmax_warp_rows(name: str, rows: int, cols: int, ptxas: Path, tmp_path: Path) -> None:
    """softmax's and layernorm's region 4 (a row per 32-thread block): two subgroup reductions (10
    shfl.sync.bfly), no barrier inside a chunk loop, the row read as 16-byte loads and
    written as 16-byte stores where aligned (scalar otherwise); no local memory where
    aligned, no spills."""
    ptx = _compile(name, rows, cols, 4).stages["ptx"]
    assert ".maxntid 32, 1, 1" in ptx
    assert len(re.findall(r"shfl\.sync\.bfly\.b32", ptx)) == 10
    for loop in re.findall(r"(\$L__BB\d+_\d+):\n(.*?)@%p\d+ bra \s*\1;", ptx, flags=re.S):
        assert "bar.sync" not in loop[1], loop[0]
    v4_loads = len(re.findall(r"ld\.global(?:\.nc)?\.v4\.\w+", ptx))
    v4_stores = len(re.findall(r"st\.global\.v4\.\w+", ptx))
    if cols % 4 == 0:
        assert v4_loads >= 3 and v4_stores >= 1, (v4_loads, v4_stores)
        assert ".local" not in ptx
    else:
        # a lane's last tile of fewer than 4 elements is dynamic: its exp stays in a
        # 16-byte private buffer; only layernorm's gamma and beta (1-D) are aligned, in
        # the full chunks
        assert v4_stores == 0
        assert (v4_loads == 0) if name == "softmax" else (v4_loads >= 2), v4_loads
    usage = _ptxas_usage(ptx, ptxas, tmp_path)
    assert "0 bytes spill stores, 0 bytes spill loads" in usage, usage
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize(
    ("name", "threads", "per_reduction"),
    [
        ("softmax", None, 1),
        ("softmax", 9, 1),
        ("softmax", 10, 1),
        ("softmax", 3, 2),
        ("layernorm", None, 1),
        ("layernorm", 7, 1),
        ("layernorm", 3, 2),
    ],
    ids=str,
)
def test_block_rows_take_few_barriers(name: str, threads: int | None, per_reduction: int) -> None:
    """Rows of 8192 (the default chunk region, softmax's chunks of four, layernorm's 1024
    threads): each thread combines the reduced value with the row's init
    (reduce_to_all_reduce's merge_in_threads) and forward_reads makes the readers' loads of
    the published value that value, so the only barrier per reduction is the all-reduce's
    exchange, and the only shared stores its warp slots (no thread-0 merge). The chunked
    region (3, not vectorized) reads the published value through a view in a linalg op:
    it stays in shared memory, behind its barrier (two per reduction)."""
    knobs = None if threads is None else {"threads": threads}
    schedule = REPO / "schedules" / f"{name}_cuda.mlir"
    ptx = schedir.compile(
        _payload(name, 4, 8192), schedule=schedule, target="cuda", knobs=knobs
    ).stages["ptx"]
    reductions = ALL_REDUCES[name]
    assert len(re.findall(r"\bbar\.sync\b", ptx)) == per_reduction * reductions
    if per_reduction == 1:
        assert len(re.findall(r"st\.shared", ptx)) == reductions


@pytest.mark.parametrize(
    ("name", "threads", "loads", "stores"),
    [("softmax", 10, 3, 1), ("layernorm", 9, 5, 1), ("matvec", 5, 2, 0)],
    ids=str,
)
def test_peeled_last_chunk_is_vectorized(
    name: str, threads: int, loads: int, stores: int, ptxas: Path, tmp_path: Path
) -> None:
    """The chunks-of-four regions at 1000 columns (a row shorter than one chunk of 2048):
    the last partial chunk is peeled and the threads' tiles are 4 wide, so each pass's
    tile is one ld.global.v4 (x per pass; layernorm's gamma and beta; matvec's row and x)
    and the result one st.global.v4 (matvec: thread 0's scalar), without local memory or
    spills (a partial chunk of dynamic size was a scalar loop, its exp in local memory)."""
    ptx = _compile(name, 8191, 1000, threads).stages["ptx"]
    assert len(re.findall(r"ld\.global\.v4\.\w+", ptx)) == loads
    assert len(re.findall(r"st\.global\.v4\.\w+", ptx)) == stores
    assert ".local" not in ptx
    usage = _ptxas_usage(ptx, ptxas, tmp_path)
    assert "0 bytes spill stores, 0 bytes spill loads" in usage, usage
