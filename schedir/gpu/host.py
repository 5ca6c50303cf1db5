"""Running compiled host code of GPU programs: the `mgpu*` runtime and the entry call.

schedir compiles the host side of a CUDA program (after `gpu-to-llvm`) with the CPU JIT.
That code calls upstream MLIR's CUDA runtime-wrapper API (mlir/lib/ExecutionEngine/
CudaRuntimeWrappers.cpp). `HostRuntime` implements that API as Python callbacks (ctypes
`CFUNCTYPE`) on this package's context, module, launch and memory functions; the JIT
resolves the `mgpu*` symbols to `runtime.symbols()`:

| function | what it does here |
| --- | --- |
| `mgpuModuleLoad(data, size)` | loads the PTX/cubin once per image (`cuModuleLoadDataEx`), cached |
| `mgpuModuleUnload(module)` | nothing: cached modules live as long as the runtime |
| `mgpuModuleGetFunction(module, name)` | the kernel (`cuModuleGetFunction`) |
| `mgpuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra, n)` | `cuLaunchKernel` after checking the limits |
| `mgpuStreamCreate()` / `Destroy` | the runtime's stream (`runtime.stream`, default 0) |
| `mgpuStreamSynchronize(stream)` | waits, naming the last launch if a kernel faulted (skipped while `defer_sync`) |
| `mgpuMemAlloc(bytes, stream, shared)` / `mgpuMemFree` | `cuMemAlloc` / `cuMemFree`, freed blocks kept for reuse (below) |
| `mgpuMemcpy(dst, src, bytes, stream)`, `mgpuMemset32/16` | `cuMemcpyAsync`, `cuMemsetD32/D16Async` |
| `schedirTensorMapEncodeTiled(fields)` | a TMA descriptor (`cuTensorMapEncodeTiled`), cached by content; a tensor whose address or row strides are not multiples of 16 bytes (f16 N = 4097) is first staged into rows of a 16-byte pitch (a copy kernel, `schedir.gpu.staging`, pad zero-filled), a buffer returned to the pool after the call |

A buffer the compiled code frees (a temporary between kernels, e.g. colsum's partials) is
kept and handed out again to an allocation of the same size, on the runtime's one stream,
so a repeated call neither allocates nor frees (cuMemFree waits for the device, and both
would land inside a timed call); `close()` frees them.

A Python exception cannot cross the C frames of the JIT-compiled code: a failing
callback records the error, later callbacks do nothing, and `runtime.check()` raises it
once the compiled function has returned (`HostFunction` does so on every call).

`HostFunction` calls the entry's packed C wrapper (`_mlir__mlir_ciface_<name>`, see
schedir/cpu/jit.py) with memref descriptors whose pointers are device addresses: numpy
arguments are copied to fresh device buffers, device arrays (`DeviceArray`, PyTorch,
CuPy, anything with `__cuda_array_interface__` or DLPack) are used in place, except
those the program writes, which are copied first so inputs are never modified. Output
parameters (statically shaped results after `buffer-results-to-out-params`) are device
buffers returned as numpy arrays (`__call__`) or kept on the device (`run_device`).

This module imports neither xDSL nor schedir.cpu: `schedir.gpu.executable.CudaExecutable`
JIT-compiles the host code and hands it the address of the compiled entry.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from schedir.abi import DYNAMIC, ArgSpec, MemRefSpec, ScalarSpec
from schedir.diagnostics import InputError
from schedir.gpu.context import GpuContext, default_context, describe_launch, stream_handle
from schedir.gpu.function import convert_scalar
from schedir.gpu.memory import DeviceArray, is_device_array
from schedir.gpu.runtime import GpuModule, Kernel
from schedir.gpu.staging import stage_rows
from schedir.gpu.target import ARGUMENT_ALIGNMENT
from schedir.gpu.tma import (
    DESCRIPTOR_BYTES,
    FIELDS_HEADER,
    Staging,
    encode_tiled,
    layout_of_fields,
)

_VOIDP = ctypes.c_void_p
_SIZE = ctypes.c_size_t

SIGNATURES: dict[str, Any] = {
    "mgpuModuleLoad": ctypes.CFUNCTYPE(_VOIDP, _VOIDP, _SIZE),
    "mgpuModuleUnload": ctypes.CFUNCTYPE(None, _VOIDP),
    "mgpuModuleGetFunction": ctypes.CFUNCTYPE(_VOIDP, _VOIDP, ctypes.c_char_p),
    "mgpuLaunchKernel": ctypes.CFUNCTYPE(
        None,
        _VOIDP,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int64,
        ctypes.c_int32,
        _VOIDP,
        _VOIDP,
        _VOIDP,
        _SIZE,
    ),
    "mgpuStreamCreate": ctypes.CFUNCTYPE(_VOIDP),
    "mgpuStreamSynchronize": ctypes.CFUNCTYPE(None, _VOIDP),
    "mgpuStreamDestroy": ctypes.CFUNCTYPE(None, _VOIDP),
    "mgpuMemAlloc": ctypes.CFUNCTYPE(_VOIDP, ctypes.c_uint64, _VOIDP, ctypes.c_uint8),
    "mgpuMemFree": ctypes.CFUNCTYPE(None, _VOIDP, _VOIDP),
    "mgpuMemcpy": ctypes.CFUNCTYPE(None, _VOIDP, _VOIDP, _SIZE, _VOIDP),
    "mgpuMemset32": ctypes.CFUNCTYPE(None, _VOIDP, ctypes.c_uint32, _SIZE, _VOIDP),
    "mgpuMemset16": ctypes.CFUNCTYPE(None, _VOIDP, ctypes.c_uint16, _SIZE, _VOIDP),
    "schedirTensorMapEncodeTiled": ctypes.CFUNCTYPE(_VOIDP, ctypes.c_int64),
}
"""The C signatures of the runtime-wrapper functions (upstream's, `bool` as a byte)."""

_HANDLE_BASE = 0x5CED0000

_LIBC = ctypes.CDLL(None)
_LIBC.memcmp.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t)
_LIBC.memcmp.restype = ctypes.c_int
"""Module and function handles given to compiled code are small tokens from here on."""


