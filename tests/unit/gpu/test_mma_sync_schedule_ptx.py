"""schedules/matmul_f16_mma_sync_cuda.mlir without a GPU: at an earlier selection (2
stages of 128x32 / 32x128 tiles), the example (edge tiles in every dimension) and a size
the tiles divide compile to PTX for sm_80 and sm_90 with the warp tiles' mma.sync
instructions (4 x 4 m16n8k16 tiles of a 64x32 warp tile, 2 k tiles per 32-wide k step,
f32 accumulators), f16 and bf16, which ptxas assembles for that arch without spills,
naming no intrinsic LLVM does not know; the selected 128x256 blocks of 64-wide k steps
(64x64 warp tiles, 3 stages in dynamic shared memory, also at edge tiles without spills)
and other tile shapes likewise."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import schedir
from schedir.gpu import assemble
from schedir.gpu.ptx import unknown_intrinsics
from schedir.options import CompileOptions
from tests.unit.gpu.ptxas_report import ptxas_log

REPO = Path(__file__).parents[3]
SCHEDULE = REPO / "schedules" / "matmul_f16_mma_sync_cuda.mlir"
EXAMPLE = REPO / "examples" / "matmul_f16_mma_sync_cuda.mlir"


def _payload(m: int, n: int, k: int, element: str) -> str:
    text = EXAMPLE.read_text()
    text = text.replace("1000x1016xf16", f"{m}x{k}x{element}")
    text = text.replace("1016x1032xf16", f"{k}x{n}x{element}")
    return text.replace("1000x1032xf32", f"{m}x{n}xf32")


CASES = [
    ("sm_90", "f16", (1000, 1032, 1016)),
    ("sm_90", "f16", (256, 256, 256)),
    ("sm_80", "f16", (1000, 1032, 1016)),
    ("sm_80", "bf16", (256, 256, 256)),
]
"""(arch, element, (m, n, k)): edge tiles (masked fragments) and whole tiles, on both
archs, f16 and bf16."""


SELECTED = {
    "block_m": 128,
    "block_n": 256,
    "block_k": 64,
    "warps_n": 4,
    "stages": 3,
    "pad": 8,
    "warps": 8,
    "raster_group": 1,
    "fragments": 2,
    "ring_offsets": 0,
}
"""The knobs' selected values in the schedule."""
PREVIOUS = {"block_n": 128, "block_k": 32, "stages": 2}
"""An earlier selection: 2 stages of 128x32 / 32x128 tiles (static shared memory)."""


def _schedule(knobs: dict[str, int]) -> str:
    schedule = SCHEDULE.read_text()
    for knob, value in knobs.items():
        selected = f'"{knob}"> = {SELECTED[knob]} from'
        assert selected in schedule
        schedule = schedule.replace(selected, f'"{knob}"> = {value} from')
    return schedule


@pytest.fixture(
    scope="module",
    params=CASES,
    ids=lambda c: f"{c[0]}-{c[1]}-{'x'.join(map(str, c[2]))}",
)
def compiled(request: pytest.FixtureRequest) -> tuple[str, str, str, bool]:
    arch, element, (m, n, k) = request.param
    kernel = schedir.compile(
        _payload(m, n, k, element),
        schedule=_schedule(PREVIOUS),
        options=CompileOptions(target="cuda", arch=arch),
    )
    whole = m % 128 == 0 and n % 128 == 0 and k % 32 == 0
    return arch, element, kernel.stages["ptx"], whole


def test_ptx_has_the_warp_tiles_mma_sync(compiled: tuple[str, str, str, bool]) -> None:
    arch, element, ptx, _ = compiled
    assert re.search(rf"^\.target {arch}\b", ptx, flags=re.M)
    mma = re.findall(
        rf"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.{element}\.{element}\.f32", ptx
    )
    assert len(mma) == 4 * 4 * 2, len(mma)
    assert "mma.sync" not in ptx.replace("mma.sync.aligned.m16n8k16", "")
    assert not unknown_intrinsics(ptx)


