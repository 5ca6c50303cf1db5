"""The wgmma schedules' persistent tile loop (`persistent` knob) without a GPU: the f16,
bf16 and bias + relu schedules at a size the tiles do not divide, one and two consumers,
a grid of 132 blocks and of 3 (min(tiles, persistent) blocks launched), compile to sm_90a PTX with one producer (`setmaxnreg.dec`,
once) and consumers (`setmaxnreg.inc`, once) whose tile loops step by the grid's size
(`%nctaid.x`), which ptxas assembles without serializing the wgmma (C751x), without other
C75xx warnings and without spills; the transform's limits are located diagnostics."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import schedir
from schedir.diagnostics import TransformError
from schedir.gpu.ptx import unknown_intrinsics
from tests.gpu.mbr_payloads import bias_relu_payload
from tests.gpu.test_matmul_wgmma import f16_out_payload
from tests.unit.gpu.ptxas_report import assert_assembles_cleanly

REPO = Path(__file__).parents[3]


def compile_matmul(kind: str, size: tuple[int, int, int], knobs: dict[str, int]) -> schedir.Kernel:
    """Compile `kind`'s tensor-core schedule (f16, bf16, bias_relu) at `size` with `knobs`
    (also used by test_staged_store_ptx)."""
    m, n, k = size
    if kind == "bias_relu":
        text = bias_relu_payload(m, n, k, "f16", "column")
        schedule = REPO / "schedules" / "matmul_bias_relu_f16_cuda.mlir"
    else:
        text = f16_out_payload(m, n, k).replace("f16", kind)
        schedule = REPO / "schedules" / f"matmul_{kind}_cuda.mlir"
    return schedir.compile(text, schedule=schedule, target="cuda", knobs=knobs)


@pytest.mark.parametrize(
    ("kind", "shape", "ctas"),
    [
        ("f16", (1, 128, 128), 132),
        ("f16", (1, 128, 128), 3),
        ("bf16", (1, 128, 128), 132),
        ("bias_relu", (1, 128, 128), 132),
        ("f16", (2, 128, 256), 132),
        ("f16", (2, 128, 256), 3),
        ("bf16", (2, 128, 256), 66),
        ("bias_relu", (2, 128, 256), 264),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_persistent_ptx_assembles_cleanly(
    kind: str, shape: tuple[int, int, int], ctas: int, ptxas: Path
) -> None:
    consumers, block_m, block_n = shape
    knobs = {"consumers": consumers, "block_m": block_m, "block_n": block_n, "persistent": ctas}
    kernel = compile_matmul(kind, (1000, 1032, 1016), knobs)
    ptx = kernel.stages["ptx"]
    assert re.findall(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+(\d+);", ptx) == ["40"]
    assert re.findall(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+(\d+);", ptx) == ["232"]
    assert "%nctaid.x" in ptx and "wgmma.mma_async" in ptx
    assert "cp.async.bulk.tensor" in ptx and "mbarrier.try_wait.parity" in ptx
    assert not unknown_intrinsics(ptx)
    assert_assembles_cleanly(ptx, ptxas)
    # The host launches min(tiles, ctas) blocks: 8 x 5 tiles of 128 x 256, 8 x 9 of 128 x 128.
    scheduled = str(kernel.stages["scheduled"])
    assert re.search(rf"arith\.constant {ctas} : index", scheduled)
    grid_x = re.search(r"gpu\.launch blocks\([^)]*\) in \(%\w+ = (%\w+),", scheduled)
    assert grid_x and re.search(rf"{grid_x.group(1)} = arith\.minui %\w+, %\w+ : index", scheduled)


def _tile_loops(scheduled: str) -> list[tuple[str, str]]:
    """The (lower bound, step) of each scf.for of `scheduled` starting at a block id."""
    block_ids = set(re.findall(r"%(\w+) = gpu\.block_id x", scheduled))
    loops = re.findall(r"scf\.for %\w+ = %(\w+) to %\w+ step %(\w+)", scheduled)
    return [(lb, step) for lb, step in loops if lb in block_ids]


def test_no_persistence_is_the_block_per_tile_kernel() -> None:
    """persistent = 0: one block per tile, no tile loop; the schedules' selection (132) is
    the persistent grid."""
    knobs = {"consumers": 1, "block_m": 128, "block_n": 128}
    plain = compile_matmul("f16", (1000, 1032, 1016), {**knobs, "persistent": 0})
    ptx = plain.stages["ptx"]
    assert "%nctaid.x" in ptx  # the raster groups read the grid's size
    assert not _tile_loops(str(plain.stages["scheduled"]))
    persistent = compile_matmul("f16", (1000, 1032, 1016), {**knobs, "persistent": 132})
    assert persistent.stages["ptx"] != ptx
    assert (
        compile_matmul("f16", (1000, 1032, 1016), knobs).stages["ptx"] == persistent.stages["ptx"]
    )


@pytest.mark.parametrize("kind", ["f16", "bias_relu"])
def test_two_consumers_loop_over_the_tiles(kind: str) -> None:
    """Two consumer warpgroups (the schedules' default 128x256 blocks) on a persistent grid:
    each consumer's store of its 64 rows is inside its own tile loop, the producer's loads
    in thread 0's; every warpgroup's loop steps by the grid (three loops over %nctaid.x)
    and the ring's empty barriers count both consumers' 256 threads."""
    knobs = {"consumers": 2, "block_m": 128, "block_n": 256, "persistent": 132}
    kernel = compile_matmul(kind, (1000, 1032, 1016), knobs)
    scheduled = str(kernel.stages["scheduled"])
    grid_dims = set(re.findall(r"%(\w+) = gpu\.grid_dim x", scheduled))
    tile_loops = _tile_loops(scheduled)
    assert len(tile_loops) == 2 and all(step in grid_dims for _, step in tile_loops), tile_loops
    threads = set(re.findall(r"%(\w+) = arith\.constant 256 : index", scheduled))
    counts = re.findall(r"nvgpu\.mbarrier\.init %\w+\[%\w+\], %(\w+)", scheduled)
    assert len(counts) == 8 and sum(count in threads for count in counts) == 4, counts
    ptx = kernel.stages["ptx"]
    assert re.findall(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+(\d+);", ptx) == ["232"]
    assert "wgmma.mma_async.sync.aligned.m64n256k16" in ptx


def _schedule_with(ctas: int) -> str:
    """The f16 schedule with the persistent knob replaced by a constant outside its
    options (the rewrite's own range check answers)."""
    text = (REPO / "schedules" / "matmul_f16_cuda.mlir").read_text()
    knob = re.search(r'%persistent = transform\.tune\.knob<"persistent">[^\n]*', text)
    assert knob is not None
    return text.replace(
        knob.group(0),
        f"%persistent = transform.param.constant {ctas} : i64 -> !transform.param<i64>",
    )


def test_a_grid_beyond_the_limit_is_a_located_diagnostic(tmp_path: Path) -> None:
    schedule = tmp_path / "schedule.mlir"
    schedule.write_text(_schedule_with(1 << 17))
    text = f16_out_payload(256, 256, 128)
    with pytest.raises(TransformError) as caught:
        schedir.compile(
            text, schedule=schedule, target="cuda", knobs={"consumers": 1, "block_n": 128}
        )
    message = str(caught.value)
    assert "ctas must be in 0..65536, got 131072" in message
    assert "could not make the tile loop persistent" in message


@pytest.mark.parametrize("ctas", [0, 3])
def test_a_k_of_one_step(ctas: int, ptxas: Path) -> None:
    """K = 64: the k loop of one step folds away, leaving the zero fill of C's tile and
    views of it before the matmul (the wgmma rewrite once refused that as C not filled
    with 0 right before it); each consumer runs one step of 4 m64n256k16 per tile. The
    single-stage tiles go with their deallocations: once these stayed (32 KiB of static
    shared memory) and, being per-tile work outside the roles, put the tile loop around
    the roles (setmaxnreg once per tile; ptxas spilled the tile loop's indices)."""
    knobs = {"consumers": 2, "block_m": 128, "block_n": 256, "persistent": ctas}
    kernel = compile_matmul("f16", (1000, 1032, 64), knobs)
    ptx = kernel.stages["ptx"]
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n256k16") == 4
    scheduled = str(kernel.stages["scheduled"])
    assert "memref.dealloc" not in scheduled
    assert not re.search(
        r"memref\.alloc\(\) : memref<\w+, #gpu\.address_space<workgroup>>", scheduled
    )
    if ctas:
        assert len(_tile_loops(scheduled)) == 2  # inside the producer's and consumers' roles
    assert_assembles_cleanly(ptx, ptxas)


_WINDOW = re.compile(
    r"wgmma\.commit_group\.sync\.aligned;(?:(?!wgmma\.commit_group).)*?"
    r"wgmma\.wait_group\.sync\.aligned 0;",
    re.DOTALL,
)
"""From a k step's commit to the accumulators' last wait (no other commit in between)."""


@pytest.mark.parametrize(
    ("size", "ctas"),
    [((1024, 768, 128), 3), ((2048, 2048, 128), 7), ((1024, 768, 128), 0), ((1000, 1032, 72), 3)],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_nothing_runs_between_the_last_wgmma_and_its_wait(
    size: tuple[int, int, int], ctas: int, ptxas: Path
) -> None:
    """Two consumers over tiles of two k steps: the k loop unrolls and the store's address
    arithmetic (the raster order's divisions: a 16-bit division is a call in ptxas) was
    placed between the last wgmma and `wgmma.wait_group 0`; around that call ptxas read
    the in-flight accumulators (f16 conversions of the stale registers: wrong elements on
    the H200, K = 128 on 3 and 7 blocks), and without persistence it serialized the wgmma
    (C7514). The wait now follows the k loop at once: between the last commit and it only
    the ring's release of the previous stage (its address, an mbarrier arrive) and the
    wait for the step before remain, no division."""
    knobs = {"consumers": 2, "block_m": 128, "block_n": 256, "persistent": ctas}
    ptx = compile_matmul("f16", size, knobs).stages["ptx"]
    windows = _WINDOW.findall(ptx)
    assert windows
    for window in windows:
        assert not re.search(r"\b(div|rem)\.", window), window
        assert "call" not in window, window
    assert_assembles_cleanly(ptx, ptxas)


@pytest.mark.parametrize("kind", ["f16", "bf16", "bias_relu"])
def test_a_persistent_producer_of_24_registers_is_a_constraint_violation(kind: str) -> None:
    """The persistent producer's tile loop spills at 24 registers (331x264x200, 3 stages,
    3 or 132 blocks: 24-76 bytes): persistent > 0 needs producer_registers >= 40; a block
    per tile still takes 24."""
    for ctas in (3, 132):
        with pytest.raises(TransformError, match=re.escape(f"params ({ctas}, 24)")):
            compile_matmul(
                kind, (331, 264, 200), {"producer_registers": 24, "persistent": ctas, "stages": 3}
            )
    compile_matmul(kind, (331, 264, 200), {"producer_registers": 24, "persistent": 0, "stages": 3})


_PINGPONG = {"pingpong": 1, "consumers": 2, "block_m": 128, "block_n": 128}
"""Ping-pong consumers, each on a whole 128 x 128 tile."""


@pytest.mark.parametrize(
    ("kind", "size", "ctas", "stages", "tile"),
    [
        ("f16", (1000, 1032, 1016), 132, 4, (128, 128)),
        ("f16", (1000, 1032, 64), 3, 3, (128, 128)),
        ("bf16", (4095, 4097, 4096), 132, 5, (128, 128)),
        ("bias_relu", (1000, 1032, 1016), 132, 4, (128, 128)),
        ("bias_relu", (4095, 4097, 4096), 7, 2, (128, 128)),
        ("f16", (1000, 1032, 1016), 132, 4, (64, 256)),
        ("bf16", (1000, 1032, 64), 5, 5, (64, 256)),
        ("bias_relu", (4095, 4097, 4096), 132, 4, (64, 256)),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_pingpong_ptx_assembles_cleanly(
    kind: str,
    size: tuple[int, int, int],
    ctas: int,
    stages: int,
    tile: tuple[int, int],
    ptxas: Path,
) -> None:
    """Ping-pong consumers (`pingpong` knob): one producer and two consumers, each running
    its own 128 x 128 (two m64n128k16 per k16 step) or 64 x 256 tile (one m64n256k16; the
    wgmma rewrite's `pingpong` lets one warpgroup hold it), the ring's 2 x stages barriers and four
    turn barriers set up (the empty ones and the turns count one warpgroup's 128
    threads); the consumers' tile loop starts at block_id + consumer * grid and steps by
    two grids (its index from lane 0: `shfl.sync.idx`); each consumer waits for its MMAs
    (`wgmma.wait_group 0`) in its last k step before releasing the stage; the PTX
    assembles without C75xx warnings and without spills (without the warp-uniform
    consumer index the bias + relu edge tiles spilled 16-40 bytes)."""
    block_m, block_n = tile
    knobs = {**_PINGPONG, "block_m": block_m, "block_n": block_n}
    kernel = compile_matmul(kind, size, {**knobs, "persistent": ctas, "stages": stages})
    scheduled = str(kernel.stages["scheduled"])
    counts = re.findall(r"nvgpu\.mbarrier\.init %\w+\[%\w+\], %(\w+)", scheduled)
    warpgroup = set(re.findall(r"%(\w+) = arith\.constant 128 : index", scheduled))
    assert len(counts) == 2 * stages + 4, counts
    assert sum(count in warpgroup for count in counts) == stages + 4, counts
    assert "schedir.pingpong" not in scheduled  # dealt by the persistent tile loop
    grid_dims = set(re.findall(r"%(\w+) = gpu\.grid_dim x", scheduled))
    doubled = set(re.findall(rf"%(\w+) = arith\.muli %(?:{'|'.join(grid_dims)}), %\w+", scheduled))
    loops = re.findall(r"scf\.for %\w+ = %(\w+) to %\w+ step %(\w+)", scheduled)
    assert any(step in doubled for _, step in loops), loops
    ptx = kernel.stages["ptx"]
    assert re.findall(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+(\d+);", ptx) == ["40"]
    assert re.findall(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+(\d+);", ptx) == ["232"]
    assert f"wgmma.mma_async.sync.aligned.m64n{block_n}k16" in ptx
    assert {128: "m64n256k16", 256: "m64n128k16"}[block_n] not in ptx
    assert "shfl.sync.idx.b32" in ptx
    assert re.search(r"wgmma\.wait_group\.sync\.aligned\s+0;", ptx)
    assert not unknown_intrinsics(ptx)
    assert_assembles_cleanly(ptx, ptxas)


@pytest.mark.parametrize(
    ("knobs", "params"),
    [
        ({"persistent": 0}, "(1, 0, 2)"),
        ({"consumers": 1, "block_n": 128}, "(1, 132, 1)"),
        ({"stages": 6}, "(128, 128, 6, 64, 0, 2, 1)"),
    ],
)
def test_pingpong_without_turns_is_a_constraint_violation(
    knobs: dict[str, int], params: str
) -> None:
    """Ping-pong needs a persistent grid (a block per tile leaves its one tile to consumer 0)
    and two consumers at least; each consumer stages a whole tile's rows (6 stages of 32
    KiB and 2 x 128 rows of 144 bytes do not fit: the ring alone would)."""
    with pytest.raises(TransformError, match=re.escape(f"params {params}")):
        compile_matmul("f16", (1000, 1032, 1016), {**_PINGPONG, **knobs})


@pytest.mark.parametrize(
    ("kind", "size", "ctas", "stagger"),
    [
        ("f16", (1000, 1032, 1016), 132, 1),
        ("bf16", (4095, 4097, 4096), 132, 3),
        ("bias_relu", (1000, 1032, 1016), 132, 2),
        ("f16", (1000, 1032, 64), 5, 3),
    ],
    ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v),
)
def test_staggered_ptx_assembles_cleanly(
    kind: str, size: tuple[int, int, int], ctas: int, stagger: int, ptxas: Path
) -> None:
    """Staggered consumers (`stagger` knob): the ring's barriers and one more (128
    arrivals) on which consumer 0 lets the other start; the consumer index from lane 0;
    clean PTX (no C75xx, no spills), the default's m64n256k16."""
    kernel = compile_matmul(kind, size, {"stagger": stagger, "persistent": ctas})
    scheduled = str(kernel.stages["scheduled"])
    counts = re.findall(r"nvgpu\.mbarrier\.init %\w+\[%\w+\], %(\w+)", scheduled)
    assert len(counts) == 2 * 4 + 1, counts
    ptx = kernel.stages["ptx"]
    assert "wgmma.mma_async.sync.aligned.m64n256k16" in ptx
    assert "shfl.sync.idx.b32" in ptx
    assert not unknown_intrinsics(ptx)
    assert_assembles_cleanly(ptx, ptxas)


@pytest.mark.parametrize(
    ("knobs", "params"),
    [
        ({"stagger": 3, "stages": 3}, "(3, 3, 2, 0)"),
        ({"stagger": 1, "consumers": 1, "block_n": 128}, "(1, 4, 1, 0)"),
        ({"stagger": 1, "pingpong": 1, "block_n": 128}, "(1, 4, 2, 1)"),
    ],
)
def test_stagger_out_of_range_is_a_constraint_violation(knobs: dict[str, int], params: str) -> None:
    """Staggered consumers start less than the ring's stages apart (else consumer 0 waits
    for a stage only the others' releases refill), two of them at least, cooperating."""
    with pytest.raises(TransformError, match=re.escape(f"params {params}")):
        compile_matmul("f16", (1000, 1032, 1016), knobs)
