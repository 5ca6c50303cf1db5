"""Fixtures of the GPU runtime tests: the device context and kernels compiled once."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from schedir.gpu import GpuContext, GpuModule, Kernel, assemble, compile_ptx, default_context

KERNELS_FILE = Path(__file__).parents[1] / "unit" / "gpu" / "nvptx_kernels.py"


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
