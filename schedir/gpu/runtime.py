"""Loaded modules, kernels and launches.

`GpuModule(context, image)` loads a cubin or PTX (`cuModuleLoadDataEx`; for PTX the
driver compiles it for the device). The driver's JIT error and info logs are captured;
a failed load raises `ToolError` with the error log and a command that repeats it on a
kept copy of the image. `module.kernel(name)` gives a `Kernel`.

`launch(kernel, grid, block, args, shared_bytes=0, stream=None)` (also
`Kernel.launch`) queues one launch. `grid` and `block` are an int or up to three
sizes; `args` are the kernel's parameters in order, each one of

- a `DeviceArray`, or a device array of another library (`__cuda_array_interface__` or
  DLPack, adopted without a copy): its data pointer (a 64-bit parameter);
- a numpy scalar (`np.float32(2)`, `np.int64(n)`, `np.bool_(True)` as one byte): its bytes;
- a ctypes value (`ctypes.c_int32(3)`) or raw `bytes`: those bytes.

Plain Python numbers are refused: their width is not known, and a wrong width shifts every
later parameter. The launch is checked against the target's limits first, and dynamic
shared memory that takes the kernel above 48 KiB (static included) is opted in to (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_
BYTES`). A launch is asynchronous: errors inside the kernel surface at the next
synchronization, and the context then names this launch (see `GpuContext.last_launch`).
"""

from __future__ import annotations

import contextlib
import ctypes
import re
import struct
import tempfile
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from schedir.diagnostics import InputError, Note, ToolError
from schedir.gpu.context import GpuContext, describe_launch, stream_handle
from schedir.gpu.errors import CudaError, LaunchConfigError
from schedir.gpu.memory import DeviceArray, is_device_array

Dims = int | Sequence[int]

_LOG_BYTES = 64 * 1024
_ENTRY = re.compile(r"\.entry\s+([\w$.]+)")
_DEFAULT_SHARED_LIMIT = 48 * 1024
"""Dynamic shared memory a kernel may use without opting in."""


def dims3(value: Dims, what: str) -> tuple[int, int, int]:
    """(x, y, z) from an int or a sequence of one to three sizes (missing ones are 1)."""
    sizes = [value] if isinstance(value, int | np.integer) else list(value)
    if not 1 <= len(sizes) <= 3 or not all(isinstance(s, int | np.integer) for s in sizes):
        raise LaunchConfigError(f"{what} must be an int or one to three ints, got {value!r}")
    sizes += [1] * (3 - len(sizes))
    return int(sizes[0]), int(sizes[1]), int(sizes[2])


class GpuModule:
    """A cubin or PTX module loaded into a context; unloaded when collected."""

    def __init__(
        self,
        context: GpuContext,
        image: bytes | str,
        *,
        name: str = "module",
        verbose: bool = False,
    ) -> None:
        self.context = context
        self.name = name
        driver = context.driver
        if isinstance(image, str):
            image = image.encode()
        is_cubin = image[:4] == b"\x7fELF"
        if not is_cubin and not image.endswith(b"\0"):
            # PTX is read as a C string.
            image += b"\0"
        self.is_ptx = not is_cubin and b".version" in image
        self.ptx_kernel_names = (
            tuple(_ENTRY.findall(image.decode(errors="replace"))) if self.is_ptx else ()
        )
        info = bytearray(_LOG_BYTES)
        errors = bytearray(_LOG_BYTES)
        option = driver.CUjit_option
        options = {
            option.CU_JIT_INFO_LOG_BUFFER: info,
            option.CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: _LOG_BYTES,
            option.CU_JIT_ERROR_LOG_BUFFER: errors,
            option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: _LOG_BYTES,
            option.CU_JIT_LOG_VERBOSE: int(verbose),
        }
        try:
            self.handle = context.call(
                "cuModuleLoadDataEx",
                image,
                len(options),
                list(options.keys()),
                list(options.values()),
                during=f"loading {'PTX' if self.is_ptx else 'cubin'} module '{name}'",
            )
        except CudaError as err:
            if context.lost is not None:
                raise
            raise self._load_error(err, image, _c_string(errors)) from None
        self.info_log = _c_string(info)
        self._kernels: dict[str, Kernel] = {}
        self._finalizer = weakref.finalize(self, _unload, context, self.handle)

    def _load_error(self, err: CudaError, image: bytes, log: str) -> ToolError:
        arch = "sm_90"
        with contextlib.suppress(CudaError):
            arch = self.context.target.arch
        suffix = ".ptx" if self.is_ptx else ".cubin"
        with tempfile.NamedTemporaryFile(
            "wb", suffix=suffix, prefix="schedir-module-", delete=False
        ) as f:
            f.write(image.rstrip(b"\0") if self.is_ptx else image)
            path = Path(f.name)
        if self.is_ptx:
            repro = f"ptxas -arch={arch} {path} -o /dev/null"
        else:
            repro = f"cuobjdump --dump-elf {path}  (the driver refused this cubin for {arch})"
        notes = list(err.notes)
        if err.error_name == "CUDA_ERROR_UNSUPPORTED_PTX_VERSION":
            version = self.context.call("cuDriverGetVersion")
            notes.append(
                Note(
                    f"the driver is CUDA {version // 1000}.{version % 1000 // 10}; generate an "
                    "older PTX ISA (GpuTarget.ptx_feature) or update the driver"
                )
            )
        return CudaError(
            f"the CUDA driver could not load module '{self.name}': {err.error_name}",
            call=err.call,
            code=err.code,
            error_name=err.error_name,
            notes=notes,
            log=log or err.message,
            repro=repro,
        )

    def kernel(self, name: str) -> Kernel:
        """The kernel `name` of this module (an error listing the module's kernels if absent)."""
        kernel = self._kernels.get(name)
        if kernel is not None:
            return kernel
        try:
            handle = self.context.call(
                "cuModuleGetFunction",
                self.handle,
                name.encode(),
                during=f"looking up kernel '{name}' in module '{self.name}'",
            )
        except CudaError as err:
            if err.error_name != "CUDA_ERROR_NOT_FOUND":
                raise
            known = ", ".join(self.kernel_names()) or "none found"
            raise ToolError(
                f"module '{self.name}' has no kernel '{name}'",
                notes=(Note(f"its kernels: {known}"),),
            ) from None
        kernel = Kernel(self, name, handle)
        self._kernels[name] = kernel
        return kernel

    def kernel_names(self) -> list[str]:
        """Names of the module's kernels (from the PTX, or asked of the driver for a cubin)."""
        if self.ptx_kernel_names:
            return list(self.ptx_kernel_names)
        driver = self.context.driver
        if not hasattr(driver, "cuModuleEnumerateFunctions"):
            return []
        try:
            count = self.context.call("cuModuleGetFunctionCount", self.handle)
            handles = self.context.call("cuModuleEnumerateFunctions", count, self.handle)
            names = [self.context.call("cuFuncGetName", h) for h in handles]
        except CudaError:
            return []
        return [n.decode() if isinstance(n, bytes) else str(n) for n in names]

    def unload(self) -> None:
        """Unload now (kernels of this module must not be launched afterwards)."""
        self._finalizer()


