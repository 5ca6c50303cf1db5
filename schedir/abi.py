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

A leaf module: numpy, ml_dtypes and `schedir.diagnostics` only, no xDSL.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias, TypeGuard

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
    `mlir_type` is the payload's type as written (`tensor<4x?xf32>`), for messages.
    """

    dtype: np.dtype
    shape: tuple[int, ...]
    mlir_type: str

    def __init__(self, dtype: DTypeLike, shape: Iterable[int | None], mlir_type: str = "") -> None:
        # A frozen dataclass sets its fields through object.__setattr__.
        object.__setattr__(self, "dtype", checked_dtype(dtype))
        object.__setattr__(self, "shape", tuple(DYNAMIC if d is None else d for d in shape))
        object.__setattr__(self, "mlir_type", mlir_type)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return DYNAMIC not in self.shape


@dataclass(frozen=True, init=False)
class ScalarSpec:
    """A scalar argument or result (index = int64, i1 = bool)."""

    dtype: np.dtype
    mlir_type: str

    def __init__(self, dtype: DTypeLike, mlir_type: str = "") -> None:
        object.__setattr__(self, "dtype", checked_dtype(dtype))
        object.__setattr__(self, "mlir_type", mlir_type)

    @property
    def shape(self) -> None:
        """None: a scalar has no shape (`spec.shape is None` tells a scalar from a memref)."""
        return None

    @property
    def is_static(self) -> bool:
        return True


ArgSpec: TypeAlias = MemRefSpec | ScalarSpec
"""One argument or result of an entry function."""


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
    "checked_dtype",
    "is_out_param",
]
