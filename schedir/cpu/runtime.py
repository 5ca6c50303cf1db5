"""Calling JIT-compiled functions on numpy arrays: the memref-descriptor ABI.

The ABI is upstream MLIR's C interface (mlir/docs/TargetLLVMIR.md):

- a rank-R memref is the C struct
  `{void *allocated; void *aligned; int64_t offset; int64_t sizes[R]; int64_t strides[R];}`
  (rank 0: the first three fields); element `(i0, ..., iR-1)` is at
  `aligned + offset + sum(ik * strides[k])` elements;
- `_mlir_ciface_<name>` takes a pointer to such a struct for each memref argument and the
  scalar arguments by value; when the result is a memref or there are several results,
  the result struct (`{desc0; desc1; ...}` for several, the descriptor for one memref)
  is written through an extra first pointer argument; a single scalar result is returned.

`CpuFunction` calls it through the JIT's packed wrapper `_mlir__mlir_ciface_<name>(void
**args)`, so half, bfloat and i1 values cross the boundary as bytes.

Arguments: memref arguments must be C-contiguous numpy arrays of exactly the declared
dtype, rank and static sizes (otherwise `InputError` naming the argument); scalars must
fit their type (`schedir.abi.scalar_value`: never wrapped). Memrefs are passed in place (allocated = aligned = the data pointer, offset 0, row-major strides), so
the function may write them (out-parameters). Results: each returned memref is copied
into a new numpy array following its offset, sizes and strides; then every distinct
returned allocated pointer is released with libc `free` exactly once, unless it is null,
upstream's `0xdeadbeef` marker of a global, or inside one of the argument arrays (a
result that aliases an input is never freed).

Specs are `schedir.abi`'s `MemRefSpec` and `ScalarSpec`. Dtypes: float16, ml_dtypes.bfloat16,
float32, float64, int8/16/32/64, uint8, bool (an `i1` is one byte, 0 or 1); MLIR `index` is
int64 (the wider unsigned types of `schedir.abi.DTYPES` are refused).

This module must not import xDSL.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np

from schedir.abi import DYNAMIC, ArgSpec, MemRefSpec, ScalarSpec, scalar_value
from schedir.cpu.jit import CIFACE_PREFIX, PACKED_PREFIX, JitModule
from schedir.diagnostics import InputError, ToolError

_SCALAR_CTYPES: dict[np.dtype, Any] = {
    np.dtype(np.float16): ctypes.c_uint16,
    np.dtype(ml_dtypes.bfloat16): ctypes.c_uint16,
    np.dtype(np.float32): ctypes.c_float,
    np.dtype(np.float64): ctypes.c_double,
    np.dtype(np.int8): ctypes.c_int8,
    np.dtype(np.int16): ctypes.c_int16,
    np.dtype(np.int32): ctypes.c_int32,
    np.dtype(np.int64): ctypes.c_int64,
    np.dtype(np.uint8): ctypes.c_uint8,
    np.dtype(np.bool_): ctypes.c_uint8,
}
"""The element types of the CPU runtime: C types with the size and alignment LLVM gives
each inside a struct."""

GLOBAL_MARKER = 0xDEADBEEF
"""The allocated pointer upstream puts in descriptors of globals: never freed."""


def _check_dtype(spec: ArgSpec) -> None:
    if spec.dtype not in _SCALAR_CTYPES:
        raise InputError(f"dtype {spec.dtype} is not supported by the CPU runtime")


def descriptor_type(rank: int) -> type[ctypes.Structure]:
    """The ctypes struct of a rank-`rank` memref descriptor."""
    fields: list[tuple[str, Any]] = [
        ("allocated", ctypes.c_void_p),
        ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64),
    ]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRefDescriptor{rank}", (ctypes.Structure,), {"_fields_": fields})


def _field_type(spec: ArgSpec) -> Any:
    if isinstance(spec, MemRefSpec):
        return descriptor_type(spec.rank)
    return _SCALAR_CTYPES[spec.dtype]


@dataclass
class _Prepared:
    """Per-call argument storage, kept alive until the call returns."""

    slots: list[Any] = field(default_factory=list)
    arrays: list[np.ndarray] = field(default_factory=list)


class CpuFunction:
    """A JIT-compiled `_mlir_ciface_<name>` callable on numpy arrays and scalars."""

    def __init__(
        self,
        jit: JitModule,
        ciface_name: str,
        params: Sequence[ArgSpec],
        results: Sequence[ArgSpec],
        *,
        arg_names: Sequence[str] | None = None,
    ) -> None:
        if not ciface_name.startswith(CIFACE_PREFIX):
            ciface_name = CIFACE_PREFIX + ciface_name
        self.jit = jit
        self.name = ciface_name
        self.params = tuple(params)
        self.results = tuple(results)
        for spec in (*self.params, *self.results):
            _check_dtype(spec)
        self.arg_names = tuple(arg_names) if arg_names is not None else None
        if self.arg_names is not None and len(self.arg_names) != len(self.params):
            raise ValueError("arg_names must name every parameter")
        # One memref or several results travel in a struct through a first pointer.
        self._struct_result = len(self.results) > 1 or any(
            isinstance(r, MemRefSpec) for r in self.results
        )
        if self._struct_result:
            types = [_field_type(r) for r in self.results]
            if len(types) == 1:
                self._result_struct = types[0]
            else:
                self._result_struct = type(
                    "Results",
                    (ctypes.Structure,),
                    {"_fields_": [(f"r{i}", t) for i, t in enumerate(types)]},
                )
        self._descriptors = {
            p.rank: descriptor_type(p.rank) for p in self.params if isinstance(p, MemRefSpec)
        }
        address = jit.address(PACKED_PREFIX + ciface_name)
        self._call = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p))(address)
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        self._free = libc.free
        self._free.argtypes = [ctypes.c_void_p]
        self._free.restype = None

    # -- arguments ---------------------------------------------------------------------

    def _arg_label(self, index: int) -> str:
        if self.arg_names is not None:
            return f"argument #{index} ('{self.arg_names[index]}')"
        return f"argument #{index}"

    def _memref_arg(self, index: int, spec: MemRefSpec, value: Any, prepared: _Prepared) -> Any:
        if not isinstance(value, np.ndarray):
            label = self._arg_label(index)
            raise InputError(f"{label} must be a numpy array, got {type(value).__name__}")
        if value.dtype != spec.dtype:
            label = self._arg_label(index)
            raise InputError(f"{label} has dtype {value.dtype}, expected {spec.dtype}")
        if value.ndim != spec.rank:
            label = self._arg_label(index)
            raise InputError(f"{label} has rank {value.ndim}, expected {spec.rank}")
        for dim, (actual, expected) in enumerate(zip(value.shape, spec.shape, strict=True)):
            if expected != DYNAMIC and actual != expected:
                label = self._arg_label(index)
                raise InputError(
                    f"{label} has shape {value.shape}, expected {_shape_text(spec.shape)} "
                    f"(dimension {dim} is {actual}, not {expected})"
                )
        if not value.flags.c_contiguous:
            label = self._arg_label(index)
            raise InputError(f"{label} must be C-contiguous (use np.ascontiguousarray)")
        desc = self._descriptors[spec.rank]()
        pointer = value.ctypes.data
        desc.allocated = pointer
        desc.aligned = pointer
        desc.offset = 0
        if spec.rank:
            stride = 1
            for dim in range(spec.rank - 1, -1, -1):
                desc.sizes[dim] = value.shape[dim]
                desc.strides[dim] = stride
                stride *= value.shape[dim]
        holder = ctypes.c_void_p(ctypes.addressof(desc))
        prepared.slots += [desc, holder]
        prepared.arrays.append(value)
        return holder

    def _scalar_arg(self, index: int, spec: ScalarSpec, value: Any, prepared: _Prepared) -> Any:
        if self.arg_names is not None and not spec.name:
            spec = ScalarSpec(spec.dtype, spec.mlir_type, f"'{self.arg_names[index]}'")
        # The one scalar rule of the ABI: out-of-range values are rejected, never wrapped.
        converted = scalar_value(index, spec, value)
        buffer = ctypes.create_string_buffer(converted.tobytes(), max(spec.dtype.itemsize, 8))
        prepared.slots.append(buffer)
        return ctypes.cast(buffer, ctypes.c_void_p)

    # -- call --------------------------------------------------------------------------

    def __call__(self, *args: Any) -> list[np.ndarray | Any]:
        if len(args) != len(self.params):
            raise InputError(
                f"{self.name.removeprefix(CIFACE_PREFIX)} takes {len(self.params)} arguments, "
                f"got {len(args)}"
            )
        prepared = _Prepared()
        pointers: list[Any] = []
        result_struct = None
        if self._struct_result:
            result_struct = self._result_struct()
            holder = ctypes.c_void_p(ctypes.addressof(result_struct))
            prepared.slots.append(holder)
            pointers.append(ctypes.addressof(holder))
        for index, (spec, value) in enumerate(zip(self.params, args, strict=True)):
            if isinstance(spec, MemRefSpec):
                slot = self._memref_arg(index, spec, value, prepared)
                pointers.append(ctypes.addressof(slot))
            else:
                pointers.append(self._scalar_arg(index, spec, value, prepared).value)
        scalar_result = None
        if self.results and not self._struct_result:
            scalar_result = ctypes.create_string_buffer(16)
            pointers.append(ctypes.addressof(scalar_result))
        packed = (ctypes.c_void_p * max(len(pointers), 1))(*pointers)
        with self.jit.checked_call():  # a failed runtime check raises here
            self._call(packed)

        if scalar_result is not None:
            spec = self.results[0]
            return [np.frombuffer(scalar_result.raw[: spec.dtype.itemsize], spec.dtype)[0]]
        if result_struct is None:
            return []
        return self._read_results(result_struct, prepared.arrays)

    # -- results -----------------------------------------------------------------------

    def _read_results(self, struct: Any, arrays: list[np.ndarray]) -> list[np.ndarray | Any]:
        outputs: list[np.ndarray | Any] = []
        allocations: list[int] = []
        base = ctypes.addressof(struct)
        try:
            for index, spec in enumerate(self.results):
                if len(self.results) == 1:
                    value = struct
                elif isinstance(spec, MemRefSpec):
                    value = getattr(struct, f"r{index}")
                else:
                    # Read scalars as bytes: half and bfloat have no ctypes type.
                    offset = getattr(type(struct), f"r{index}").offset
                    raw = ctypes.string_at(base + offset, spec.dtype.itemsize)
                    outputs.append(np.frombuffer(raw, spec.dtype)[0])
                    continue
                assert isinstance(spec, MemRefSpec)
                outputs.append(self._copy_out(index, spec, value))
                if value.allocated:
                    allocations.append(value.allocated)
        finally:
            self._release(allocations, arrays)
        return outputs

    def _copy_out(self, index: int, spec: MemRefSpec, desc: Any) -> np.ndarray:
        rank = spec.rank
        sizes = [int(desc.sizes[d]) for d in range(rank)] if rank else []
        strides = [int(desc.strides[d]) for d in range(rank)] if rank else []
        for dim, (actual, expected) in enumerate(zip(sizes, spec.shape, strict=True)):
            if expected != DYNAMIC and actual != expected:
                raise ToolError(
                    f"result #{index} has size {actual} in dimension {dim}, the function's "
                    f"type says {expected}"
                )
        if any(s < 0 for s in sizes):
            raise ToolError(f"result #{index} has a negative size: {sizes}")
        dtype = spec.dtype
        if any(s == 0 for s in sizes):
            return np.empty(sizes, dtype)
        low = high = int(desc.offset)
        for size, stride in zip(sizes, strides, strict=True):
            extent = (size - 1) * stride
            low += min(extent, 0)
            high += max(extent, 0)
        item = dtype.itemsize
        if not desc.aligned:
            raise ToolError(f"result #{index} has a null data pointer")
        raw = (ctypes.c_char * ((high - low + 1) * item)).from_address(desc.aligned + low * item)
        base = np.frombuffer(memoryview(raw).cast("B"), dtype=dtype)
        view = np.lib.stride_tricks.as_strided(
            base[int(desc.offset) - low :],
            shape=sizes,
            strides=[s * item for s in strides],
            writeable=False,
        )
        return np.array(view, dtype=dtype, copy=True, order="C")

    def _release(self, allocations: list[int], arrays: list[np.ndarray]) -> None:
        ranges = [(a.ctypes.data, a.ctypes.data + max(a.nbytes, 1)) for a in arrays]
        freed: set[int] = set()
        for pointer in allocations:
            if pointer in freed or pointer == GLOBAL_MARKER:
                continue
            if any(start <= pointer < end for start, end in ranges):
                continue
            freed.add(pointer)
            self._free(pointer)


def _shape_text(shape: Sequence[int]) -> str:
    return "(" + ", ".join("?" if s == DYNAMIC else str(s) for s in shape) + ")"


__all__ = ["GLOBAL_MARKER", "CpuFunction", "descriptor_type"]
