"""The errors of the CUDA runtime layer: every failing driver call becomes one of these.

All are `ToolError`s (an external tool, the CUDA driver, failed), so they render as
schedir diagnostics and never as a traceback in the command-line tools. They carry the
driver call, the `CUresult` code and name, and what schedir was doing (the kernel and its
launch configuration when the call was a launch or the synchronization after one).

- `DeviceUnavailableError`: no cuda-python, no driver library, no device (cuInit failed).
- `CudaOutOfMemoryError`: an allocation failed; the context stays usable.
- `CudaContextLostError`: a "sticky" error (illegal address, misaligned address, illegal
  instruction, device-side assert, launch failure...): the CUDA context, and with it every
  allocation and module of this process on that device, is unusable; the process must be
  restarted to use that GPU again. Later calls on the context raise this error at once.
- `LaunchConfigError`: a launch configuration the target cannot run (checked before the
  driver is called).

This module imports neither cuda-python nor xDSL.
"""

from __future__ import annotations

from collections.abc import Iterable

from schedir.diagnostics import InputError, Note, ToolError

STICKY_ERRORS: frozenset[str] = frozenset(
    {
        "CUDA_ERROR_ILLEGAL_ADDRESS",
        "CUDA_ERROR_LAUNCH_FAILED",
        "CUDA_ERROR_LAUNCH_TIMEOUT",
        "CUDA_ERROR_HARDWARE_STACK_ERROR",
        "CUDA_ERROR_ILLEGAL_INSTRUCTION",
        "CUDA_ERROR_MISALIGNED_ADDRESS",
        "CUDA_ERROR_INVALID_ADDRESS_SPACE",
        "CUDA_ERROR_INVALID_PC",
        "CUDA_ERROR_ASSERT",
        "CUDA_ERROR_ECC_UNCORRECTABLE",
        "CUDA_ERROR_CONTEXT_IS_DESTROYED",
        "CUDA_ERROR_TENSOR_MEMORY_LEAK",
    }
)
"""Errors after which the CUDA context is corrupt (CUDA's docs: the process must restart)."""

OUT_OF_MEMORY_ERRORS: frozenset[str] = frozenset({"CUDA_ERROR_OUT_OF_MEMORY"})

NO_DEVICE_ERRORS: frozenset[str] = frozenset(
    {
        "CUDA_ERROR_NO_DEVICE",
        "CUDA_ERROR_INSUFFICIENT_DRIVER",
        "CUDA_ERROR_NOT_INITIALIZED",
        "CUDA_ERROR_STUB_LIBRARY",
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
        "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
        "CUDA_ERROR_DEVICE_UNAVAILABLE",
        "CUDA_ERROR_DEVICE_NOT_LICENSED",
        "CUDA_ERROR_INVALID_DEVICE",
        "CUDA_ERROR_OPERATING_SYSTEM",
    }
)
"""Errors of cuInit/cuDeviceGet that mean "no usable GPU here"."""

RECOVERY = (
    "the CUDA context of device {device} is unusable after {error}: every later CUDA call "
    "of this process on that device fails with it, and the allocations and modules are "
    "lost; restart the Python process to use the GPU again (running the kernel under "
    "compute-sanitizer shows the faulting access)"
)


class CudaError(ToolError):
    """A CUDA driver call failed; `call`, `code` and `error_name` say which and how."""

    def __init__(
        self,
        message: str,
        *,
        call: str,
        code: int,
        error_name: str,
        notes: Iterable[Note] = (),
        log: str = "",
        repro: str = "",
    ) -> None:
        super().__init__(message, notes=notes, log=log, repro=repro)
        self.call = call
        self.code = code
        self.error_name = error_name


class DeviceUnavailableError(CudaError):
    """No CUDA device can be used: cuda-python, the driver library or a GPU is missing."""


class CudaOutOfMemoryError(CudaError):
    """The device has not enough free memory for an allocation; the context stays usable."""


class CudaContextLostError(CudaError):
    """A sticky error corrupted the CUDA context; the process must restart to use the GPU."""


class LaunchConfigError(InputError):
    """A grid, block or shared-memory size the target cannot launch."""


__all__ = [
    "NO_DEVICE_ERRORS",
    "OUT_OF_MEMORY_ERRORS",
    "RECOVERY",
    "STICKY_ERRORS",
    "CudaContextLostError",
    "CudaError",
    "CudaOutOfMemoryError",
    "DeviceUnavailableError",
    "LaunchConfigError",
]
