"""The CPU target: a JIT for LLVM IR (llvmlite MCJIT) and the numpy <-> memref calling layer.

Nothing here imports xDSL: the JIT takes LLVM IR text, the runtime takes numpy arrays.
"""

from schedir.cpu.jit import JitModule
from schedir.cpu.runtime import CpuFunction

__all__ = ["CpuFunction", "JitModule"]
