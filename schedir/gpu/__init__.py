"""The CUDA back end below the compiler: LLVM IR text -> PTX -> cubin -> launches.

- `target`: `GpuTarget`, the arch, PTX version and device limits (sm_90 defaults, or
  queried from the driver through `GpuContext.target`).
- `ptx`: `compile_ptx` (llvmlite's NVPTX back end, libdevice linked on demand) and
  `assemble` (ptxas), both without a GPU.
- `context`, `runtime`, `memory`: the lazily initialized primary context, module load,
  kernel launch, device arrays and zero-copy adoption of PyTorch/CuPy arrays.
- `function`: `GpuFunction`, a kernel called on numpy or device arrays; its module doc
  is the kernel ABI the lowering must produce (argument specs are `schedir.abi`'s).
- `host`, `executable`: the host side of a compiled CUDA program (the `mgpu*` runtime
  API its host code calls) and `CudaExecutable`, the compiled entry that
  `schedir.compile` returns inside a `Kernel` (its host code runs through the CPU JIT of
  `schedir.cpu`).
- `timing`: event-based timing with warm-up and L2 flushes.
- `tma`: TMA tensor-map descriptors (`TensorMapLayout` checked on the host,
  `encode_tiled` through the driver's cuTensorMapEncodeTiled) passed as kernel parameters.

This package is the only place schedir imports `cuda` (on first use, so the PTX path
works without cuda-python), and it never imports xDSL.
"""

from schedir.gpu.context import GpuContext, default_context, load_driver
from schedir.gpu.errors import (
    CudaContextLostError,
    CudaError,
    CudaOutOfMemoryError,
    DeviceUnavailableError,
    LaunchConfigError,
)
from schedir.gpu.executable import CudaExecutable
from schedir.gpu.function import BoundLaunch, GpuFunction
from schedir.gpu.memory import DeviceArray
from schedir.gpu.ptx import assemble, compile_ptx, find_libdevice, find_ptxas, kernel_names
from schedir.gpu.runtime import GpuModule, Kernel, launch, load_module
from schedir.gpu.target import GpuTarget
from schedir.gpu.timing import Timing, time_function

__all__ = [
    "BoundLaunch",
    "CudaContextLostError",
    "CudaError",
    "CudaExecutable",
    "CudaOutOfMemoryError",
    "DeviceArray",
    "DeviceUnavailableError",
    "GpuContext",
    "GpuFunction",
    "GpuModule",
    "GpuTarget",
    "Kernel",
    "LaunchConfigError",
    "Timing",
    "assemble",
    "compile_ptx",
    "default_context",
    "find_libdevice",
    "find_ptxas",
    "kernel_names",
    "launch",
    "load_driver",
    "load_module",
    "time_function",
]