class HostRuntime:
    """The `mgpu*` functions for compiled host code, on one `GpuContext`."""

    def __init__(self, context: GpuContext | None = None) -> None:
        self.context = context if context is not None else default_context()
        self.stream: Any = None
        """Where launches, copies and fills go (None: the legacy default stream)."""
        self.defer_sync = False
        """When set, mgpuStreamSynchronize does nothing (for timing queued launches)."""
        self.error: BaseException | None = None
        self.launches = 0
        self._images: dict[bytes, GpuModule] = {}
        self._modules: dict[int, GpuModule] = {}
        self._functions: dict[int, Kernel] = {}
        self._allocations: dict[int, int] = {}
        self._free_blocks: dict[tuple[int, int], list[int]] = {}
        """Freed buffers by (stream, size), reused by later allocations on that stream."""
        self._last_launch: tuple[str, tuple[int, ...], tuple[int, ...], int] | None = None
        self._image_at: dict[tuple[int, int], tuple[bytes, int]] = {}
        """(address, size) of an image compiled code loaded -> (its bytes, module handle)."""
        self._function_of: dict[tuple[int, bytes], int] = {}
        """(module handle, kernel name) -> function handle."""
        self._tensor_maps: dict[bytes, int] = {}
        """Device copies of the TMA descriptors compiled code asked for, by their bytes."""
        self._staged: list[tuple[int, int, int]] = []
        """(stream, bytes, buffer) of this call's staged TMA tensors (see `release_staging`)."""
        self._callbacks = {name: SIGNATURES[name](self._guard(name)) for name in SIGNATURES}

    # -- plumbing ------------------------------------------------------------------------

    def symbols(self) -> dict[str, int]:
        """Symbol name -> address of each callback, for the JIT's resolver."""
        return {
            name: int(ctypes.cast(callback, ctypes.c_void_p).value or 0)
            for name, callback in self._callbacks.items()
        }

    def _guard(self, name: str) -> Callable[..., Any]:
        method = getattr(self, "_" + name)

        def callback(*args: Any) -> Any:
            if self.error is not None:
                return None
            try:
                return method(*args)
            except BaseException as err:  # a C frame is above us: keep it for check()
                self.error = err
                return None

        return callback

    def check(self) -> None:
        """Raise (and clear) the first error of a callback since the last check."""
        error, self.error = self.error, None
        if error is not None:
            raise error

    def _stream(self, stream: int | None) -> int:
        # Compiled code passes what mgpuStreamCreate returned, or null for synchronous ops.
        return stream_handle(self.stream) if not stream else int(stream)

    # -- modules and launches ------------------------------------------------------------

    def _mgpuModuleLoad(self, data: int, size: int) -> int:
        # Compiled host code loads its image on every call (upstream's lowering): find it by
        # address and size, confirmed byte for byte in C (copying and hashing the image in
        # Python cost ~100 us per call, more than a small kernel runs).
        known = self._image_at.get((data, size))
        if known is not None and _LIBC.memcmp(data, known[0], size) == 0:
            return known[1]
        image = ctypes.string_at(data, size)
        module = self._images.get(image)
        if module is None:
            module = GpuModule(self.context, image, name="schedir-kernels")
            self._images[image] = module
        handle = _HANDLE_BASE + 2 * list(self._images).index(image)
        self._modules[handle] = module
        self._image_at[(data, size)] = (image, handle)
        return handle

    def _mgpuModuleUnload(self, module: int) -> None:
        # Modules stay loaded for the next call of the host function (the runtime owns them).
        return None

    def _mgpuModuleGetFunction(self, module: int, name: bytes) -> int:
        known = self._function_of.get((module, name))
        if known is not None:
            return known
        kernel = self._modules[module].kernel(name.decode())
        handle = next((h for h, seen in self._functions.items() if seen is kernel), None)
        if handle is None:
            handle = _HANDLE_BASE + 1 + 2 * len(self._functions)
            self._functions[handle] = kernel
        self._function_of[(module, name)] = handle
        return handle

    def _mgpuLaunchKernel(
        self,
        function: int,
        gx: int,
        gy: int,
        gz: int,
        bx: int,
        by: int,
        bz: int,
        smem: int,
        stream: int | None,
        params: int | None,
        extra: int | None,
        count: int,
    ) -> None:
        kernel = self._functions[function]
        if min(gx, gy, gz) <= 0:
            return  # an empty grid launches nothing (the driver would refuse it)
        self._last_launch = (kernel.name, (gx, gy, gz), (bx, by, bz), smem)
        kernel.launch_raw(
            (gx, gy, gz), (bx, by, bz), params or 0, smem, self._stream(stream), extra or 0
        )
        self.launches += 1

    def _mgpuStreamCreate(self) -> int:
        return stream_handle(self.stream)

    def _mgpuStreamSynchronize(self, stream: int | None) -> None:
        if self.defer_sync:
            return
        during = (
            f"running {describe_launch(*self._last_launch)}"
            if self._last_launch
            else "synchronizing"
        )
        self.context.synchronize(self._stream(stream), during=during)

    def _mgpuStreamDestroy(self, stream: int | None) -> None:
        return None

    # -- memory --------------------------------------------------------------------------

    def _mgpuMemAlloc(self, nbytes: int, stream: int | None, host_shared: int) -> int:
        if host_shared:
            raise InputError(
                "host-shared GPU allocations (gpu.alloc host_shared) are not supported"
            )
        cached = self._free_blocks.get((self._stream(stream), nbytes))
        pointer = cached.pop() if cached else self.context.alloc(nbytes)
        if pointer:
            self._allocations[pointer] = nbytes
        return pointer

    def _mgpuMemFree(self, pointer: int | None, stream: int | None) -> None:
        if pointer:
            nbytes = self._allocations.pop(pointer, None)
            if nbytes is None:
                self.context.free(pointer)
            else:
                # Stream-ordered reuse: later work on the stream runs after this call's.
                key = (self._stream(stream), nbytes)
                self._free_blocks.setdefault(key, []).append(pointer)

    def _mgpuMemcpy(
        self, dst: int | None, src: int | None, nbytes: int, stream: int | None
    ) -> None:
        if nbytes:
            driver = self.context.driver
            self.context.call(
                "cuMemcpyAsync",
                driver.CUdeviceptr(dst or 0),
                driver.CUdeviceptr(src or 0),
                nbytes,
                driver.CUstream(self._stream(stream)),
                during=f"copying {nbytes} bytes on the device",
            )

    def _memset(
        self, call: str, dst: int | None, value: int, count: int, stream: int | None
    ) -> None:
        if count:
            driver = self.context.driver
            self.context.call(
                call,
                driver.CUdeviceptr(dst or 0),
                value,
                count,
                driver.CUstream(self._stream(stream)),
                during=f"filling {count} elements on the device",
            )

    def _mgpuMemset32(self, dst: int | None, value: int, count: int, stream: int | None) -> None:
        self._memset("cuMemsetD32Async", dst, value, count, stream)

    def _mgpuMemset16(self, dst: int | None, value: int, count: int, stream: int | None) -> None:
        self._memset("cuMemsetD16Async", dst, value, count, stream)

    # -- TMA descriptors -----------------------------------------------------------------

    def _schedirTensorMapEncodeTiled(self, fields_address: int) -> int:
        """The device address of the descriptor that the i64 fields at `fields_address`
        describe (schedir/lowering/lower_tma_descriptors.py packs them); descriptors
        are encoded once per distinct content and live until `close()`."""
        rank = ctypes.c_int64.from_address(fields_address + 8).value
        count = FIELDS_HEADER + 3 * max(rank, 0)
        fields = list((ctypes.c_int64 * count).from_address(fields_address))
        address, layout, staging = layout_of_fields(fields)
        if staging is not None:
            address = self._stage(staging)
        encoded = encode_tiled(self.context, address, layout)
        pointer = self._tensor_maps.get(encoded)
        if pointer is None:
            pointer = self.context.alloc(DESCRIPTOR_BYTES)
            self._tensor_maps[encoded] = pointer
            self.context.call(
                "cuMemcpyHtoD",
                self.context.driver.CUdeviceptr(pointer),
                encoded,
                DESCRIPTOR_BYTES,
                during="copying a TMA descriptor to the device",
            )
        return pointer

    def _stage(self, staging: Staging) -> int:
        """A buffer of 16-byte-pitched rows holding the tensor `staging` describes,
        copied on the runtime's stream (so after what wrote the tensor, before the
        launch that reads it) by `schedir.gpu.staging`'s kernel, its pad zero-filled;
        returned to the pool after the call."""
        stream = self._stream(None)
        key = (stream, staging.nbytes)
        cached = self._free_blocks.get(key)
        pointer = cached.pop() if cached else self.context.alloc(staging.nbytes)
        self._staged.append((stream, staging.nbytes, pointer))
        stage_rows(self.context, staging, pointer, stream)
        return pointer

    def release_staging(self) -> None:
        """Return this call's staged TMA tensors to the pool (stream-ordered reuse: the
        next call's copies into them run after this call's kernels)."""
        for stream, nbytes, pointer in self._staged:
            self._free_blocks.setdefault((stream, nbytes), []).append(pointer)
        self._staged.clear()

    @property
    def live_allocations(self) -> int:
        """Bytes allocated by compiled code and not freed yet."""
        return sum(self._allocations.values())

    def close(self) -> None:
        """Free what compiled code left allocated and unload the modules."""
        for pointer in list(self._allocations):
            self.context.free(pointer)
        self._allocations.clear()
        self.release_staging()
        for pointers in self._free_blocks.values():
            for pointer in pointers:
                self.context.free(pointer)
        self._free_blocks.clear()
        for pointer in self._tensor_maps.values():
            self.context.free(pointer)
        self._tensor_maps.clear()
        for module in self._images.values():
            module.unload()
        self._images.clear()
        self._modules.clear()
        self._image_at.clear()
        self._function_of.clear()
        self._functions.clear()


