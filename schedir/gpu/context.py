"""The CUDA context: lazy initialization, checked driver calls, device limits.

`GpuContext(device)` is created cheaply and initialized on first use: cuInit, the device,
its primary context (the one the CUDA runtime, PyTorch and CuPy use, so their arrays are
valid here and ours there) made current on the calling thread. Every driver call goes
through `GpuContext.call`, which turns a `CUresult` other than success into a
`schedir.gpu.errors` exception naming the call and what it was for (the kernel and its
launch configuration for launches and the synchronization after one).

Sticky errors (an illegal address in a kernel, say) corrupt the CUDA context for the rest
of the process. The context records the first one; from then on every call on it raises
`CudaContextLostError` at once, saying what happened and that the process must be
restarted. Nothing here kills or hangs the process.

`default_context(device)` is the one cached accessor of this package (the documented
exception to "no module-level mutable state", as `schedir.cpu` initializes LLVM once):
the primary context is a per-process resource, and one `GpuContext` per device keeps the
"context lost" state in one place. Code that wants its own object passes a `GpuContext`.

cuda-python is imported on first use (`load_driver`), so `import schedir.gpu` works where
it is not installed.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

from schedir.diagnostics import Note
from schedir.gpu.errors import (
    NO_DEVICE_ERRORS,
    OUT_OF_MEMORY_ERRORS,
    RECOVERY,
    STICKY_ERRORS,
    CudaContextLostError,
    CudaError,
    CudaOutOfMemoryError,
    DeviceUnavailableError,
)
from schedir.gpu.target import DEVICE_ATTRIBUTES, GpuTarget

INSTALL_HINT = "install cuda-python (pip install 'schedir[cuda]')"


def load_driver() -> ModuleType:
    """cuda-python's driver API module; DeviceUnavailableError if cuda-python is missing."""
    try:
        from cuda.bindings import driver  # type: ignore[import-not-found]  # optional: GPU hosts only
    except ImportError:
        try:
            # cuda-python before 12.6 exposed the same API as `cuda.cuda`.
            from cuda import cuda as driver  # type: ignore[import-not-found,no-redef]  # the old name
        except ImportError as err:
            raise DeviceUnavailableError(
                f"cuda-python is not installed, so no GPU can be used; {INSTALL_HINT}",
                call="import cuda.bindings.driver",
                code=-1,
                error_name="ImportError",
                log=str(err),
            ) from None
    return driver


def stream_handle(stream: Any) -> int:
    """The CUstream handle of `stream` as an int (None: 0, the legacy default stream).

    Takes an int, a cuda-python `CUstream`, a `torch.cuda.Stream` (`.cuda_stream`), a
    `cupy.cuda.Stream` (`.ptr`) or any object with the `__cuda_stream__` protocol.
    """
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        _version, handle = protocol()
        return int(handle)
    for attribute in ("cuda_stream", "ptr"):
        value = getattr(stream, attribute, None)
        if isinstance(value, int):
            return value
    try:
        return int(stream)
    except (TypeError, ValueError):
        raise TypeError(f"cannot use a {type(stream).__name__} as a CUDA stream") from None


def describe_launch(
    kernel: str, grid: tuple[int, ...], block: tuple[int, ...], shared_bytes: int
) -> str:
    """`kernel 'k' (grid (4, 1, 1), block (256, 1, 1), 0 bytes of dynamic shared memory)`."""
    return (
        f"kernel '{kernel}' (grid {tuple(grid)}, block {tuple(block)}, "
        f"{shared_bytes} bytes of dynamic shared memory)"
    )


