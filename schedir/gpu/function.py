"""`GpuFunction`: one kernel, called like a function on numpy or device arrays.

The GPU twin of `schedir.cpu.runtime.CpuFunction`. Numpy arguments are copied to fresh
device buffers (so they are never modified), device arrays of other libraries are used in
place (zero-copy, see `DeviceArray.adopt`), the kernel is launched, the stream is
synchronized (a fault in the kernel is reported with the kernel's name and launch
configuration), and the output parameters come back as new numpy arrays.

Kernel ABI
----------
What schedir's lowering must produce and what this module passes. It is upstream MLIR's
`gpu.func` kernel convention after `convert-gpu-to-nvvm` with
`use-bare-ptr-memref-call-conv=false` (the default): memref parameters are expanded into
their descriptor fields, each one a separate kernel parameter.

- The kernel is an LLVM function `define ptx_kernel void @name(...)` (PTX `.entry`), in a
  module for `nvptx64-nvidia-cuda`. It returns nothing; results go through memrefs.
- A rank-R memref parameter becomes 3 + 2R parameters, in this order:
  `ptr allocated, ptr aligned, i64 offset, i64 sizes[0..R-1], i64 strides[0..R-1]`
  (rank 0: the first three). Both pointers are the 64-bit device address of the first
  element, the offset is 0, the sizes are the array's shape, and the strides are
  row-major, in elements. The pointers may be generic (`ptr`) or global
  (`ptr addrspace(1)`) in the IR: a CUDA global address is the same 64 bits in both.
- A scalar parameter is passed by value with its LLVM type: `index` and i64 as i64, i32,
  i16, i8, f64, f32, f16 and bf16 as 2 bytes, i1 as one byte (NVPTX makes an i1 kernel
  parameter `.param .u8`).
- `bare_pointers=True` is upstream's `use-bare-ptr-memref-call-conv=true` instead: each
  memref is one pointer parameter (the aligned pointer); upstream allows it only for
  statically shaped memrefs with the identity layout, and so does this class.
- Memref parameters are C-contiguous (identity layout); a strided device array is
  refused rather than passed with strides the kernel would ignore.
- Which memref parameters are outputs (written by the kernel, returned to the caller) is
  the `outputs` argument: after `buffer-results-to-out-params` they are the trailing ones.
- The launch configuration (`grid`, `block`, dynamic `shared_bytes`) is that of the
  `gpu.launch_func`; `grid` may be a function of the arguments for dynamic shapes.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from schedir.abi import DYNAMIC, ArgSpec, MemRefSpec, ScalarSpec
from schedir.diagnostics import InputError
from schedir.gpu.context import describe_launch
from schedir.gpu.memory import DeviceArray, is_device_array
from schedir.gpu.runtime import Dims, Kernel, ParamPack, dims3


def convert_scalar(what: str, spec: ScalarSpec, value: Any) -> np.ndarray:
    """`value` as a 0-d array of the scalar parameter's dtype; integers must fit exactly and
    floats are not truncated into integers (`what` names the argument in errors)."""
    if isinstance(value, np.ndarray) and value.ndim != 0:
        raise InputError(f"{what} must be a scalar, got an array of shape {value.shape}")
    try:
        array = np.asarray(value)
        if spec.dtype.kind in "iub":
            if array.dtype.kind not in "iub":
                raise InputError(f"{what} must be an integer or bool, got {array.dtype}")
            converted = array.astype(spec.dtype)
            if int(converted) != int(array):
                raise InputError(f"{what}: {value} does not fit in {spec.dtype}")
            return converted
        return array.astype(spec.dtype)
    except (TypeError, ValueError, OverflowError) as err:
        raise InputError(f"{what}: cannot convert {value!r} to {spec.dtype}: {err}") from None


GridFunction = Callable[[Sequence[Any]], Dims]
"""Computes the grid from the arguments: a shape tuple per memref, the value per scalar."""


def memref_params(array: DeviceArray, *, bare_pointer: bool = False) -> list[bytes]:
    """The kernel parameters of one memref argument (see the module doc's ABI)."""
    pointer = struct.pack("<Q", array.ptr)
    if bare_pointer:
        return [pointer]
    fields = [pointer, pointer, struct.pack("<q", 0)]
    fields += [struct.pack("<q", size) for size in array.shape]
    fields += [struct.pack("<q", stride) for stride in array.element_strides]
    return fields


def kernel_param_count(params: Sequence[ArgSpec], *, bare_pointers: bool = False) -> int:
    """How many kernel parameters `params` expand to."""
    count = 0
    for spec in params:
        if isinstance(spec, MemRefSpec):
            count += 1 if bare_pointers else 3 + 2 * spec.rank
        else:
            count += 1
    return count


@dataclass
class _Prepared:
    """One call's device arrays (by parameter), temporaries, and packed parameters."""

    arrays: list[DeviceArray | None] = field(default_factory=list)
    temporaries: list[DeviceArray] = field(default_factory=list)
    pack: ParamPack | None = None
    grid: tuple[int, int, int] = (1, 1, 1)

    def release(self, keep: Sequence[DeviceArray] = ()) -> None:
        for array in self.temporaries:
            if not any(array is k for k in keep):
                array.free()
        self.temporaries = [a for a in self.temporaries if any(a is k for k in keep)]


class GpuFunction:
    """A kernel with typed parameters and a launch configuration, callable on arrays."""

    def __init__(
        self,
        kernel: Kernel,
        params: Sequence[ArgSpec],
        *,
        grid: Dims | GridFunction,
        block: Dims,
        shared_bytes: int = 0,
        outputs: Sequence[int] = (),
        arg_names: Sequence[str] | None = None,
        bare_pointers: bool = False,
    ) -> None:
        self.kernel = kernel
        self.params = tuple(params)
        self.grid = grid if callable(grid) else dims3(grid, "grid")
        self.block = dims3(block, "block")
        self.shared_bytes = shared_bytes
        self.outputs = tuple(outputs)
        self.bare_pointers = bare_pointers
        self.arg_names = tuple(arg_names) if arg_names is not None else None
        if self.arg_names is not None and len(self.arg_names) != len(self.params):
            raise ValueError("arg_names must name every parameter")
        for index in self.outputs:
            if not 0 <= index < len(self.params) or not isinstance(self.params[index], MemRefSpec):
                raise ValueError(f"output #{index} is not a memref parameter")
        if bare_pointers:
            for index, spec in enumerate(self.params):
                if isinstance(spec, MemRefSpec) and not spec.is_static:
                    raise ValueError(
                        f"parameter #{index} has a dynamic shape; bare pointers need static shapes"
                    )

    @property
    def name(self) -> str:
        return self.kernel.name

    @property
    def context(self) -> Any:
        return self.kernel.context

    # -- arguments ---------------------------------------------------------------------

    def _label(self, index: int) -> str:
        if self.arg_names is not None:
            return f"argument #{index} ('{self.arg_names[index]}')"
        return f"argument #{index}"

    def _check_array(
        self, index: int, spec: MemRefSpec, dtype: np.dtype, shape: tuple[int, ...]
    ) -> None:
        label = self._label(index)
        if dtype != spec.dtype:
            raise InputError(f"{label} of {self.name} has dtype {dtype}, expected {spec.dtype}")
        if len(shape) != spec.rank:
            raise InputError(f"{label} of {self.name} has rank {len(shape)}, expected {spec.rank}")
        for dim, (actual, expected) in enumerate(zip(shape, spec.shape, strict=True)):
            if expected != DYNAMIC and actual != expected:
                raise InputError(
                    f"{label} of {self.name} has shape {shape}, expected {_shape_text(spec.shape)} "
                    f"(dimension {dim} is {actual}, not {expected})"
                )

    def _memref(
        self, index: int, spec: MemRefSpec, value: Any, stream: Any, prepared: _Prepared
    ) -> DeviceArray:
        label = self._label(index)
        if isinstance(value, np.ndarray):
            self._check_array(index, spec, value.dtype, value.shape)
            array = DeviceArray.from_numpy(value, self.context)
            prepared.temporaries.append(array)
            return array
        if not is_device_array(value):
            raise InputError(
                f"{label} of {self.name} must be a numpy array or a device array, got "
                f"{type(value).__name__}"
            )
        array = DeviceArray.adopt(value, self.context, stream=stream)
        self._check_array(index, spec, array.dtype, array.shape)
        if not array.is_c_contiguous:
            raise InputError(
                f"{label} of {self.name} is a strided device array (strides {array.strides} "
                "bytes); the kernel expects a C-contiguous one (e.g. .contiguous())"
            )
        if index in self.outputs and array.readonly:
            raise InputError(
                f"{label} of {self.name} is an output but its device array is read-only"
            )
        return array

    def _scalar(self, index: int, spec: ScalarSpec, value: Any) -> bytes:
        return convert_scalar(f"{self._label(index)} of {self.name}", spec, value).tobytes()

    def _prepare(self, args: Sequence[Any], stream: Any) -> _Prepared:
        if len(args) != len(self.params):
            raise InputError(f"{self.name} takes {len(self.params)} arguments, got {len(args)}")
        prepared = _Prepared()
        values: list[bytes] = []
        grid_args: list[Any] = []
        try:
            for index, (spec, value) in enumerate(zip(self.params, args, strict=True)):
                if isinstance(spec, MemRefSpec):
                    array = self._memref(index, spec, value, stream, prepared)
                    prepared.arrays.append(array)
                    values += memref_params(array, bare_pointer=self.bare_pointers)
                    grid_args.append(array.shape)
                else:
                    prepared.arrays.append(None)
                    values.append(self._scalar(index, spec, value))
                    grid_args.append(value)
            prepared.grid = (
                dims3(self.grid(grid_args), "grid") if callable(self.grid) else self.grid
            )
            prepared.pack = ParamPack(values, [a for a in prepared.arrays if a is not None])
        except BaseException:
            prepared.release()
            raise
        return prepared

    def _launch(self, prepared: _Prepared, stream: Any) -> None:
        assert prepared.pack is not None
        self.kernel.launch_packed(
            prepared.grid, self.block, prepared.pack, self.shared_bytes, stream
        )

    def describe(self, grid: tuple[int, int, int] | None = None) -> str:
        """`kernel 'k' (grid ..., block ..., N bytes of dynamic shared memory)`."""
        grid = (
            grid if grid is not None else (self.grid if isinstance(self.grid, tuple) else (0, 0, 0))
        )
        return describe_launch(self.name, grid, self.block, self.shared_bytes)

    # -- calls -------------------------------------------------------------------------

    def __call__(self, *args: Any, stream: Any = None) -> list[np.ndarray]:
        """Launch on `args` and wait; the outputs as new numpy arrays."""
        prepared = self._prepare(args, stream)
        try:
            self._launch(prepared, stream)
            self.context.synchronize(stream, during=f"running {self.describe(prepared.grid)}")
            results: list[np.ndarray] = []
            for index in self.outputs:
                array = prepared.arrays[index]
                assert array is not None
                results.append(array.to_numpy())
            return results
        finally:
            prepared.release()

    def run(self, *args: Any, stream: Any = None) -> list[DeviceArray]:
        """Launch on `args` and wait; the outputs stay on the device.

        An output given as a device array is returned as (a view of) that array; one given
        as a numpy array comes back as a new `DeviceArray` that owns its memory.
        """
        prepared = self._prepare(args, stream)
        outputs: list[DeviceArray] = []
        try:
            self._launch(prepared, stream)
            self.context.synchronize(stream, during=f"running {self.describe(prepared.grid)}")
            for index in self.outputs:
                array = prepared.arrays[index]
                assert array is not None
                outputs.append(array)
            return outputs
        finally:
            prepared.release(keep=outputs)

    def bind(self, *args: Any, stream: Any = None) -> BoundLaunch:
        """Upload `args` once; the result launches without waiting (for timing)."""
        return BoundLaunch(self, self._prepare(args, stream), stream)


class BoundLaunch:
    """A `GpuFunction` with its arguments on the device: each call queues one launch."""

    def __init__(self, function: GpuFunction, prepared: _Prepared, stream: Any) -> None:
        self.function = function
        self._prepared = prepared
        self.stream = stream

    def __call__(self) -> None:
        self.function._launch(self._prepared, self.stream)

    @property
    def outputs(self) -> list[DeviceArray]:
        """The output device arrays (valid until `close`)."""
        arrays = [self._prepared.arrays[i] for i in self.function.outputs]
        return [a for a in arrays if a is not None]

    def results(self) -> list[np.ndarray]:
        """Wait for queued launches; the outputs as new numpy arrays."""
        self.function.context.synchronize(
            self.stream, during=f"running {self.function.describe(self._prepared.grid)}"
        )
        return [a.to_numpy() for a in self.outputs]

    def close(self) -> None:
        """Free the device copies of numpy arguments."""
        self._prepared.release()

    def __enter__(self) -> BoundLaunch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _shape_text(shape: Sequence[int]) -> str:
    return "(" + ", ".join("?" if s == DYNAMIC else str(s) for s in shape) + ")"


__all__ = [
    "BoundLaunch",
    "GpuFunction",
    "GridFunction",
    "convert_scalar",
    "kernel_param_count",
    "memref_params",
]
