"""The CPU target: a JIT for LLVM IR (llvmlite MCJIT), the numpy <-> memref calling layer, and
the executable the driver builds from them.

- `jit`: `JitModule`, LLVM IR text -> native code in this process.
- `runtime`: `CpuFunction`, a `_mlir_ciface_` function called on numpy arrays (the memref
  descriptor ABI; argument and result specs are `schedir.abi`'s).
- `executable`: `CpuExecutable`, the compiled entry of a payload, as `schedir.compile`
  returns it inside a `Kernel`.

Nothing here imports xDSL: the JIT takes LLVM IR text, the runtime takes numpy arrays.
"""

from schedir.cpu.executable import CpuExecutable
from schedir.cpu.jit import JitModule
from schedir.cpu.runtime import CpuFunction

__all__ = ["CpuExecutable", "CpuFunction", "JitModule"]
