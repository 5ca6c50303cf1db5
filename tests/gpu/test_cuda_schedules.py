"""The CUDA target end to end on a real device: every GPU schedule of schedules/ with its
example payload compiled by `schedir.compile(..., target="cuda")`, run at the examples'
odd sizes on NaN-filled outputs and compared with `schedir.reference`; device arrays in
and out without copies (inputs never modified); the CLI's --check and --bench; a kernel
fault reported as a schedir error naming the kernel."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import entry_signature, find_entry
from tests.helpers import check_results

pytestmark = pytest.mark.gpu

REPO = Path(__file__).parents[2]
SCHEDULES = sorted((REPO / "schedules").glob("*_cuda.mlir"))


def _example(schedule: Path) -> Path:
    return REPO / "examples" / schedule.name


def _inputs(payload: Path, seed: int) -> tuple[list[np.ndarray], list[reference.Expected]]:
    module = parse_module(payload.read_text(), str(payload), ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed)
    return inputs, reference.evaluate_with_bounds(module, signature.name, inputs)


@pytest.fixture(scope="module")
def kernels() -> dict[str, schedir.Kernel]:
    return {s.name: schedir.compile(_example(s), schedule=s, target="cuda") for s in SCHEDULES}


@pytest.mark.parametrize("schedule", SCHEDULES, ids=lambda p: p.name)
def test_schedule_matches_the_reference(schedule: Path, kernels: dict[str, schedir.Kernel]) -> None:
    kernel = kernels[schedule.name]
    inputs, expected = _inputs(_example(schedule), seed=7)
    before = [a.copy() for a in inputs]
    results = kernel.run(*inputs, prefill_nan=True)
    dtypes = [spec.dtype for spec in kernel.signature.results]
    check_results(results, expected, dtypes, where=f" ({schedule.name})")
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)
    assert ".entry" in kernel.stages["ptx"]


def test_device_arrays_in_and_out_without_copies(kernels: dict[str, schedir.Kernel]) -> None:
    torch = pytest.importorskip("torch")
    name = "matmul_bias_relu_cuda.mlir"
    kernel = kernels[name]
    inputs, expected = _inputs(REPO / "examples" / name, seed=11)
    on_device = [torch.as_tensor(a, device="cuda") for a in inputs]
    copies = [t.clone() for t in on_device]
    (result,) = kernel.run_device(*on_device)
    out = torch.as_tensor(result, device="cuda")  # zero-copy view of the DeviceArray
    check = reference.compare(out.cpu().numpy(), expected[0], np.dtype(np.float32))
    assert check.ok, check.message
    for t, c in zip(on_device, copies, strict=True):
        assert torch.equal(t, c), "an input device array was modified"
    numpy_result = kernel(*on_device)
    assert isinstance(numpy_result, np.ndarray)


def _schedir_run(*args: str) -> subprocess.CompletedProcess[str]:
    """`schedir-run ARGS` in a fresh process (the entry point may not be installed)."""
    code = "import sys; from schedir.cli import run_main; sys.exit(run_main(sys.argv[1:]))"
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": path},
    )


def test_cli_check_and_bench() -> None:
    schedule = REPO / "schedules" / "elementwise_cuda.mlir"
    done = _schedir_run(
        str(_example(schedule)),
        "--schedule",
        str(schedule),
        "--target",
        "cuda",
        "--check",
        "--bench",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check: OK" in done.stdout
    assert "bench: median=" in done.stdout


FAULT = """
func.func @fault(%a: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %big = arith.constant 1099511627776 : index
  %v = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %a[%big] : memref<16xf32>
    gpu.terminator
  }
  return
}
"""


def test_kernel_fault_is_a_schedir_error(tmp_path: Path) -> None:
    # In a subprocess: an illegal address makes the CUDA context unusable for the process.
    payload = tmp_path / "fault.mlir"
    payload.write_text(FAULT)
    done = _schedir_run(str(payload), "--target", "cuda")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in done.stderr, done.stderr
    assert "fault_kernel" in done.stderr, done.stderr


def test_vector_loads_with_misaligned_device_arrays() -> None:
    """At sizes the tiles divide, the matmul kernel reads and writes 16 bytes at a time
    (its pointer arguments are 16-byte aligned); device arrays that are views one element
    into their storage are copied to aligned buffers first, and the result stays right."""
    torch = pytest.importorskip("torch")
    n = 256
    payload = (REPO / "examples" / "matmul_cuda.mlir").read_text()
    for odd in ("999", "1001", "1003"):
        payload = payload.replace(odd, str(n))
    kernel = schedir.compile(
        payload, schedule=REPO / "schedules" / "matmul_cuda.mlir", target="cuda"
    )
    assert "ld.global.v4" in kernel.stages["ptx"]
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((n, n), dtype=np.float32) for _ in range(2))
    views = []
    for x in (a, b):
        storage = torch.empty(n * n + 1, device="cuda")
        view = storage[1:].view(n, n)  # 4 bytes past a 256-byte aligned allocation
        view.copy_(torch.as_tensor(x))
        views.append(view)
    assert all(v.data_ptr() % 16 for v in views)
    (result,) = kernel.run_device(*views)
    got = torch.as_tensor(result, device="cuda").cpu().numpy()
    module = parse_module(payload, "matmul_aligned", ctx=get_context())
    (want,) = reference.evaluate_with_bounds(module, None, [a, b])
    check = reference.compare(got, want, np.dtype(np.float32))
    assert check.ok, check.message


def test_elementwise_vector_path_matches_the_reference() -> None:
    """At 1024x1024 the elementwise kernel runs its full-tile, 16-byte access path."""
    payload = (REPO / "examples" / "elementwise_cuda.mlir").read_text()
    payload = payload.replace("1001", "1024").replace("777", "1024")
    kernel = schedir.compile(
        payload, schedule=REPO / "schedules" / "elementwise_cuda.mlir", target="cuda"
    )
    assert "ld.global.v4" in kernel.stages["ptx"]
    module = parse_module(payload, "elementwise_1024", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, 5)
    (want,) = reference.evaluate_with_bounds(module, signature.name, inputs)
    (got,) = kernel.run(*inputs, prefill_nan=True)
    check_results([got], [want], [np.dtype(np.float32)])


@pytest.mark.parametrize(
    ("rows", "cols", "knobs"),
    [
        (8191, 1000, None),
        (1001, 777, None),
        (3, 100003, None),
        (8191, 1000, {"block_rows": 8, "block_cols": 256, "vector_rows": 2, "vector_cols": 2}),
        (1001, 777, {"block_rows": 16, "block_cols": 1024, "vector_rows": 4, "vector_cols": 8}),
        (37, 129, {"block_rows": 4, "block_cols": 128, "vector_rows": 1, "vector_cols": 1}),
    ],
    ids=str,
)
def test_elementwise_odd_sizes_match_the_reference(
    rows: int, cols: int, knobs: dict[str, int] | None
) -> None:
    """Odd sizes: masked thread tiles at the edges, the 16-byte path where the mask is
    full and the address aligned (rows of 1000 floats), the masked path elsewhere (rows
    of 777 and 129: no row but the first starts 16-byte aligned)."""
    payload = (REPO / "examples" / "elementwise_cuda.mlir").read_text()
    payload = payload.replace("1001x777", f"{rows}x{cols}")
    kernel = schedir.compile(
        payload, schedule=REPO / "schedules" / "elementwise_cuda.mlir", target="cuda", knobs=knobs
    )
    module = parse_module(payload, "elementwise_odd", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, rows + cols)
    (want,) = reference.evaluate_with_bounds(module, signature.name, inputs)
    (got,) = kernel.run(*inputs, prefill_nan=True)
    check_results([got], [want], [np.dtype(np.float32)])


def test_matmul_smem_full_tiles_match_the_reference() -> None:
    """At 256x288 @ 288x384 every block tile and k step is full: the shared-memory matmul
    runs its vectorized path (tiles staged through shared memory, the accumulators in
    registers across 9 k steps of 32) and matches the reference."""
    payload = (REPO / "examples" / "matmul_smem_cuda.mlir").read_text()
    for odd, size in (("999", "256"), ("1001", "288"), ("1003", "384")):
        payload = payload.replace(odd, size)
    kernel = schedir.compile(
        payload, schedule=REPO / "schedules" / "matmul_smem_cuda.mlir", target="cuda"
    )
    assert "ld.shared.v4" in kernel.stages["ptx"]
    module = parse_module(payload, "matmul_smem_full_tiles", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, 13)
    (want,) = reference.evaluate_with_bounds(module, signature.name, inputs)
    (got,) = kernel.run(*inputs, prefill_nan=True)
    check_results([got], [want], [np.dtype(np.float32)])