def test_operands_load_through_ldmatrix_and_cp_async(
    compiled: tuple[str, str, str, bool],
) -> None:
    """Per k step a warp loads its 64x32 A tile with 8 ldmatrix.x4 and its 32x32 B tile
    with 4 ldmatrix.x4.trans. Where the tiles divide the sizes, the copies are 16-byte
    cp.async (4 per thread and k step: 2 stages, 1 issued before the loop), each k step
    waits for the next one's group after its last fragment loads (pipelined fragments:
    the first k sub-step's 4 + 2 ldmatrix of the first step are also loaded before the
    loop, after its wait and barrier), and no operand element is loaded one by one; at
    edge tiles the loop is not pipelined, the copies stay synchronous and the element
    loads remain as the other branch of the ldmatrix check."""
    _, _, ptx, whole = compiled
    a_loads = len(re.findall(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16", ptx))
    b_loads = len(re.findall(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared\.b16", ptx))
    copies = re.findall(r"cp\.async\.cg\.shared\.global \[[^]]+\], \[[^]]+\], 16", ptx)
    scalar = re.findall(r"ld\.shared\.(?:u16|b16)", ptx)
    if not whole:
        assert (a_loads, b_loads) == (8, 4)
        assert not copies and scalar
        return
    assert (a_loads, b_loads) == (8 + 4, 4 + 2)
    assert len(copies) == 4 * 2, len(copies)
    waits = re.findall(r"cp\.async\.wait_group\s+(\d+);", ptx)
    assert waits == ["0", "0", "0"], waits
    assert not scalar
    # One barrier per k step, after the wait for the next step's copies.
    loop = ptx[_nth(ptx, "cp.async.wait_group", 1) : ptx.rindex("cp.async.wait_group")]
    assert len(re.findall(r"\bbar\.sync\b", loop)) == 1, loop


def _nth(text: str, word: str, n: int) -> int:
    """The index of the `n`-th (from 0) occurrence of `word` in `text`."""
    at = -1
    for _ in range(n + 1):
        at = text.index(word, at + 1)
    return at


def test_ptx_assembles_without_spills(compiled: tuple[str, str, str, bool], ptxas: Path) -> None:
    arch, _, ptx, _ = compiled
    assert assemble(ptx, arch, ptxas=ptxas)[:4] == b"\x7fELF"
    log = ptxas_log(ptx, ptxas, arch)
    spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    assert spills and all(s == ("0", "0") for s in spills), log


KNOB_CASES = [
    ({"block_k": 16}, 4 * 4 * 1),
    ({"warps_n": 2}, 2 * 8 * 2),
    ({"warps_n": 8}, 8 * 2 * 2),
    ({"block_m": 64, "block_n": 128, "warps_n": 8}, 4 * 2 * 2),
    ({"stages": 3, "pad": 0}, 4 * 4 * 2),
    ({"block_k": 16, "stages": 4}, 4 * 4 * 1),
    ({"warps": 4, "warps_n": 2}, 4 * 8 * 2),
]
"""(knobs, m16n8k16 mma.sync per k step): a 16-wide k step, 32x64 and 128x16 warp tiles of
the 128x128 block, 64x16 warp tiles of a 64x128 block (the tile shapes the benchmark's knob
variants time), three stages on unpadded rows and four on 16-wide k steps, and 64x64 warp
tiles of a block of 4 warps (128 threads)."""


@pytest.mark.parametrize(
    ("knobs", "mma_count"),
    KNOB_CASES,
    ids=lambda v: "-".join(f"{k}{x}" for k, x in v.items()) if isinstance(v, dict) else str(v),
)
def test_other_tile_shapes_assemble_without_spills(
    knobs: dict[str, int], mma_count: int, ptxas: Path
) -> None:
    schedule = _schedule(PREVIOUS | knobs)
    kernel = schedir.compile(
        _payload(1000, 1032, 1016, "f16"),
        schedule=schedule,
        options=CompileOptions(target="cuda", arch="sm_90"),
    )
    ptx = kernel.stages["ptx"]
    mma = re.findall(r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32", ptx)
    assert len(mma) == mma_count, len(mma)
    assert f".maxntid {32 * knobs.get('warps', 8)}, 1, 1" in ptx
    log = ptxas_log(ptx, ptxas, "sm_90")
    spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    assert spills and all(s == ("0", "0") for s in spills), log


DYNAMIC_CASES = [
    ({}, 3 * (128 * 72 + 64 * 264) * 2),
    ({"block_n": 128}, 3 * (128 * 72 + 64 * 136) * 2),
    (PREVIOUS | {"stages": 3}, 3 * (128 * 40 + 32 * 136) * 2),
    (PREVIOUS | {"block_k": 64, "stages": 4}, 4 * (128 * 72 + 64 * 136) * 2),
    (PREVIOUS | {"block_n": 256, "stages": 3, "pad": 0}, 3 * (128 * 32 + 32 * 256) * 2),
]
"""(knobs, ring bytes): rings beyond the 48 KiB of static shared memory (the selected 3
stages of padded 128x64 / 64x256 tiles, 3 of 128x64 / 64x128 tiles, 3 stages of the padded 128x32 / 32x128 tiles, 4
of 64-wide k steps, 3 of 128x256 blocks' unpadded tiles)."""


@pytest.mark.parametrize(
    ("knobs", "ring_bytes"),
    DYNAMIC_CASES,
    ids=lambda v: "-".join(f"{k}{x}" for k, x in v.items()) if isinstance(v, dict) else str(v),
)
def test_rings_beyond_48_kib_live_in_dynamic_shared_memory(
    knobs: dict[str, int], ring_bytes: int, ptxas: Path
) -> None:
    """The rings are views of the kernel's dynamic shared memory (no static shared array:
    those are capped at 48 KiB), the launch reserves their bytes, and the ldmatrix check
    still folds (no element loads): the views' offsets keep 16-byte rows aligned."""
    assert ring_bytes > 48 * 1024
    schedule = _schedule(knobs)
    kernel = schedir.compile(
        _payload(512, 512, 512, "f16"),
        schedule=schedule,
        options=CompileOptions(target="cuda", arch="sm_90"),
    )
    ptx = kernel.stages["ptx"]
    assert ".extern .shared .align 1024 .b8 __dynamic_shmem__[];" in ptx
    assert not re.search(r"^\s*\.shared\s", ptx, flags=re.M), "a static shared array"
    # the launch's dynamic shared memory size (an i32 constant of the host code)
    assert re.search(rf"llvm\.mlir\.constant\({ring_bytes} : i32\)", kernel.stages["llvm-dialect"])
    stages = (SELECTED | knobs)["stages"]
    waits = re.findall(r"cp\.async\.wait_group\s+(\d+);", ptx)
    assert waits[0] == str(stages - 2), waits
    assert not re.findall(r"ld\.shared\.(?:u16|b16)", ptx)
    assert re.findall(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16", ptx)
    log = ptxas_log(ptx, ptxas, "sm_90")
    spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    assert spills and all(s == ("0", "0") for s in spills), log


def test_selected_tiles_ptx(ptxas: Path) -> None:
    """The selected kernel at 512^3: per 64-wide k step a warp's 64x64 tile is 4 x 8 x 4
    m16n8k16 mma.sync on 16 ldmatrix.x4 of A and 16 ldmatrix.x4.trans of B (the first k
    sub-step's 4 + 4 also before the loop: pipelined fragments), and a thread issues 12
    16-byte cp.async (4 of A's 128x64 tile, 8 of B's 64x256: 2 steps before the loop, 1
    in it); one barrier per k step; no spills, nor at the example's edge tiles."""
    kernel = schedir.compile(
        _payload(512, 512, 512, "f16"),
        schedule=SCHEDULE,
        options=CompileOptions(target="cuda", arch="sm_90"),
    )
    ptx = kernel.stages["ptx"]
    mma = re.findall(r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32", ptx)
    assert len(mma) == 4 * 8 * 4, len(mma)
    # 16 + 16 per k step and the first k sub-step's 4 + 4 once more before the loop.
    assert len(re.findall(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16", ptx)) == 16 + 4
    assert len(re.findall(r"ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared\.b16", ptx)) == 16 + 4
    copies = re.findall(r"cp\.async\.cg\.shared\.global \[[^]]+\], \[[^]]+\], 16", ptx)
    assert len(copies) == 12 * 3, len(copies)
    waits = re.findall(r"cp\.async\.wait_group\s+(\d+);", ptx)
    assert waits == ["1", "1", "0"], waits
    loop = ptx[_nth(ptx, "cp.async.wait_group", 1) : ptx.rindex("cp.async.wait_group")]
    assert len(re.findall(r"\bbar\.sync\b", loop)) == 1, loop
    assert not re.findall(r"ld\.shared\.(?:u16|b16)", ptx)
    edges = schedir.compile(
        _payload(1000, 1032, 1016, "f16"),
        schedule=SCHEDULE,
        options=CompileOptions(target="cuda", arch="sm_90"),
    ).stages["ptx"]
    for text in (ptx, edges):
        log = ptxas_log(text, ptxas, "sm_90")
        spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
        assert spills and all(s == ("0", "0") for s in spills), log


def test_edge_tiles_of_64x64_warp_tiles_do_not_spill(ptxas: Path) -> None:
    """128x128 blocks of 4 warps (64x64 warp tiles: 128 accumulators per lane) at the
    example's edge tiles, where the ldmatrix check stays a branch: one k tile's fragments
    at a time are live beside the accumulators, so nothing spills (all k tiles' fragments
    at once did: 472 bytes)."""
    kernel = schedir.compile(
        _payload(1000, 1032, 1016, "f16"),
        schedule=_schedule({"block_n": 128, "warps": 4, "warps_n": 2}),
        options=CompileOptions(target="cuda", arch="sm_90"),
    )
    log = ptxas_log(kernel.stages["ptx"], ptxas, "sm_90")
    spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    assert spills and all(s == ("0", "0") for s in spills), log


def _loop_body(ptx: str) -> str:
    """The k loop's body: from the label a later branch jumps back to, to that branch."""
    (body,) = [
        ptx[ptx.index(f"{label}:") : branch.start()]
        for branch in re.finditer(r"\bbra(?:\.uni)?\s+(\$L__\w+);", ptx)
        for label in [branch.group(1)]
        if f"{label}:" in ptx[: branch.start()]
    ]
    return body


@pytest.mark.parametrize("ring_offsets", [0, 1])
def test_ring_offsets_carried_by_the_k_loop(ring_offsets: int) -> None:
    """The selected kernel at 512^3: with the ring offsets carried, the k loop computes
    no slot as a division by the 3 stages (LLVM's multiply-high by its reciprocal) and
    advances them with compare-selects; without, it divides in each k step."""
    kernel = schedir.compile(
        _payload(512, 512, 512, "f16"),
        schedule=_schedule({"ring_offsets": ring_offsets}),
        options=CompileOptions(target="cuda", arch="sm_90"),
    )
    body = _loop_body(kernel.stages["ptx"])
    divisions = re.findall(r"\bmul\.hi\.u64\b", body)
    assert (len(divisions) == 0) == bool(ring_offsets), divisions
    if ring_offsets:
        assert re.findall(r"\bselp\.b64\b", body)


@pytest.mark.parametrize("fragments", [0, 1, 2])
def test_fragments_pipelined_across_the_barrier(fragments: int) -> None:
    """The selected kernel at 512^3: with pipelined fragments the k loop opens with the
    copies of a later step and the mma.sync ops of the fragments carried in, and its
    wait and barrier sit after the step's last ldmatrix, followed by the next step's
    first 4 + 4 ldmatrix and then the step's last 32 mma.sync (the wait and barrier of
    the first step and its first fragments before the loop); double-buffered (2), each
    sub-step's 4 + 4 ldmatrix also precede the sub-step before's mma.sync ops; without
    (0), the loop opens with its wait and barrier, and every ldmatrix of a step precedes
    its mma.sync ops."""
    kernel = schedir.compile(
        _payload(512, 512, 512, "f16"),
        schedule=_schedule({"fragments": fragments}),
        options=CompileOptions(target="cuda", arch="sm_90"),
    )
    ptx = kernel.stages["ptx"]
    assert len(re.findall(r"\bmma\.sync", ptx)) == 128
    body = _loop_body(ptx)
    steps = re.findall(
        r"\b(cp\.async\.wait_group|bar\.sync|ldmatrix|mma\.sync|cp\.async\.cg)", body
    )
    squeezed = [k for i, k in enumerate(steps) if i == 0 or k != steps[i - 1]]
    if fragments == 2:
        assert squeezed == [
            "cp.async.cg",
            *(["ldmatrix", "mma.sync"] * 3),
            "cp.async.wait_group",
            "bar.sync",
            "ldmatrix",
            "mma.sync",
        ], squeezed
    elif fragments == 1:
        assert squeezed[:4] == ["cp.async.cg", "mma.sync", "ldmatrix", "mma.sync"], squeezed
        assert squeezed[-5:] == [
            "ldmatrix",
            "cp.async.wait_group",
            "bar.sync",
            "ldmatrix",
            "mma.sync",
        ], squeezed
        assert steps[-32:] == ["mma.sync"] * 32
    else:
        assert squeezed[:4] == ["cp.async.wait_group", "bar.sync", "cp.async.cg", "ldmatrix"]
        assert squeezed[-2:] == ["ldmatrix", "mma.sync"], squeezed
