"""schedules/matmul_f16_ring_cuda.mlir and matmul_bf16_ring_cuda.mlir without a GPU: each example
compiles to sm_90a PTX with TMA loads, mbarrier waits and wgmma MMAs (m64n<block_n>k16),
in one stage or a ring of 2-4 (dynamic shared memory, full/empty mbarriers, one wgmma
group in flight), which ptxas assembles without serializing the wgmma instructions (C751x) and without
spills, at every tile shape (block_m, block_n) the knobs and their constraint allow, and
names no intrinsic LLVM does not know (tests/unit/gpu/test_wgmma_ptx.py shows that a
misspelled one is an error)."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir.diagnostics import TransformError
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.gpu.ptx import serialization_warnings, unknown_intrinsics
from schedir.pipeline import apply_schedule
from tests.unit.gpu.ptxas_report import assert_assembles_cleanly

REPO = Path(__file__).parents[3]
SCHEDULE = REPO / "schedules" / "matmul_f16_ring_cuda.mlir"
PAYLOAD = REPO / "examples" / "matmul_f16_ring_cuda.mlir"
SELECTED = {"block_m": 128, "block_n": 128, "stages": 3}
"""The knobs' selected values in the schedules."""


def _schedule(name: str, **knobs: int) -> str:
    text = (REPO / "schedules" / name).read_text()
    for knob, value in knobs.items():
        selected = f'"{knob}"> = {SELECTED[knob]} from'
        assert selected in text
        text = text.replace(selected, f'"{knob}"> = {value} from')
    return text


def _compile(name: str, block_m: int, block_n: int, stages: int) -> schedir.Kernel:
    schedule = _schedule(name, block_m=block_m, block_n=block_n, stages=stages)
    return schedir.compile(REPO / "examples" / name, schedule=schedule, target="cuda")


CASES = [
    ("matmul_f16_ring_cuda.mlir", 64, 64, 2),
    ("matmul_f16_ring_cuda.mlir", 64, 128, 4),
    ("matmul_f16_ring_cuda.mlir", 64, 256, 4),
    ("matmul_f16_ring_cuda.mlir", 128, 64, 3),
    ("matmul_f16_ring_cuda.mlir", 128, 128, 4),
    ("matmul_f16_ring_cuda.mlir", 128, 128, 1),
    ("matmul_bf16_ring_cuda.mlir", 128, 128, 4),
    ("matmul_bf16_ring_cuda.mlir", 64, 256, 3),
]
"""(schedule, block_m, block_n, stages): every tile shape the knobs and their constraint
allow, with one stage (no ring) and rings of 2 to 4 stages."""


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1]}x{c[2]}-s{c[3]}")
def kernel(request: pytest.FixtureRequest) -> tuple[int, int, int, schedir.Kernel, str]:
    name, block_m, block_n, stages = request.param
    element = "bf16" if "bf16" in name else "f16"
    return block_m, block_n, stages, _compile(name, block_m, block_n, stages), element