def _c_string(buffer: bytearray) -> str:
    return bytes(buffer).split(b"\0", 1)[0].decode(errors="replace").strip()


def _unload(context: GpuContext, handle: Any) -> None:
    # Runs from a finalizer, possibly at exit or on a lost context: never raise.
    if context.lost is not None or not context.initialized:
        return
    with contextlib.suppress(CudaError):
        context.call("cuModuleUnload", handle)


class ParamPack:
    """Kernel parameters as the `void **kernelParams` array of cuLaunchKernel."""

    def __init__(self, values: Sequence[bytes], keep_alive: Sequence[object] = ()) -> None:
        self._buffers = [ctypes.create_string_buffer(bytes(v), max(len(v), 8)) for v in values]
        self._array = (ctypes.c_void_p * max(len(values), 1))(
            *[ctypes.addressof(b) for b in self._buffers]
        )
        self.keep_alive = list(keep_alive)
        """Objects (adopted arrays) whose memory the parameters point to."""

    @property
    def address(self) -> int:
        return ctypes.addressof(self._array) if self._buffers else 0

    def __len__(self) -> int:
        return len(self._buffers)


def pack_argument(
    index: int, value: Any, context: GpuContext, stream: Any = None
) -> tuple[bytes, object]:
    """The parameter bytes of one `launch` argument and the object keeping it valid."""
    if isinstance(value, DeviceArray):
        return struct.pack("<Q", value.ptr), value
    if isinstance(value, np.generic):
        return value.tobytes(), None
    if isinstance(value, ctypes._SimpleCData | ctypes.Structure):
        return bytes(value), None
    if isinstance(value, bytes):
        return value, None
    if isinstance(value, bool | int | float):
        raise InputError(
            f"kernel argument #{index} is a Python {type(value).__name__}, whose width the "
            "kernel parameter does not tell; pass a numpy scalar such as np.int32(...), "
            "np.int64(...) or np.float32(...)"
        )
    if isinstance(value, np.ndarray):
        raise InputError(
            f"kernel argument #{index} is a numpy array in host memory; copy it to the device "
            "first (DeviceArray.from_numpy) or use GpuFunction, which does"
        )
    if is_device_array(value):
        adopted = DeviceArray.adopt(value, context, stream=stream)
        return struct.pack("<Q", adopted.ptr), adopted
    raise InputError(f"kernel argument #{index}: cannot pass a {type(value).__name__} to a kernel")


