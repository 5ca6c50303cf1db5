"""Fixtures of the GPU runtime tests: the device context and kernels compiled once; the
compute-sanitizer runner of the tests that check a run of theirs under it."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from schedir.gpu import GpuContext, GpuModule, Kernel, assemble, compile_ptx, default_context

KERNELS_FILE = Path(__file__).parents[1] / "unit" / "gpu" / "nvptx_kernels.py"
REPO = Path(__file__).parents[2]
SANITIZER_SUMMARY = {
    "memcheck": r"ERROR SUMMARY: 0 errors",
    "racecheck": r"RACECHECK SUMMARY: 0 hazards",
    "synccheck": r"ERROR SUMMARY: 0 errors",
}
"""What each compute-sanitizer tool prints for a clean run."""


def run_sanitized(tool: str, script: str, *args: str) -> str:
    """Run the Python `script` (with `args` as sys.argv[1:]) under compute-sanitizer's
    `tool` from the repository root and assert a clean run that got to its end (the
    script prints "ran" last); the log. Skips the test where compute-sanitizer is not
    installed."""
    sanitizer = shutil.which("compute-sanitizer") or next(
        (p for p in ("/usr/local/cuda/bin/compute-sanitizer",) if Path(p).exists()), None
    )
    if sanitizer is None:
        pytest.skip("compute-sanitizer is not installed")
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        [
            *(sanitizer, "--tool", tool, "--error-exitcode", "3"),
            *(sys.executable, "-c", script, *args),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": path},
    )
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert "ran" in done.stdout, log
    assert re.search(SANITIZER_SUMMARY[tool], log), log
    return log


def _load_kernels() -> ModuleType:
    # The IR lives with the CPU-only PTX tests, which CI runs; import it by path.
    spec = importlib.util.spec_from_file_location("nvptx_kernels", KERNELS_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def kernels_ir() -> ModuleType:
    """The hand-written NVPTX kernels (tests/unit/gpu/nvptx_kernels.py)."""
    return _load_kernels()


@pytest.fixture(scope="session")
def context() -> GpuContext:
    """Device 0's context, initialized."""
    ctx = default_context(0)
    ctx.ensure()
    return ctx


@pytest.fixture(scope="session")
def kernel(context: GpuContext, kernels_ir: ModuleType) -> Callable[..., Kernel]:
    """`kernel(name, via="cubin"|"ptx")`: a test kernel compiled and loaded once."""
    cache: dict[tuple[str, str], GpuModule] = {}

    def get(name: str, via: str = "cubin") -> Kernel:
        key = (name, via)
        if key not in cache:
            target = context.target
            ptx = compile_ptx(kernels_ir.ALL[name], target)
            image: bytes | str = assemble(ptx, target.arch) if via == "cubin" else ptx
            cache[key] = GpuModule(context, image, name=name)
        return cache[key].kernel(name)

    return get