def test_ptx_has_tma_mbarrier_and_wgmma(
    kernel: tuple[int, int, int, schedir.Kernel, str],
) -> None:
    block_m, block_n, stages, compiled, element = kernel
    ptx = compiled.stages["ptx"]
    assert re.search(r"^\.target sm_90a\b", ptx, flags=re.M)
    # K = 384 in steps of 64 (the loop is unrolled or not), block_m / 64 x 4 per step,
    # each as wide as the block.
    mma = re.findall(
        rf"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.{element}\.{element}\b", ptx
    )
    assert mma and len(mma) % (block_m // 64 * 4) == 0
    assert set(mma) == {str(block_n)}
    # One TMA load for A and one per 64-column chunk of B, per step (the ring's
    # prologue loads stages - 1 steps before the loop).
    loads = re.findall(r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global", ptx)
    assert loads and len(loads) % (1 + block_n // 64) == 0
    assert len(loads) >= stages * (1 + block_n // 64)
    assert "mbarrier.arrive.expect_tx.shared.b64" in ptx
    assert "mbarrier.try_wait.parity.shared.b64" in ptx
    # The store waits for every MMA; a ring keeps one group in flight in the loop and
    # releases stages on their empty barriers.
    assert "wgmma.wait_group.sync.aligned 0" in ptx
    assert ("wgmma.wait_group.sync.aligned 1" in ptx) == (stages > 1)
    assert ("mbarrier.arrive.shared.b64" in ptx) == (stages > 1)
    assert not unknown_intrinsics(ptx)
    # 128B-swizzled TMA boxes and wgmma tiles need 1024-byte aligned shared memory (the
    # promoted tiles are reached through views of their buffer); 16 was a misaligned
    # address on the H200. A ring lives in dynamic shared memory (over 48 KiB).
    tiles = re.findall(r"^\s*\.shared \.align (\d+) \.b8 __wg_\w+\[\d+\];", ptx, flags=re.M)
    dynamic = re.findall(
        r"^\s*\.extern \.shared \.align (\d+) \.b8 __dynamic_shmem__\[\];", ptx, flags=re.M
    )
    if stages == 1:
        assert len(tiles) == 2 and all(int(a) >= 1024 for a in tiles), tiles
        assert not dynamic
    else:
        assert not tiles and dynamic == ["1024"], (tiles, dynamic)


def test_ring_reserves_its_dynamic_shared_memory() -> None:
    """The launch asks for the ring's bytes: 4 stages of 128 x 64 and 64 x 128 f16 tiles."""
    compiled = _compile("matmul_f16_ring_cuda.mlir", 128, 128, 4)
    assert re.search(r"@mgpuLaunchKernel\(.*, i32 131072, ", compiled.stages["llvm-ir"])


@pytest.mark.parametrize("stages", [1, 4])
def test_a_single_k_step_has_no_ring_to_build(stages: int) -> None:
    """K = 64 is one k step: canonicalization folds the k loop away, and the ring op leaves
    the straight-line step as it is (the device ran such a payload as a silenceable
    failure at every stage count before), with no dynamic shared memory."""
    a, b, c = "tensor<128x64xf16>", "tensor<64x256xf16>", "tensor<128x256xf32>"
    payload = f"""func.func @matmul(%A: {a}, %B: {b}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : {c}
  %acc = linalg.fill ins(%zero : f32) outs(%init : {c}) -> {c}
  %r = linalg.matmul ins(%A, %B : {a}, {b}) outs(%acc : {c}) -> {c}
  return %r : {c}
}}
"""
    schedule = _schedule("matmul_f16_ring_cuda.mlir", stages=stages)
    compiled = schedir.compile(payload, schedule=schedule, target="cuda")
    assert "wgmma.mma_async" in compiled.stages["ptx"]
    assert re.search(r"@mgpuLaunchKernel\(.*, i32 0, ", compiled.stages["llvm-ir"])


def test_knob_points_beyond_one_warpgroup_are_pruned() -> None:
    """128 x 256 needs 256 accumulator registers per thread of one warpgroup: the knobs'
    constraint rejects it (the autotuner prunes it) instead of a spilling kernel."""
    schedule = _schedule("matmul_f16_ring_cuda.mlir", block_m=128, block_n=256)
    with pytest.raises(TransformError, match=r"constraint violated for params \(128, 256, 3\)"):
        schedir.compile(
            REPO / "examples" / "matmul_f16_ring_cuda.mlir", schedule=schedule, target="cuda"
        )


def test_ptx_assembles_without_serialization_or_spills(
    kernel: tuple[int, int, int, schedir.Kernel, str], ptxas: Path
) -> None:
    ptx = kernel[3].stages["ptx"]
    assert_assembles_cleanly(ptx, ptxas)


def _odd_payload(m: int, n: int, k: int, element: str = "f16") -> str:
    text = PAYLOAD.read_text().replace("f16", element)
    for old, new in (("512", str(m)), ("384", str(k)), ("256", str(n))):
        text = text.replace(old, new)
    return text


EDGE_CASES = [
    ("f16", 1000, 1032, 1016, 128, 128, 3),
    ("f16", 65, 136, 72, 64, 256, 4),
    ("f16", 4095, 4104, 4096, 128, 64, 1),
    ("bf16", 129, 72, 1000, 64, 64, 2),
    ("f16", 1, 8, 72, 128, 128, 3),
]
"""(element, m, n, k, block_m, block_n, stages): sizes the tiles do not divide (edge
tiles in M, N and K, one partial tile, a single row and N below one column chunk)."""


@pytest.mark.parametrize(
    ("element", "m", "n", "k", "block_m", "block_n", "stages"),
    EDGE_CASES,
    ids=lambda v: str(v),
)
def test_edge_tiles_compile_to_bounded_stores(
    element: str, m: int, n: int, k: int, block_m: int, block_n: int, stages: int, ptxas: Path
) -> None:
    """Edge tiles load whole TMA boxes (zero-filled past the tensors) and store C under
    bounds: the PTX has the wgmma and TMA of the divisible case, predicated stores, and
    assembles without serialization warnings or spills."""
    schedule = _schedule(
        f"matmul_{element}_ring_cuda.mlir", block_m=block_m, block_n=block_n, stages=stages
    )
    compiled = schedir.compile(_odd_payload(m, n, k, element), schedule=schedule, target="cuda")
    scheduled = compiled.stages["scheduled"]
    assert "linalg.matmul" not in scheduled and "linalg.copy" not in scheduled
    ptx = compiled.stages["ptx"]
    assert re.search(rf"wgmma\.mma_async\.sync\.aligned\.m64n{block_n}k16", ptx)
    assert "cp.async.bulk.tensor.2d" in ptx
    # Every store of C is behind a bounds check (a predicated branch around it).
    stores = re.findall(r"^\s*(@%p\d+ )?st\.global", ptx, flags=re.M)
    assert stores
    assert re.search(r"@%p\d+ bra", ptx)
    _assemble_clean(ptx, ptxas)


def _assemble_clean(ptx: str, ptxas: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "k.ptx"
        source.write_text(ptx)
        log = subprocess.run(
            [str(ptxas), "-arch=sm_90a", "-v", str(source), "-o", str(Path(tmp) / "k.cubin")],
            capture_output=True,
            text=True,
            check=True,
        ).stderr
    assert not serialization_warnings(log), log
    spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    assert spills and all(s == ("0", "0") for s in spills), log


@settings(max_examples=6)
@given(
    m=st.integers(1, 300),
    n=st.integers(64, 300),
    k=st.integers(64, 300),
    element=st.sampled_from(["f16", "bf16"]),
)
def test_rows_not_a_multiple_of_16_bytes_compile_to_tma_loads(
    m: int, n: int, k: int, element: str
) -> None:
    """A K or N that is not a multiple of 8 (rows TMA cannot describe where they lie) is
    no error at compile time: the copies still become TMA loads, the host stages such an
    operand into 16-byte-pitched rows when it builds the descriptor (schedir/gpu/tma.py),
    and every store of C is a bounded scalar store (no vector store an odd row would
    misalign)."""
    compiled = schedir.compile(_odd_payload(m, n, k, element), schedule=SCHEDULE, target="cuda")
    ptx = compiled.stages["ptx"]
    assert "cp.async.bulk.tensor.2d" in ptx and "wgmma.mma_async" in ptx
    assert not re.search(r"st\.global\.v\d", ptx) or n % 8 == 0


@pytest.mark.parametrize(("m", "n", "k"), [(1, 1, 1), (17, 9, 33), (64, 4097, 8)])
def test_tiles_folded_below_16_byte_rows_are_a_diagnostic(m: int, n: int, k: int) -> None:
    """An N or K below the tile folds the tile's buffer to that static width: a box row
    under 16 bytes (or a K below one 64-element swizzled row) that TMA cannot load is an
    error at the copy, never a wrong answer (the schedule would need to keep the tile's
    full width: not done yet)."""
    with pytest.raises(TransformError, match="could not rewrite the copies as TMA loads"):
        schedir.compile(_odd_payload(m, n, k, "f16"), schedule=SCHEDULE, target="cuda")


F16_OUT = REPO / "schedules" / "matmul_f16_f16out_cuda.mlir"


@pytest.mark.parametrize(
    ("m", "n", "k", "stages"), [(1000, 1032, 1016, 3), (512, 256, 384, 1), (65, 40, 72, 2)]
)
def test_f16_out_converts_in_the_store(m: int, n: int, k: int, stages: int, ptxas: Path) -> None:
    """matmul_f16_f16out_cuda.mlir: the truncf generic is fused into the store of the
    accumulators (no f32 temporary, no generic left; cvt to f16, no f32 stores), at
    sizes the tiles divide and edge sizes, and the PTX assembles clean."""
    text = (REPO / "examples" / "matmul_f16_f16out_cuda.mlir").read_text()
    for old, new in (("1000", str(m)), ("1016", str(k)), ("1032", str(n))):
        text = text.replace(old, new)
    schedule = F16_OUT.read_text().replace(
        f'"stages"> = {SELECTED["stages"]} from', f'"stages"> = {stages} from'
    )
    compiled = schedir.compile(text, schedule=schedule, target="cuda")
    scheduled = compiled.stages["scheduled"]
    assert "linalg." not in scheduled
    kernel = scheduled.split("gpu.launch", 1)[1]
    assert not re.search(r"memref\.alloc\([^)]*\)[^\n]*xf32>", kernel)
    assert re.search(r"nvgpu\.warpgroup\.mma\.store .* to memref<[^>]*xf16", scheduled)
    ptx = compiled.stages["ptx"]
    # Rounded to f16 (pairs packed into one 32-bit store where the tile is whole).
    assert re.search(r"cvt\.rn\.f16(x2)?\.f32", ptx)
    assert not re.search(r"st\.global\.(f32|b64|v2)", ptx)
    _assemble_clean(ptx, ptxas)


@settings(max_examples=10)
@given(
    m=st.integers(1, 700),
    n8=st.integers(1, 90),
    k8=st.integers(8, 90),
    shape=st.sampled_from([(64, 64), (64, 128), (64, 256), (128, 64), (128, 128)]),
    stages=st.integers(1, 4),
)
def test_any_size_with_aligned_rows_becomes_tma_and_wgmma(
    m: int, n8: int, k8: int, shape: tuple[int, int], stages: int
) -> None:
    """Every M, every N and K >= 64 that are multiples of 8, at every tile shape and stage
    count: the schedule rewrites all copies into TMA loads and the matmul into wgmma (no
    linalg op left), and C's store is bounded exactly when the tiles do not divide M or N
    (its destination then has dynamic sizes)."""
    n, k = 8 * n8, 8 * k8
    block_m, block_n = shape
    schedule = _schedule(
        "matmul_f16_ring_cuda.mlir", block_m=block_m, block_n=block_n, stages=stages
    )
    ctx = get_context()
    module = parse_module(_odd_payload(m, n, k), "<payload>", ctx=ctx)
    assert apply_schedule(ctx, module, parse_module(schedule, "<schedule>", ctx=ctx))
    scheduled = print_op(module)
    assert "linalg." not in scheduled
    stores = re.findall(r"nvgpu\.warpgroup\.mma\.store .* to memref<([^>]*)>", scheduled)
    assert len(stores) == 1
    bounded = m % block_m != 0 or n % block_n != 0
    assert stores[0].startswith("?x?xf32") == bounded, stores
