"""The calling convention of a compiled entry function, seen from Python.

An entry function takes and returns memrefs (the payload's tensors, once bufferized) and
scalars. `MemRefSpec` and `ScalarSpec` describe one of each; `ArgSpec` is either; an
`EntrySignature` lists them for the entry. `schedir.dialects.types` makes them from payload
types; the CPU runtime (`schedir.cpu`), the CUDA runtime (`schedir.gpu`) and the reference
(`schedir.reference`) read them.

- A memref is passed as upstream MLIR's descriptor (`schedir.cpu.runtime`,
  `schedir.gpu.function` describe the layouts); its `shape` has `DYNAMIC` for `?`.
- Statically shaped memref results are out-parameters (`buffer-results-to-out-params`):
  the caller allocates them and passes them after the arguments. Other results (dynamically
  shaped memrefs, scalars) are returned by the function.
- Element types are the numpy dtypes of `DTYPES`: float16, bfloat16 (ml_dtypes), float32,
  float64, int8/16/32/64, uint8/16/32/64 and bool (MLIR `i1`, one byte); MLIR `index` is
  int64.
- Scalars are checked by `scalar_value`, the one rule every runtime and the reference use:
  a value out of its type's range is rejected, never wrapped (an `i8` of 300 is an error,
  not 44), an integer parameter takes no float, a float parameter no value that overflows
  it; diagnostics name the argument (`argument_label`).

A leaf module: numpy, ml_dtypes and `schedir.diagnostics` only, no xDSL.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeGuard

import ml_dtypes
import numpy as np
from numpy.typing import DTypeLike

from schedir.diagnostics import InputError

DYNAMIC = -1
"""A dynamic size in `MemRefSpec.shape` (MLIR's `?`)."""

DTYPES: frozenset[np.dtype] = frozenset(
    np.dtype(t)
    for t in (
        np.float16,
        ml_dtypes.bfloat16,
        np.float32,
        np.float64,
        np.int8,
        np.int16,
        np.int32,
        np.int64,
        np.uint8,
        np.uint16,
        np.uint32,
        np.uint64,
        np.bool_,
    )
)
"""The element types an argument or result may have."""


def checked_dtype(value: DTypeLike) -> np.dtype:
    """`value` as a numpy dtype of `DTYPES`; InputError otherwise."""
    dtype = np.dtype(value)
    if dtype not in DTYPES:
        raise InputError(f"dtype {dtype} is not supported by the CPU or GPU runtime")
    return dtype


@dataclass(frozen=True, init=False)
class MemRefSpec:
    """A memref argument or result (a tensor in the payload): dtype and shape.

    `shape` holds `DYNAMIC` for a dynamic size; the constructor also takes None for one.
    `mlir_type` is the payload's type as written (`tensor<4x?xf32>`), for messages; `name`
    the argument's name in the payload (`%A`), when known.
    """

    dtype: np.dtype
    shape: tuple[int, ...]
    mlir_type: str
    name: str

    def __init__(
        self,
        dtype: DTypeLike,
        shape: Iterable[int | None],
        mlir_type: str = "",
        name: str = "",
    ) -> None:
        # A frozen dataclass sets its fields through object.__setattr__.
        object.__setattr__(self, "dtype", checked_dtype(dtype))
        object.__setattr__(self, "shape", tuple(DYNAMIC if d is None else d for d in shape))
        object.__setattr__(self, "mlir_type", mlir_type)
        object.__setattr__(self, "name", name)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return DYNAMIC not in self.shape


@dataclass(frozen=True, init=False)
class ScalarSpec:
    """A scalar argument or result (index = int64, i1 = bool); `name` as for MemRefSpec."""

    dtype: np.dtype
    mlir_type: str
    name: str

    def __init__(self, dtype: DTypeLike, mlir_type: str = "", name: str = "") -> None:
        object.__setattr__(self, "dtype", checked_dtype(dtype))
        object.__setattr__(self, "mlir_type", mlir_type)
        object.__setattr__(self, "name", name)

    @property
    def shape(self) -> None:
        """None: a scalar has no shape (`spec.shape is None` tells a scalar from a memref)."""
        return None

    @property
    def is_static(self) -> bool:
        return True


ArgSpec: TypeAlias = MemRefSpec | ScalarSpec
"""One argument or result of an entry function."""


def argument_label(index: int, spec: ArgSpec) -> str:
    """How diagnostics name an argument: `argument 1 (%n: i8)`, or without the name."""
    return f"argument {index} ({argument_type(spec)})"


def argument_type(spec: ArgSpec) -> str:
    """An argument's name and type for messages: `%n: i8`, or the type alone."""
    kind = spec.mlir_type or str(spec.dtype)
    return f"{spec.name}: {kind}" if spec.name else kind


def scalar_value(index: int, spec: ScalarSpec, value: Any) -> np.ndarray:
    """`value` as a 0-d array of `spec`'s dtype, exactly; InputError naming the argument if
    it is not a scalar, not a number of the parameter's kind, or out of its type's range.

    Integers (and `index`) take Python or numpy integers and bools whose value fits the
    type: never wrapped. `i1` takes bools, 0 and 1. Floats take Python or numpy numbers
    (integers only when the float holds them exactly) that do not overflow the type.
    """
    label = argument_label(index, spec)
    if isinstance(value, np.ndarray) and value.ndim != 0:
        raise InputError(f"{label} must be a scalar, got an array of shape {value.shape}")
    dtype = spec.dtype
    if isinstance(value, np.generic) and not isinstance(value, np.bool_):
        value = np.asarray(value)  # numpy and ml_dtypes scalars (bfloat16) as 0-d arrays
    exact: int | float | bool
    if isinstance(value, bool | np.bool_):
        exact = bool(value)
    elif isinstance(value, int | np.integer) or (
        isinstance(value, np.ndarray) and value.dtype.kind in "iub"
    ):
        exact = int(value)
    elif isinstance(value, float | np.floating) or (
        isinstance(value, np.ndarray) and value.dtype in DTYPES and value.dtype.kind in "fV"
    ):
        exact = float(value)
    else:
        raise InputError(f"{label} must be a number, got {type(value).__name__}")
    if dtype == np.dtype(np.bool_):
        if isinstance(exact, float) or exact not in (0, 1):
            raise InputError(f"{label} must be a bool (or 0 or 1), got {value!r}")
        return np.asarray(bool(exact))
    if dtype.kind in "iu":
        if isinstance(exact, float):
            raise InputError(f"{label} must be an integer, got the float {value!r}")
        info = np.iinfo(dtype)
        if not info.min <= int(exact) <= info.max:
            raise InputError(
                f"{label}: {int(exact)} is out of range for {spec.mlir_type or dtype} "
                f"[{info.min}, {info.max}]"
            )
        return np.asarray(int(exact), dtype=dtype)
    with np.errstate(over="ignore"):
        converted = np.asarray(exact, dtype=dtype)
    as_float = float(converted)
    if isinstance(exact, float) and np.isfinite(exact) and not np.isfinite(as_float):
        raise InputError(f"{label}: {exact!r} overflows {spec.mlir_type or dtype}")
    if not isinstance(exact, float) and (not np.isfinite(as_float) or int(as_float) != exact):
        raise InputError(f"{label}: the integer {exact} is not exactly a {spec.mlir_type or dtype}")
    return converted


def is_out_param(spec: ArgSpec) -> TypeGuard[MemRefSpec]:
    """Whether a result is a caller-allocated out-parameter (a statically shaped memref)."""
    return isinstance(spec, MemRefSpec) and spec.is_static


@dataclass(frozen=True)
class EntrySignature:
    """Name, argument and result specs of the function a kernel runs."""

    name: str
    args: tuple[ArgSpec, ...]
    results: tuple[ArgSpec, ...]

    @property
    def out_params(self) -> tuple[MemRefSpec, ...]:
        """The results passed as out-parameters, in order (after the arguments)."""
        return tuple(r for r in self.results if is_out_param(r))


__all__ = [
    "DTYPES",
    "DYNAMIC",
    "ArgSpec",
    "EntrySignature",
    "MemRefSpec",
    "ScalarSpec",
    "argument_label",
    "argument_type",
    "checked_dtype",
    "is_out_param",
    "scalar_value",
]
