"""`schedir-run` on kernels that fault: a diagnostic and exit status 1, never a silent death.

Run as the installed console script in a subprocess (a crash there would end the test
process otherwise): without `--runtime-verification` the kernel runs in a forked child
and its signal is reported; with it, the failed check is reported at the payload op.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

DIVIDE = """\
func.func @divide(%a: tensor<7xi32>, %b: tensor<7xi32>) -> tensor<7xi32> {
  %init = tensor.empty() : tensor<7xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<7xi32>, tensor<7xi32>) outs(%init : tensor<7xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.divsi %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<7xi32>
  return %r : tensor<7xi32>
}
"""

GATHER = """\
func.func @gather(%t: tensor<5xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<5xf32>
  return %x : f32
}
"""


def _script(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).parent / name)
    assert os.path.exists(found), f"{name} is not installed (pip install -e .)"
    return found


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_script("schedir-run"), *args], capture_output=True, text=True, timeout=300
    )


def _inputs(tmp_path: Path, *arrays: np.ndarray) -> str:
    names = []
    for index, array in enumerate(arrays):
        name = tmp_path / f"in{index}.npy"
        np.save(name, array)
        names.append(str(name))
    return ",".join(names)


@pytest.fixture
def divide(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "divide.mlir"
    path.write_text(DIVIDE)
    a = np.arange(3, 10, dtype=np.int32)
    b = np.array([1, 2, 3, 0, 5, 6, 7], np.int32)
    return path, _inputs(tmp_path, a, b)


@pytest.fixture
def gather(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "gather.mlir"
    path.write_text(GATHER)
    return path, _inputs(tmp_path, np.arange(5, dtype=np.float32), np.array(1 << 36))


def test_division_by_zero_is_a_reported_crash(divide: tuple[Path, str]) -> None:
    path, inputs = divide
    result = _run(str(path), "--inputs", inputs)
    assert result.returncode == 1
    assert "error: the kernel @divide crashed with SIGFPE" in result.stderr
    assert "integer division by zero" in result.stderr
    assert "Traceback" not in result.stderr


def test_division_by_zero_is_located_with_runtime_verification(divide: tuple[Path, str]) -> None:
    path, inputs = divide
    result = _run(str(path), "--inputs", inputs, "--runtime-verification")
    assert result.returncode == 1
    line = DIVIDE.split("\n").index("    %q = arith.divsi %x, %y : i32") + 1
    assert (
        f"{path}:{line}:10: error: runtime verification failed: 'arith.divsi' op "
        "division by zero: 6 / 0" in result.stderr
    ), result.stderr
    assert "    %q = arith.divsi %x, %y : i32\n         ^" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_out_of_bounds_extract_is_a_reported_crash(gather: tuple[Path, str]) -> None:
    path, inputs = gather
    result = _run(str(path), "--inputs", inputs)
    assert result.returncode == 1
    assert "error: the kernel @gather crashed with SIGSEGV" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_out_of_bounds_extract_is_located_with_runtime_verification(
    gather: tuple[Path, str],
) -> None:
    path, inputs = gather
    result = _run(str(path), "--inputs", inputs, "--runtime-verification")
    assert result.returncode == 1
    assert (
        f"{path}:2:8: error: runtime verification failed: 'tensor.extract' op out-of-bounds "
        f"access: index {1 << 36} is not in [0, 5) in dimension 0" in result.stderr
    ), result.stderr
    assert "Traceback" not in result.stderr


def test_in_bounds_runs_pass_the_check_with_runtime_verification(tmp_path: Path) -> None:
    path = tmp_path / "gather.mlir"
    path.write_text(GATHER)
    inputs = _inputs(tmp_path, np.arange(5, dtype=np.float32) + 0.5, np.array(3))
    result = _run(str(path), "--inputs", inputs, "--runtime-verification", "--check")
    assert result.returncode == 0, result.stderr
    assert "check: OK" in result.stdout


def test_runtime_verification_is_refused_for_cuda(gather: tuple[Path, str]) -> None:
    path, _ = gather
    result = _run(str(path), "--target", "cuda", "--runtime-verification")
    assert result.returncode == 1
    assert "only available for --target cpu" in result.stderr


def test_schedir_opt_emits_the_checks(tmp_path: Path) -> None:
    path = tmp_path / "gather.mlir"
    path.write_text(GATHER)
    result = subprocess.run(
        [_script("schedir-opt"), str(path), "--emit", "llvm", "--runtime-verification"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "__schedir_runtime_check_failed" in result.stdout
    assert "'tensor.extract' op out-of-bounds access" in result.stdout


SPIN = """\
func.func @spin(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %step = arith.constant 1.0e-7 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %s = arith.addf %acc, %step : f32
    %m = arith.mulf %s, %s : f32
    scf.yield %m : f32
  }
  return %r : f32
}
"""


def test_a_kernel_past_its_timeout_is_stopped_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "spin.mlir"
    path.write_text(SPIN)
    inputs = _inputs(tmp_path, np.array(10**15))
    result = _run(str(path), "--inputs", inputs, "--timeout", "1")
    assert result.returncode == 1
    assert "error: the kernel @spin ran longer than 1 s and was killed" in result.stderr
    assert "Traceback" not in result.stderr
