"""Device arrays: allocation, host <-> device copies, and zero-copy adoption.

`DeviceArray` is a typed view of device memory: shape, dtype, byte strides and a pointer.
It either owns its memory (`DeviceArray.empty` / `from_numpy`; freed by `free()` or when
the object is collected) or borrows it from another library's array, adopted without a
copy (`DeviceArray.adopt`) through

- `__cuda_array_interface__` (CuPy, PyTorch, Numba, JAX): used first; its `stream`, when
  given, is synchronized before the memory is used;
- DLPack (`__dlpack_device__` / `__dlpack__`): used when the interface is absent or
  refuses the dtype (PyTorch's bfloat16). The capsule is kept, not consumed: its
  destructor calls the producer's deleter once the `DeviceArray` is gone, which is when
  the memory may be released.

A borrowed array keeps its source object alive. Adoption checks that the memory is on the
context's device. `DeviceArray` itself exports `__cuda_array_interface__` (version 3), so
`torch.as_tensor(arr, device="cuda")` or `cupy.asarray(arr)` see its memory without a copy
(except for bfloat16, which that interface cannot describe).

Supported dtypes: those of the kernel ABI (`schedir.abi.DTYPES`): float16, bfloat16
(ml_dtypes), float32, float64, int8/16/32/64, uint8/16/32/64, bool (one byte).
"""

from __future__ import annotations

import contextlib
import ctypes
import weakref
from collections.abc import Sequence
from typing import Any

import ml_dtypes
import numpy as np

from schedir.abi import DTYPES
from schedir.diagnostics import InputError
from schedir.gpu.context import GpuContext, default_context, stream_handle
from schedir.gpu.errors import CudaError

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)

# -- DLPack (dlpack.h, ABI v0.8 capsules "dltensor" and v1.x "dltensor_versioned") ------

_KDL_CUDA = 2
_KDL_CUDA_MANAGED = 13
_DL_DEVICE_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA host (pinned)", 13: "CUDA managed"}
_DL_READ_ONLY = 1


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [
        ("dl_tensor", _DLTensor),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
    ]


class _DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", _DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", _DLTensor),
    ]


# Own prototypes rather than setting argtypes on the shared `ctypes.pythonapi` functions.
_capsule_name = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(
    ("PyCapsule_GetName", ctypes.pythonapi)
)
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi)
)

_DL_DTYPES: dict[tuple[int, int], np.dtype] = {
    (0, 8): np.dtype(np.int8),
    (0, 16): np.dtype(np.int16),
    (0, 32): np.dtype(np.int32),
    (0, 64): np.dtype(np.int64),
    (1, 8): np.dtype(np.uint8),
    (1, 16): np.dtype(np.uint16),
    (1, 32): np.dtype(np.uint32),
    (1, 64): np.dtype(np.uint64),
    (2, 16): np.dtype(np.float16),
    (2, 32): np.dtype(np.float32),
    (2, 64): np.dtype(np.float64),
    (4, 16): BFLOAT16,
    (6, 8): np.dtype(np.bool_),
}
"""(DLDataTypeCode, bits) -> dtype: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLBool 6."""


def _check_dtype(dtype: Any, what: str) -> np.dtype:
    try:
        result = np.dtype(dtype)
    except TypeError:
        raise InputError(f"{what}: {dtype!r} is not a dtype") from None
    if result not in DTYPES:
        raise InputError(f"{what}: dtype {result} is not supported on the GPU")
    return result


def c_strides(shape: Sequence[int], itemsize: int) -> tuple[int, ...]:
    """Byte strides of a C-contiguous array of `shape`."""
    strides: list[int] = []
    step = itemsize
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def is_device_array(value: object) -> bool:
    """True for objects `DeviceArray.adopt` can take (device memory of another library)."""
    return isinstance(value, DeviceArray) or (
        not isinstance(value, np.ndarray)
        and (hasattr(value, "__cuda_array_interface__") or hasattr(value, "__dlpack_device__"))
    )


