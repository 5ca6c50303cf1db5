"""`schedules/matmul_cpu.mlir` gives a register-blocked, packed, fully vectorized kernel at
every static shape, and the same numbers as `schedir.reference`.

The schedule tiles C into column blocks, k blocks and panels, packs each B panel into a
contiguous buffer, and runs a reg_m x reg_n micro-kernel whose accumulator is carried in
registers across the k loop; partial tiles (a size that a tile size does not divide) are
peeled into static tiles of their own. So for any M, N, K (odd ones, ones smaller than a
tile, ones of 1) no linalg op and no scalar loop is left, the main accumulator is a
loop-carried vector, and the results match the float64 reference. The innermost loop of
the 1024^3 example's assembly is full-width FMAs with no stack traffic.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import schedir
from schedir.cpu.jit import JitModule, emit_assembly, object_code
from tests.helpers import check_kernel, matmul_payload, payload_part

ROOT = Path(__file__).parents[3]
SCHEDULE = ROOT / "schedules" / "matmul_cpu.mlir"


def _check_structure(ir: str, reg: tuple[int, int] | None) -> None:
    """No linalg op, no scalar load/store loop, no unlowered contraction; with `reg`, the
    reg_m x reg_n accumulator is carried by a k loop."""
    text = payload_part(ir)
    assert not re.findall(r"linalg\.[a-z_]+", text), "linalg ops left"
    assert "memref.load" not in text and "memref.store" not in text, "scalar loop left"
    assert "vector.contract" not in text and "vector.outerproduct" not in text
    assert "vector.fma" in text
    if reg is not None:
        m, n = reg
        assert re.search(rf"scf\.for .* iter_args\(.*\) -> \(vector<{m}x{n}xf32>\)", text)


def _compile_and_check(m: int, n: int, k: int, knobs: dict[str, int] | None = None) -> str:
    payload = matmul_payload(m, n, k)
    kernel = schedir.compile(payload, SCHEDULE, knobs=knobs)
    check_kernel(kernel, payload, seed=m * 7 + n * 3 + k)
    return kernel.stages["scheduled"]


@pytest.mark.parametrize(
    ("m", "n", "k"),
    [
        (131, 256, 512),  # M odd: 21 tiles of 6 rows and a peeled 5-row tile
        (67, 93, 301),  # nothing divides: every loop has a peeled static tail
        (5, 9, 3),  # smaller than every tile
        (1, 1, 1),
        (23, 1, 1001),  # a single column, a long odd reduction
    ],
)
def test_odd_shapes_match_the_reference_fully_vectorized(m: int, n: int, k: int) -> None:
    ir = _compile_and_check(m, n, k)
    _check_structure(ir, (6, 64) if m >= 6 and n >= 64 else None)


@pytest.mark.parametrize(
    "knobs",
    [
        {"reg_m": 4, "reg_n": 8},  # reg_m divides M: nothing to peel in M
        {"reg_m": 2, "reg_n": 32, "block_k": 64, "block_n": 64},
        {"reg_m": 2, "block_k": 512, "block_n": 256},
        {"reg_m": 12, "reg_n": 32},  # the AVX-512 tile (spills on AVX2, still right)
        {"reg_m": 14, "reg_n": 32, "unroll_k": 8, "block_k": 64},  # 520 = 8 * 64 + 8
        {"reg_m": 6, "reg_n": 64, "unroll_k": 4, "block_k": 128},  # 520 = 4 * 128 + 8
        {"unroll_k": 8},  # 520 = 512 + 8
    ],
)
def test_knob_points_match_the_reference(knobs: dict[str, int]) -> None:
    ir = _compile_and_check(37, 256, 520, knobs)
    _check_structure(ir, (knobs.get("reg_m", 6), knobs.get("reg_n", 64)))


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    st.integers(1, 40),
    st.integers(1, 70),
    st.integers(1, 300),
)
def test_generated_shapes_match_the_reference(m: int, n: int, k: int) -> None:
    _check_structure(_compile_and_check(m, n, k), None)


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(st.integers(1, 30), st.integers(1, 40), st.integers(1, 70), st.sampled_from([2, 4, 8]))
def test_unrolled_k_loops_match_the_reference_at_generated_shapes(
    m: int, n: int, k: int, unroll: int
) -> None:
    """An unroll_k that does not divide the k block leaves a peeled k tail of its own."""
    knobs = {"unroll_k": unroll, "block_k": 64}
    _check_structure(_compile_and_check(m, n, k, knobs), None)


def _innermost_fma_loops(asm: str) -> list[list[str]]:
    """The bodies of the basic blocks that branch back to themselves and contain FMAs."""
    loops: list[list[str]] = []
    label: str | None = None
    lines: list[str] = []
    for line in asm.splitlines():
        found = re.match(r"^(\.LBB\w+):", line)
        if found:
            label, lines = found.group(1), []
            continue
        if label is None:
            continue
        lines.append(line.strip())
        jump = re.match(r"^j\w+\s+(\.LBB\w+)$", line.strip())
        if jump and jump.group(1) == label:
            if any(s.startswith("vfmadd") for s in lines):
                loops.append(lines)
            label = None
    return loops


def _kernel_loop(asm: str) -> list[str]:
    loops = _innermost_fma_loops(asm)
    assert loops, "no FMA loop in the assembly"
    return max(loops, key=lambda body: sum(s.startswith("vfmadd") for s in body))


@pytest.mark.parametrize(
    ("cpu", "knobs", "register", "fmas_per_k"),
    [
        ("haswell", {"reg_n": 16}, "ymm", 12),  # 6x16 in 12 of AVX2's 16 registers
        ("znver3", {"reg_n": 16, "unroll_k": 1}, "ymm", 12),
        ("skylake-avx512", {"reg_m": 12, "reg_n": 32}, "zmm", 24),  # 24 of 32 registers
        ("sapphirerapids", {"reg_m": 14, "reg_n": 32}, "zmm", 28),
        ("znver4", {}, "zmm", 24),  # the selected 6x64: 24 of 32 registers
    ],
)
def test_the_micro_kernel_keeps_its_accumulators_in_registers_on_each_isa(
    cpu: str, knobs: dict[str, int], register: str, fmas_per_k: int
) -> None:
    """Cross-compiled for the CPU (LLVM's defaults for it: AVX-512 registers on the
    AVX-512 ones), the micro-kernel of the tile meant for that instruction set is one
    full-width FMA per accumulator and k step, and no stack traffic."""
    kernel = schedir.compile(ROOT / "examples" / "matmul_cpu.mlir", SCHEDULE, knobs=knobs)
    code = object_code(kernel.stages["llvm-ir"], cpu_name=cpu, cpu_features="")
    body = _kernel_loop(emit_assembly(code.optimized_ir, 3, cpu, ""))
    fmas = [s for s in body if s.startswith("vfmadd")]
    assert len(fmas) == fmas_per_k * knobs.get("unroll_k", 4), body  # 4: the selected
    assert all(f"%{register}" in s for s in fmas), fmas
    assert not [s for s in body if re.search(r"\(%r[sb]p\)", s)], body


def test_the_example_micro_kernel_is_full_width_fmas_without_spills() -> None:
    """On this host, with the tile meant for its instruction set (the selected 6x64 on
    AVX-512, 6x16 on AVX2 without it), the micro-kernel is full-width FMAs, no spills."""
    probe = JitModule(
        schedir.compile(ROOT / "examples" / "matmul_cpu.mlir", SCHEDULE).stages["llvm-ir"]
    )
    features = probe.cpu_features
    if "+avx2" not in features or "+fma" not in features:
        pytest.fail(f"this test expects an AVX2+FMA host, got {probe.cpu_name}")
    avx512 = "+avx512f" in features
    knobs = {} if avx512 else {"reg_n": 16}
    kernel = schedir.compile(ROOT / "examples" / "matmul_cpu.mlir", SCHEDULE, knobs=knobs)
    jit = JitModule(kernel.stages["llvm-ir"]) if knobs else probe
    loops = _innermost_fma_loops(jit.assembly)
    assert loops, "no FMA loop in the assembly"
    kernel_loop = max(loops, key=lambda body: sum(s.startswith("vfmadd") for s in body))
    fmas = [s for s in kernel_loop if s.startswith("vfmadd")]
    # 6x64 f32: 24 FMAs per k step on zmm; 6x16: 12 on ymm (or wider); nothing on the stack.
    assert len(fmas) >= (24 if avx512 else 12)
    register = r"%zmm" if avx512 else r"%[yz]mm"
    assert all(re.search(register, s) for s in fmas), fmas
    assert not [s for s in kernel_loop if re.search(r"\(%r[sb]p\)", s)], kernel_loop