class Kernel:
    """One `.entry` function of a loaded module."""

    def __init__(self, module: GpuModule, name: str, handle: Any) -> None:
        self.module = module
        self.name = name
        self.handle = handle
        # The dynamic bytes a launch may use without opting in: the 48 KiB default limit
        # counts the kernel's static shared memory too (mbarriers, ...); None: not yet asked.
        self._shared_opt_in: int | None = None
        self._checked: set[tuple[tuple[int, int, int], tuple[int, int, int], int]] = set()
        """Launch configurations already checked (and opted in to their shared memory)."""

    @property
    def context(self) -> GpuContext:
        return self.module.context

    def attribute(self, name: str) -> int:
        """A `CU_FUNC_ATTRIBUTE_<NAME>` of the compiled kernel, e.g. 'num_regs'."""
        driver = self.context.driver
        enum = getattr(driver.CUfunction_attribute, f"CU_FUNC_ATTRIBUTE_{name.upper()}")
        return int(self.context.call("cuFuncGetAttribute", enum, self.handle))

    @property
    def num_regs(self) -> int:
        return self.attribute("num_regs")

    @property
    def max_threads_per_block(self) -> int:
        return self.attribute("max_threads_per_block")

    @property
    def static_shared_bytes(self) -> int:
        return self.attribute("shared_size_bytes")

    @property
    def local_bytes(self) -> int:
        """Local (stack/spill) memory per thread."""
        return self.attribute("local_size_bytes")

    def launch(
        self,
        grid: Dims,
        block: Dims,
        args: Sequence[Any] = (),
        shared_bytes: int = 0,
        stream: Any = None,
    ) -> None:
        """Queue one launch with `args` converted as the module doc says."""
        values: list[bytes] = []
        keep_alive: list[object] = []
        for index, value in enumerate(args):
            raw, keep = pack_argument(index, value, self.context, stream)
            values.append(raw)
            if keep is not None:
                keep_alive.append(keep)
        # The driver copies the parameter values at launch, so the pack may go afterwards.
        self.launch_packed(grid, block, ParamPack(values, keep_alive), shared_bytes, stream)

    def launch_packed(
        self, grid: Dims, block: Dims, params: ParamPack, shared_bytes: int = 0, stream: Any = None
    ) -> None:
        """Queue one launch with already packed parameters (the fast path of GpuFunction)."""
        self.launch_raw(grid, block, params.address, shared_bytes, stream)

    def launch_raw(
        self,
        grid: Dims,
        block: Dims,
        params_address: int,
        shared_bytes: int = 0,
        stream: Any = None,
        extra_address: int = 0,
    ) -> None:
        """Queue one launch whose `void **kernelParams` array is at `params_address` (the
        form compiled host code passes, see schedir.gpu.host)."""
        grid3 = dims3(grid, "grid")
        block3 = dims3(block, "block")
        context = self.context
        config = (grid3, block3, shared_bytes)
        if config not in self._checked:
            self._check_config(grid3, block3, shared_bytes)
            if len(self._checked) < 64:  # a program launches few shapes; bound the cache anyway
                self._checked.add(config)
        context.note_launch(self.name, grid3, block3, shared_bytes)
        driver = context.driver
        context.ensure()
        result = driver.cuLaunchKernel(
            self.handle,
            *grid3,
            *block3,
            shared_bytes,
            driver.CUstream(stream_handle(stream)),
            params_address,
            extra_address,
        )
        if int(result[0]) != 0:  # the message is built only on failure (this is the hot path)
            what = describe_launch(self.name, grid3, block3, shared_bytes)
            context.call_failed("cuLaunchKernel", result, during=f"launching {what}")

    def _check_config(
        self, grid3: tuple[int, int, int], block3: tuple[int, int, int], shared_bytes: int
    ) -> None:
        """Refuse a launch configuration the target cannot run; opt in to the dynamic
        shared memory above the default limit. Once per configuration."""
        context = self.context
        what = describe_launch(self.name, grid3, block3, shared_bytes)
        problem = context.target.check_launch(grid3, block3, shared_bytes)
        if problem is not None:
            raise LaunchConfigError(f"cannot launch {what}: {problem}")
        if self._shared_opt_in is None and shared_bytes > 0:
            self._shared_opt_in = _DEFAULT_SHARED_LIMIT - self.attribute("shared_size_bytes")
        if self._shared_opt_in is not None and shared_bytes > self._shared_opt_in:
            driver = context.driver
            context.call(
                "cuFuncSetAttribute",
                self.handle,
                driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                shared_bytes,
                during=f"opting {what} in to {shared_bytes} bytes of shared memory",
            )
            self._shared_opt_in = shared_bytes

    def __repr__(self) -> str:
        return f"Kernel('{self.name}', module='{self.module.name}')"


def launch(
    function: Kernel,
    grid: Dims,
    block: Dims,
    args: Sequence[Any] = (),
    shared_bytes: int = 0,
    stream: Any = None,
) -> None:
    """Queue one launch of `function` (see the module doc for `args`)."""
    function.launch(grid, block, args, shared_bytes, stream)


def load_module(
    context: GpuContext, image: bytes | str, *, name: str = "module", verbose: bool = False
) -> GpuModule:
    """Load a cubin (bytes) or PTX (str) into `context`."""
    return GpuModule(context, image, name=name, verbose=verbose)


__all__ = [
    "Dims",
    "GpuModule",
    "Kernel",
    "ParamPack",
    "dims3",
    "launch",
    "load_module",
    "pack_argument",
]