class DeviceArray:
    """An array in device memory: shape, dtype, byte strides and a device pointer."""

    def __init__(
        self,
        context: GpuContext,
        pointer: int,
        shape: Sequence[int],
        dtype: Any,
        *,
        strides: Sequence[int] | None = None,
        owned: bool = False,
        owner: object = None,
        readonly: bool = False,
    ) -> None:
        """Wrap `pointer`; with `owned=True` the memory is freed with this object."""
        self.context = context
        self.ptr = int(pointer)
        self.shape: tuple[int, ...] = tuple(int(s) for s in shape)
        self.dtype = _check_dtype(dtype, "DeviceArray")
        self.strides: tuple[int, ...] = (
            tuple(int(s) for s in strides)
            if strides is not None
            else c_strides(self.shape, self.dtype.itemsize)
        )
        if len(self.strides) != len(self.shape):
            raise ValueError(f"strides {self.strides} do not match shape {self.shape}")
        self.owner = owner
        self.readonly = readonly
        self.owned = owned
        self._finalizer = (
            weakref.finalize(self, _release, context, self.ptr) if owned and self.ptr else None
        )

    # -- creation ----------------------------------------------------------------------

    @classmethod
    def empty(
        cls, shape: Sequence[int] | int, dtype: Any, context: GpuContext | None = None
    ) -> DeviceArray:
        """Uninitialized device memory of `shape` and `dtype`."""
        context = context if context is not None else default_context()
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if any(s < 0 for s in shape):
            raise InputError(f"cannot allocate an array of shape {shape}")
        dtype = _check_dtype(dtype, "DeviceArray.empty")
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        pointer = context.alloc(nbytes)
        return cls(context, pointer, shape, dtype, owned=True)

    @classmethod
    def from_numpy(cls, array: np.ndarray, context: GpuContext | None = None) -> DeviceArray:
        """A device copy of a numpy array (any layout; the copy is C-contiguous)."""
        # Not np.ascontiguousarray: it turns a rank-0 array into a rank-1 one.
        host = np.asarray(array, order="C")
        result = cls.empty(host.shape, host.dtype, context)
        try:
            result.copy_from_numpy(host)
        except BaseException:
            result.free()
            raise
        return result

    @classmethod
    def adopt(
        cls, value: object, context: GpuContext | None = None, *, stream: Any = None
    ) -> DeviceArray:
        """Borrow another library's device array without copying (see the module doc).

        `stream` is the stream the memory will be used on; producers order their pending
        work before it (DLPack) or the given interface stream is synchronized.
        """
        if isinstance(value, DeviceArray):
            return value
        context = context if context is not None else default_context()
        interface = None
        try:
            interface = value.__cuda_array_interface__  # type: ignore[attr-defined]  # duck-typed: absent is caught below
        except (AttributeError, TypeError, ValueError, RuntimeError):
            # PyTorch raises TypeError for bfloat16; DLPack can describe it.
            interface = None
        if interface is not None:
            try:
                return cls._from_interface(value, interface, context)
            except InputError:
                if not hasattr(value, "__dlpack__"):
                    raise
        if hasattr(value, "__dlpack__") and hasattr(value, "__dlpack_device__"):
            return cls._from_dlpack(value, context, stream)
        raise InputError(
            f"a {type(value).__name__} is not a device array: it has neither "
            "__cuda_array_interface__ nor __dlpack__"
        )

    @classmethod
    def _from_interface(
        cls, value: object, interface: dict[str, Any], context: GpuContext
    ) -> DeviceArray:
        kind = type(value).__name__
        if interface.get("mask") is not None:
            raise InputError(f"a masked {kind} (__cuda_array_interface__ mask) is not supported")
        typestr = interface["typestr"]
        dtype = np.dtype(typestr)
        if dtype.kind == "V":
            raise InputError(
                f"the {kind}'s __cuda_array_interface__ typestr '{typestr}' is untyped"
            )
        dtype = _check_dtype(dtype, kind)
        if dtype.byteorder == ">":
            raise InputError(f"the {kind} is big-endian ({typestr})")
        pointer, readonly = interface["data"]
        shape = tuple(interface["shape"])
        strides = interface.get("strides")
        stream = interface.get("stream")
        if stream is not None:
            # Version 3: work on that stream may still be writing the data.
            context.synchronize(stream, during=f"waiting for the {kind}'s stream {stream}")
        pointer = int(pointer or 0)
        _check_device_pointer(context, pointer, kind)
        return cls(
            context, pointer, shape, dtype, strides=strides, owner=value, readonly=bool(readonly)
        )

    @classmethod
    def _from_dlpack(cls, value: object, context: GpuContext, stream: Any) -> DeviceArray:
        kind = type(value).__name__
        device_type, device_id = value.__dlpack_device__()  # type: ignore[attr-defined]  # the caller saw __dlpack__
        if int(device_type) not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
            where = _DL_DEVICE_NAMES.get(int(device_type), f"DLPack device type {device_type}")
            raise InputError(f"the {kind} is on the {where}, not on a CUDA device")
        if int(device_id) != context.device:
            raise InputError(
                f"the {kind} is on CUDA device {device_id}, the kernel runs on device "
                f"{context.device}"
            )
        # DLPack: 1 is the legacy default stream; the producer orders its work before it.
        handle = stream_handle(stream) or 1
        capsule = value.__dlpack__(stream=handle)  # type: ignore[attr-defined]  # the caller saw __dlpack__
        name = _capsule_name(capsule)
        if name == b"dltensor_versioned":
            managed = _DLManagedTensorVersioned.from_address(_capsule_pointer(capsule, name))
            tensor = managed.dl_tensor
            readonly = bool(managed.flags & _DL_READ_ONLY)
        elif name == b"dltensor":
            tensor = _DLManagedTensor.from_address(_capsule_pointer(capsule, name)).dl_tensor
            readonly = False
        else:
            raise InputError(f"the {kind}'s __dlpack__ returned a capsule named {name!r}")
        code, bits, lanes = tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes
        dtype = _DL_DTYPES.get((code, bits))
        if dtype is None or lanes != 1:
            raise InputError(
                f"the {kind}'s DLPack dtype (code {code}, {bits} bits, {lanes} lanes) is not "
                "supported on the GPU"
            )
        shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
        strides = (
            tuple(tensor.strides[i] * dtype.itemsize for i in range(tensor.ndim))
            if tensor.strides
            else None
        )
        pointer = (tensor.data or 0) + tensor.byte_offset
        return cls(
            context,
            pointer,
            shape,
            dtype,
            strides=strides,
            owner=(value, capsule),
            readonly=readonly,
        )

    # -- facts -------------------------------------------------------------------------

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def is_c_contiguous(self) -> bool:
        """True if the elements are dense in row-major order (sizes 0 and 1 ignore strides)."""
        if self.size == 0:
            return True
        expected = c_strides(self.shape, self.dtype.itemsize)
        return all(
            size == 1 or stride == want
            for size, stride, want in zip(self.shape, self.strides, expected, strict=True)
        )

    @property
    def element_strides(self) -> tuple[int, ...]:
        """Strides in elements (the memref descriptor's unit)."""
        item = self.dtype.itemsize
        if any(s % item for s in self.strides):
            raise InputError(f"strides {self.strides} are not multiples of the element size {item}")
        return tuple(s // item for s in self.strides)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        if self.dtype == BFLOAT16:
            # The interface has no bfloat16 typestr ('<V2' would be read as raw bytes).
            raise AttributeError("__cuda_array_interface__ cannot describe bfloat16")
        return {
            "shape": self.shape,
            "typestr": self.dtype.str,
            "data": (self.ptr, self.readonly),
            "strides": None if self.is_c_contiguous else self.strides,
            "version": 3,
            "stream": None,
        }

    # -- copies ------------------------------------------------------------------------

    def _byte_span(self) -> tuple[int, int]:
        """(lowest, highest + 1) byte offsets from `ptr` that elements occupy."""
        low = high = 0
        for size, stride in zip(self.shape, self.strides, strict=True):
            extent = (size - 1) * stride
            low += min(extent, 0)
            high += max(extent, 0)
        return low, high + self.dtype.itemsize

    def copy_from_numpy(self, array: np.ndarray) -> None:
        """Overwrite this (C-contiguous) array with a numpy array of the same shape/dtype."""
        if self.readonly:
            raise InputError("cannot write into a read-only device array")
        if array.shape != self.shape or array.dtype != self.dtype:
            raise InputError(
                f"cannot copy a {array.dtype} array of shape {array.shape} into a device array "
                f"of {self.dtype} and shape {self.shape}"
            )
        if not self.is_c_contiguous:
            raise InputError("copies into strided device arrays are not supported")
        host = np.asarray(array, order="C")
        if self.nbytes:
            self.context.call(
                "cuMemcpyHtoD",
                self.context.driver.CUdeviceptr(self.ptr),
                host.ctypes.data,
                self.nbytes,
                during=f"copying {self.nbytes} bytes to the device",
            )

    def to_numpy(self) -> np.ndarray:
        """A new C-contiguous numpy array with the contents (waits for pending work)."""
        result = np.empty(self.shape, self.dtype)
        if self.size == 0:
            return result
        low, high = self._byte_span()
        if self.is_c_contiguous:
            target, span = result, None
        else:
            span = np.empty(high - low, np.uint8)
            target = span
        self.context.call(
            "cuMemcpyDtoH",
            target.ctypes.data,
            self.context.driver.CUdeviceptr(self.ptr + low),
            high - low,
            during=f"copying {high - low} bytes from the device",
        )
        if span is not None:
            view = np.lib.stride_tricks.as_strided(
                span[-low:].view(self.dtype) if low else span.view(self.dtype),
                shape=self.shape,
                strides=self.strides,
                writeable=False,
            )
            result[...] = view
        return result

    def copy(self) -> DeviceArray:
        """A new array with the same contents (a C-contiguous array; a device-to-device
        copy, done when this returns)."""
        if not self.is_c_contiguous:
            raise InputError("copy needs a C-contiguous device array")
        result = DeviceArray.empty(self.shape, self.dtype, self.context)
        if self.nbytes:
            driver = self.context.driver
            self.context.call(
                "cuMemcpyDtoD",
                driver.CUdeviceptr(result.ptr),
                driver.CUdeviceptr(self.ptr),
                self.nbytes,
                during=f"copying {self.nbytes} bytes on the device",
            )
            # A device-to-device copy does not wait: nothing may read the copy before it ends.
            self.context.synchronize(during=f"copying {self.nbytes} bytes on the device")
        return result

    def fill_bytes(self, value: int, stream: Any = None) -> None:
        """Set every byte of a C-contiguous array to `value` (asynchronously on `stream`)."""
        if not self.is_c_contiguous:
            raise InputError("fill_bytes needs a C-contiguous device array")
        if self.nbytes:
            context = self.context
            context.call(
                "cuMemsetD8Async",
                context.driver.CUdeviceptr(self.ptr),
                value & 0xFF,
                self.nbytes,
                context.driver.CUstream(stream_handle(stream)),
                during=f"setting {self.nbytes} bytes",
            )

    # -- lifetime ----------------------------------------------------------------------

    def free(self) -> None:
        """Release owned memory now (idempotent); a borrowed array just drops its source."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self.owner = None
        self.ptr = 0 if self.owned else self.ptr

    def __repr__(self) -> str:
        how = "owned" if self.owned else "borrowed"
        return (
            f"DeviceArray(shape={self.shape}, dtype={self.dtype}, ptr=0x{self.ptr:x}, {how}, "
            f"device={self.context.device})"
        )


def _release(context: GpuContext, pointer: int) -> None:
    # Called by the finalizer, possibly at exit: a failing free must not raise there.
    with contextlib.suppress(CudaError):
        context.free(pointer)


def _check_device_pointer(context: GpuContext, pointer: int, kind: str) -> None:
    """InputError unless `pointer` is device memory of the context's device."""
    if pointer == 0:
        return
    driver = context.driver
    status, ordinal = driver.cuPointerGetAttribute(
        driver.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, driver.CUdeviceptr(pointer)
    )
    if int(status) != 0:
        raise InputError(
            f"the {kind}'s __cuda_array_interface__ pointer 0x{pointer:x} is not CUDA memory"
        )
    if int(ordinal) != context.device:
        raise InputError(
            f"the {kind} is on CUDA device {int(ordinal)}, the kernel runs on device "
            f"{context.device}"
        )


__all__ = ["DeviceArray", "c_strides", "is_device_array"]
