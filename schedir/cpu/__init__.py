"""The CPU target: a JIT for LLVM IR (llvmlite MCJIT), the numpy <-> memref calling layer, and
the executable the driver builds from them.

- `jit`: `JitModule`, LLVM IR text -> native code in this process (compiled by
  `llvm_worker`, a child process that runs LLVM's optimizer and code generators).
- `runtime`: `CpuFunction`, a `_mlir_ciface_` function called on numpy arrays (the memref
  descriptor ABI; argument and result specs are `schedir.abi`'s).
- `executable`: `CpuExecutable`, the compiled entry of a payload, as `schedir.compile`
  returns it inside a `Kernel`.
- `isolated`: runs a call (a kernel) in a forked child, so that a crash or a hang of the
  kernel becomes an error (`run_isolated`).

Nothing here imports xDSL: the JIT takes LLVM IR text, the runtime takes numpy arrays. The
names below are loaded on first use, so that the LLVM worker, which imports
`schedir.cpu.llvm_worker`, does not load numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schedir.cpu.executable import CpuExecutable
    from schedir.cpu.jit import JitModule
    from schedir.cpu.runtime import CpuFunction

_LAZY = {
    "CpuExecutable": "schedir.cpu.executable",
    "CpuFunction": "schedir.cpu.runtime",
    "JitModule": "schedir.cpu.jit",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'schedir.cpu' has no attribute '{name}'")
    return getattr(importlib.import_module(module), name)


__all__ = ["CpuExecutable", "CpuFunction", "JitModule"]