class GpuContext:
    """The primary CUDA context of one device, initialized on first use."""

    def __init__(self, device: int = 0, *, ptx_feature: str | None = None) -> None:
        if device < 0:
            raise ValueError(f"device ordinal must be non-negative, got {device}")
        self.device = device
        self._ptx_feature = ptx_feature
        self._driver: ModuleType | None = None
        self._handle: Any = None
        self._device_handle: Any = None
        self._target: GpuTarget | None = None
        self._lost: CudaContextLostError | None = None
        self._closed = False
        self._last_launch: tuple[str, tuple[int, ...], tuple[int, ...], int] | None = None
        """The last launch on this context, named in errors that surface after it."""

    # -- initialization ----------------------------------------------------------------

    @property
    def driver(self) -> ModuleType:
        """The cuda-python driver module (the context is initialized first)."""
        self.ensure()
        assert self._driver is not None
        return self._driver

    @property
    def initialized(self) -> bool:
        return self._handle is not None

    @property
    def last_launch(self) -> str | None:
        """The last kernel launched on this context, described (see `describe_launch`)."""
        return describe_launch(*self._last_launch) if self._last_launch is not None else None

    def note_launch(
        self, kernel: str, grid: tuple[int, ...], block: tuple[int, ...], shared_bytes: int
    ) -> None:
        """Remember a launch for later error messages (formatted only when one needs it: a
        launch is on the path of every call of a compiled program)."""
        self._last_launch = (kernel, grid, block, shared_bytes)

    def ensure(self) -> None:
        """Initialize on first use, and make this context current on the calling thread."""
        if self._closed:
            raise CudaError(
                f"the GPU context of device {self.device} was closed",
                call="GpuContext.ensure",
                code=-1,
                error_name="closed",
            )
        self._raise_if_lost("GpuContext.ensure")
        if self._handle is None:
            self._initialize()
        else:
            # Cheap, and needed: the current context is per thread.
            assert self._driver is not None  # set with the handle by _initialize
            self._check("cuCtxSetCurrent", self._driver.cuCtxSetCurrent(self._handle))

    def _initialize(self) -> None:
        driver = load_driver()
        try:
            (err,) = driver.cuInit(0)
        except (RuntimeError, OSError) as exc:
            # cuda-python raises (instead of returning an error) when libcuda.so is absent.
            raise DeviceUnavailableError(
                "the CUDA driver library cannot be loaded: this machine has no NVIDIA driver",
                call="cuInit",
                code=-1,
                error_name=type(exc).__name__,
                log=str(exc),
            ) from None
        self._driver = driver
        self._check("cuInit", (err,), no_device=True)
        count = self._check("cuDeviceGetCount", driver.cuDeviceGetCount(), no_device=True)
        if self.device >= count:
            raise DeviceUnavailableError(
                f"there is no CUDA device {self.device}: the driver sees {count} device(s)",
                call="cuDeviceGet",
                code=int(driver.CUresult.CUDA_ERROR_INVALID_DEVICE),
                error_name="CUDA_ERROR_INVALID_DEVICE",
            )
        device = self._check("cuDeviceGet", driver.cuDeviceGet(self.device), no_device=True)
        handle = self._check(
            "cuDevicePrimaryCtxRetain", driver.cuDevicePrimaryCtxRetain(device), no_device=True
        )
        self._check("cuCtxSetCurrent", driver.cuCtxSetCurrent(handle))
        self._device_handle = device
        self._handle = handle

    def close(self) -> None:
        """Release the primary context (other users of it, such as PyTorch, keep theirs)."""
        if self._handle is not None and self._driver is not None and self._lost is None:
            self._driver.cuDevicePrimaryCtxRelease(self._device_handle)
        self._handle = None
        self._closed = True

    # -- checked calls -----------------------------------------------------------------

    def call(self, name: str, *args: Any, during: str = "") -> Any:
        """`driver.<name>(*args)`, checked: its value(s) on success, a CudaError otherwise.

        `during` says what the call was for ("launching kernel 'k' (grid ...)"); the
        error message reads "<call> failed while <during>: <CUresult name> (<description>)".
        """
        self._raise_if_lost(name)
        self.ensure()
        return self._check(name, getattr(self._driver, name)(*args), during=during)

    def call_failed(self, name: str, result: tuple[Any, ...], *, during: str = "") -> None:
        """Raise the CudaError of a failed `driver.<name>` call made directly (a hot path
        that checks the status itself and describes what it did only on failure)."""
        self._check(name, result, during=during)

    def _check(
        self, name: str, result: tuple[Any, ...], *, during: str = "", no_device: bool = False
    ) -> Any:
        err = result[0]
        if int(err) == 0:
            values = result[1:]
            if not values:
                return None
            return values[0] if len(values) == 1 else values
        raise self._error(name, err, during, no_device)

    def _error_text(self, err: Any) -> tuple[str, str]:
        name = getattr(err, "name", None) or f"CUresult {int(err)}"
        description = ""
        try:
            status, text = self._driver.cuGetErrorString(err)  # type: ignore[union-attr]  # None: caught below
            if int(status) == 0 and text:
                description = text.decode() if isinstance(text, bytes) else str(text)
        except Exception:
            description = ""
        return name, description

    def _error(self, call: str, err: Any, during: str, no_device: bool) -> CudaError:
        name, description = self._error_text(err)
        detail = f"{name} ({description})" if description else name
        where = f" while {during}" if during else ""
        message = f"{call} failed{where}: {detail}"
        code = int(err)
        if no_device or (name in NO_DEVICE_ERRORS and not self.initialized):
            return DeviceUnavailableError(
                f"no usable CUDA device {self.device}: {message}",
                call=call,
                code=code,
                error_name=name,
            )
        if name in STICKY_ERRORS:
            notes = []
            if self.last_launch and self.last_launch not in during:
                notes.append(
                    Note(
                        f"the last launch on this context was {self.last_launch}; "
                        "the error most likely comes from it"
                    )
                )
            notes.append(Note(RECOVERY.format(device=self.device, error=name)))
            lost = CudaContextLostError(message, call=call, code=code, error_name=name, notes=notes)
            self._lost = lost
            return lost
        if name in OUT_OF_MEMORY_ERRORS:
            notes = []
            try:
                status, free, total = self._driver.cuMemGetInfo()  # type: ignore[union-attr]  # None: caught below
                if int(status) == 0:
                    notes.append(Note(f"device {self.device} has {free} of {total} bytes free"))
            except Exception:
                pass
            return CudaOutOfMemoryError(message, call=call, code=code, error_name=name, notes=notes)
        return CudaError(message, call=call, code=code, error_name=name)

    def _raise_if_lost(self, what: str) -> None:
        if self._lost is None:
            return
        lost = self._lost
        raise CudaContextLostError(
            f"{what} refused: the CUDA context of device {self.device} was lost earlier "
            f"({lost.message})",
            call=what,
            code=lost.code,
            error_name=lost.error_name,
            notes=(Note(RECOVERY.format(device=self.device, error=lost.error_name)),),
        )

    @property
    def lost(self) -> CudaContextLostError | None:
        """The sticky error that made this context unusable, or None."""
        return self._lost

    # -- device facts ------------------------------------------------------------------

    @property
    def target(self) -> GpuTarget:
        """The device's limits as a `GpuTarget`, queried from the driver once."""
        if self._target is None:
            driver = self.driver
            values: dict[str, int] = {}
            for attribute in DEVICE_ATTRIBUTES:
                enum = getattr(
                    driver.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{attribute.upper()}"
                )
                values[attribute] = int(
                    self.call("cuDeviceGetAttribute", enum, self._device_handle)
                )
            raw_name = self.call("cuDeviceGetName", 256, self._device_handle)
            name = raw_name.split(b"\0", 1)[0].decode(errors="replace")
            self._target = GpuTarget.from_attributes(
                values, name=name, ptx_feature=self._ptx_feature
            )
        return self._target

    def memory_info(self) -> tuple[int, int]:
        """(free, total) bytes of device memory."""
        free, total = self.call("cuMemGetInfo")
        return int(free), int(total)

    def synchronize(self, stream: Any = None, *, during: str = "") -> None:
        """Wait for all work queued on `stream` (None: the legacy default stream)."""
        handle = stream_handle(stream)
        if handle == 0:
            self.call("cuCtxSynchronize", during=during)
        else:
            self.call("cuStreamSynchronize", self.driver.CUstream(handle), during=during)

    # -- raw memory ----------------------------------------------------------------------

    def alloc(self, nbytes: int) -> int:
        """`nbytes` of device memory (cuMemAlloc); 0 for an empty allocation."""
        if nbytes < 0:
            raise ValueError(f"cannot allocate {nbytes} bytes")
        if nbytes == 0:
            return 0
        return int(self.call("cuMemAlloc", nbytes, during=f"allocating {nbytes} bytes"))

    def free(self, pointer: int) -> None:
        """Free memory from `alloc`; does nothing for 0 or once the context is lost/closed."""
        if pointer == 0 or self._lost is not None or self._closed or self._handle is None:
            return
        self.call("cuMemFree", self.driver.CUdeviceptr(pointer))

    def __repr__(self) -> str:
        state = "lost" if self._lost else "ready" if self._handle is not None else "lazy"
        return f"GpuContext(device={self.device}, {state})"


@functools.cache
def default_context(device: int = 0) -> GpuContext:
    """The process-wide `GpuContext` of `device` (created lazily, initialized on use)."""
    return GpuContext(device)


__all__ = ["GpuContext", "default_context", "describe_launch", "load_driver", "stream_handle"]