# ---------------------------------------------------------------------------------------
# calling the compiled entry


def _descriptor_type(rank: int) -> type[ctypes.Structure]:
    fields: list[tuple[str, Any]] = [
        ("allocated", ctypes.c_void_p),
        ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64),
    ]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"DeviceMemRef{rank}", (ctypes.Structure,), {"_fields_": fields})


@dataclass
class _Call:
    """One call's device arrays, temporaries and the packed argument array."""

    arrays: list[DeviceArray | None] = field(default_factory=list)
    temporaries: list[DeviceArray] = field(default_factory=list)
    keep: list[Any] = field(default_factory=list)
    packed: Any = None

    def release(self, keep: Sequence[DeviceArray] = ()) -> None:
        for array in self.temporaries:
            if not any(array is k for k in keep):
                array.free()
        self.temporaries = []


class HostFunction:
    """The compiled host entry of a GPU program, callable on numpy or device arrays.

    `params` are the entry's parameters (inputs, then the output parameters listed in
    `outputs`); `written` are the indices of inputs the program may write, which are
    copied when given as device arrays so the caller's data stays unchanged. `owner` is
    what keeps the code at `address` alive (the JIT module): the function, and every call
    bound from it, holds it, so a `BoundHostCall` outliving the compiled kernel it came
    from still calls live code.
    """

    def __init__(
        self,
        address: int,
        params: Sequence[ArgSpec],
        runtime: HostRuntime,
        *,
        name: str = "entry",
        outputs: Sequence[int] = (),
        written: Collection[int] = (),
        arg_names: Sequence[str] | None = None,
        owner: object = None,
    ) -> None:
        self.owner = owner
        self.runtime = runtime
        self.name = name
        self.params = tuple(params)
        self.outputs = tuple(outputs)
        self.written = frozenset(written)
        self.arg_names = tuple(arg_names) if arg_names is not None else None
        self.num_inputs = len(self.params) - len(self.outputs)
        if list(self.outputs) != list(range(self.num_inputs, len(self.params))):
            raise ValueError("output parameters must be the trailing memref parameters")
        self._call = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p))(address)
        self._descriptors = {
            p.rank: _descriptor_type(p.rank) for p in self.params if isinstance(p, MemRefSpec)
        }

    @property
    def context(self) -> GpuContext:
        return self.runtime.context

    def _label(self, index: int) -> str:
        if self.arg_names is not None and index < len(self.arg_names):
            return f"argument #{index} ('{self.arg_names[index]}')"
        return f"argument #{index}"

    # -- arguments -----------------------------------------------------------------------

    def _check(self, index: int, spec: MemRefSpec, dtype: np.dtype, shape: tuple[int, ...]) -> None:
        label = self._label(index)
        if dtype != spec.dtype:
            raise InputError(f"{label} of @{self.name} has dtype {dtype}, expected {spec.dtype}")
        if len(shape) != spec.rank:
            raise InputError(f"{label} of @{self.name} has rank {len(shape)}, expected {spec.rank}")
        for dim, (actual, expected) in enumerate(zip(shape, spec.shape, strict=True)):
            if expected != DYNAMIC and actual != expected:
                raise InputError(
                    f"{label} of @{self.name} has shape {shape}, expected "
                    f"({', '.join('?' if s == DYNAMIC else str(s) for s in spec.shape)}) "
                    f"(dimension {dim} is {actual}, not {expected})"
                )

    def _memref(self, index: int, spec: MemRefSpec, value: Any, call: _Call) -> DeviceArray:
        if isinstance(value, np.ndarray):
            self._check(index, spec, value.dtype, value.shape)
            array = DeviceArray.from_numpy(value, self.context)
            call.temporaries.append(array)
            return array
        if not is_device_array(value):
            raise InputError(
                f"{self._label(index)} of @{self.name} must be a numpy array or a device array, "
                f"got {type(value).__name__}"
            )
        array = DeviceArray.adopt(value, self.context, stream=self.runtime.stream)
        self._check(index, spec, array.dtype, array.shape)
        if not array.is_c_contiguous:
            raise InputError(
                f"{self._label(index)} of @{self.name} is a strided device array; the program "
                "expects a C-contiguous one (e.g. .contiguous())"
            )
        if index in self.written or array.ptr % ARGUMENT_ALIGNMENT:
            # The program writes this buffer: work on a copy, inputs are never modified.
            # A misaligned view is copied too: kernels assume ARGUMENT_ALIGNMENT.
            copy = DeviceArray.empty(array.shape, array.dtype, self.context)
            call.temporaries.append(copy)
            self.runtime._mgpuMemcpy(copy.ptr, array.ptr, array.nbytes, None)
            self.runtime.check()
            return copy
        return array

    def _descriptor(self, spec: MemRefSpec, array: DeviceArray, call: _Call) -> int:
        desc = self._descriptors[spec.rank]()
        desc.allocated = array.ptr
        desc.aligned = array.ptr
        desc.offset = 0
        for dim, (size, stride) in enumerate(zip(array.shape, array.element_strides, strict=True)):
            desc.sizes[dim] = size
            desc.strides[dim] = stride
        holder = ctypes.c_void_p(ctypes.addressof(desc))
        call.keep += [desc, holder]
        return ctypes.addressof(holder)

    def _scalar(self, index: int, spec: ScalarSpec, value: Any, call: _Call) -> int:
        converted = convert_scalar(f"{self._label(index)} of @{self.name}", spec, value)
        buffer = ctypes.create_string_buffer(converted.tobytes(), max(spec.dtype.itemsize, 8))
        call.keep.append(buffer)
        return ctypes.addressof(buffer)

    def _prepare(self, args: Sequence[Any], outputs: Sequence[Any] | None) -> _Call:
        if len(args) != self.num_inputs:
            raise InputError(f"@{self.name} takes {self.num_inputs} arguments, got {len(args)}")
        call = _Call()
        pointers: list[int] = []
        try:
            values = list(args)
            for position, index in enumerate(self.outputs):
                spec = self.params[index]
                assert isinstance(spec, MemRefSpec)
                initial = outputs[position] if outputs is not None else None
                if initial is None:
                    shape = tuple(0 if s == DYNAMIC else s for s in spec.shape)
                    array = DeviceArray.empty(shape, spec.dtype, self.context)
                    call.temporaries.append(array)
                    values.append(array)
                else:
                    values.append(initial)
            for index, (spec, value) in enumerate(zip(self.params, values, strict=True)):
                if isinstance(spec, MemRefSpec):
                    array = self._memref(index, spec, value, call)
                    call.arrays.append(array)
                    pointers.append(self._descriptor(spec, array, call))
                else:
                    call.arrays.append(None)
                    pointers.append(self._scalar(index, spec, value, call))
            call.packed = (ctypes.c_void_p * max(len(pointers), 1))(*pointers)
        except BaseException:
            call.release()
            raise
        return call

    # -- calls ---------------------------------------------------------------------------

    def _invoke(self, call: _Call) -> None:
        self.runtime.check()  # an error left over from an earlier call is not ours
        try:
            self._call(call.packed)
        finally:
            self.runtime.release_staging()
        self.runtime.check()

    def _output_arrays(self, call: _Call) -> list[DeviceArray]:
        arrays = [call.arrays[i] for i in self.outputs]
        return [a for a in arrays if a is not None]

    def __call__(self, *args: Any, outputs: Sequence[Any] | None = None) -> list[np.ndarray]:
        """Run on `args` (numpy or device arrays, scalars) and wait; the outputs as numpy.

        `outputs` may give the initial contents of the output buffers (numpy arrays, e.g.
        NaN-filled for checking) or device arrays to write into.
        """
        call = self._prepare(args, outputs)
        try:
            self._invoke(call)
            self.context.synchronize(self.runtime.stream, during=f"running @{self.name}")
            return [a.to_numpy() for a in self._output_arrays(call)]
        finally:
            call.release()

    def run_device(self, *args: Any, outputs: Sequence[Any] | None = None) -> list[DeviceArray]:
        """Run and wait; the outputs stay on the device (new `DeviceArray`s unless given)."""
        call = self._prepare(args, outputs)
        kept: list[DeviceArray] = []
        try:
            self._invoke(call)
            self.context.synchronize(self.runtime.stream, during=f"running @{self.name}")
            kept = self._output_arrays(call)
            return kept
        finally:
            call.release(keep=kept)

    def bind(self, *args: Any) -> BoundHostCall:
        """Upload `args` once; the result queues one run per call (for timing)."""
        return BoundHostCall(self, self._prepare(args, None))


class BoundHostCall:
    """A `HostFunction` with its arguments on the device: each call queues one run
    without waiting for it (the runtime defers its synchronizations meanwhile)."""

    def __init__(self, function: HostFunction, call: _Call) -> None:
        self.function = function
        self._call = call

    def __call__(self) -> None:
        runtime = self.function.runtime
        runtime.defer_sync = True
        try:
            self.function._invoke(self._call)
        finally:
            runtime.defer_sync = False

    def results(self) -> list[np.ndarray]:
        """Wait for the queued runs; the outputs as numpy arrays."""
        self.function.context.synchronize(
            self.function.runtime.stream, during=f"running @{self.function.name}"
        )
        return [a.to_numpy() for a in self.function._output_arrays(self._call)]

    def close(self) -> None:
        """Free the device copies of the arguments and the outputs."""
        self._call.release()

    def __enter__(self) -> BoundHostCall:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["SIGNATURES", "BoundHostCall", "HostFunction", "HostRuntime"]
