"""How the reference evaluator holds payload values, and the numerics of each element type.

Every float is held as float64 whatever its declared type, so a payload is evaluated more
precisely than any target runs it; only ops that change precision (`arith.truncf`, casts to a
narrower float) round, to nearest even, exactly as the hardware does. Integers are held in
their declared width (i8/i16/i32/i64, index as i64, i1 as bool) and every operation wraps
around in two's complement at that width.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute

from schedir.diagnostics import UnsupportedError

FLOAT64 = np.dtype(np.float64)


@dataclass(frozen=True)
class Elem:
    """An element type as the evaluator sees it.

    `kind` is "float" or "int"; `width` the bit width (64 for index); `declared` the numpy
    dtype of the type itself (what inputs and integer results use); `storage` the dtype
    values are held in while evaluating (float64 for every float type).
    """

    kind: str
    width: int
    declared: np.dtype
    name: str

    @property
    def storage(self) -> np.dtype:
        return FLOAT64 if self.kind == "float" else self.declared

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_bool(self) -> bool:
        return self.kind == "int" and self.width == 1


_FLOATS: dict[type, tuple[int, Any]] = {
    Float16Type: (16, np.float16),
    BFloat16Type: (16, ml_dtypes.bfloat16),
    Float32Type: (32, np.float32),
    Float64Type: (64, np.float64),
}
_INTS = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def elem_of(t: Attribute) -> Elem:
    """The `Elem` of a scalar type or of the element type of a tensor or memref type."""
    if isinstance(t, TensorType | MemRefType):
        t = t.get_element_type()
    for cls, (width, dtype) in _FLOATS.items():
        if isinstance(t, cls):
            return Elem("float", width, np.dtype(dtype), str(t))
    if isinstance(t, IndexType):
        return Elem("int", 64, np.dtype(np.int64), "index")
    if isinstance(t, IntegerType) and t.width.data in _INTS:
        return Elem("int", t.width.data, np.dtype(_INTS[t.width.data]), str(t))
    raise UnsupportedError(f"the reference evaluator does not support element type {t}")


def round_float(x: Any, elem: Elem) -> np.ndarray:
    """Round float64 values to the precision and range of `elem`, to nearest even."""
    x = np.asarray(x, dtype=FLOAT64)
    if elem.width == 64:
        return x
    if elem.declared == np.dtype(ml_dtypes.bfloat16):
        return round_bf16(x)
    # numpy converts float64 to float32 and float16 directly, correctly rounded.
    with np.errstate(over="ignore"):
        return x.astype(elem.declared).astype(FLOAT64)


_BF16_MAX = float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)


def round_bf16(x: np.ndarray) -> np.ndarray:
    """Round float64 to bfloat16 precision directly (ml_dtypes rounds through float32 first).

    bfloat16 keeps 8 significant bits and float32's exponent range; rounding to a multiple
    of the value's quantum with `rint` (ties to even) is exact because the quantum is a power
    of two.
    """
    x = np.asarray(x, dtype=FLOAT64)
    finite = np.isfinite(x)
    safe = np.where(finite, x, 0.0)
    _, exp = np.frexp(safe)
    # frexp gives |x| = m * 2**exp with 0.5 <= m < 1; a normal bf16 at that binade has its
    # last bit at 2**(exp - 8). Below the normal range the quantum stays at 2**-133.
    quantum = np.ldexp(1.0, np.maximum(exp, -125) - 8)
    rounded = np.rint(safe / quantum) * quantum
    rounded = np.where(np.abs(rounded) > _BF16_MAX, np.copysign(np.inf, safe), rounded)
    return np.where(finite, rounded, x)


def signed(x: Any, elem: Elem) -> np.ndarray:
    """Integer values as int64, read as signed (i1 true is -1)."""
    x = np.asarray(x)
    if elem.is_bool:
        return -(x.astype(np.int64))
    return x.astype(np.int64)


def unsigned(x: Any, elem: Elem) -> np.ndarray:
    """Integer values as uint64, read as unsigned."""
    x = np.asarray(x)
    if elem.is_bool:
        return x.astype(np.uint64)
    if elem.width == 64:
        return x.astype(np.int64).astype(np.uint64)
    return (x.astype(np.int64) & ((1 << elem.width) - 1)).astype(np.uint64)


def wrap(y: Any, elem: Elem) -> np.ndarray:
    """Integer values (int64 or uint64) wrapped to `elem`'s width, in its storage dtype."""
    y = np.asarray(y)
    if elem.is_bool:
        return (y & 1).astype(np.bool_)
    # C casts between integer types keep the low bits: two's-complement wraparound.
    return y.astype(elem.declared)


def to_storage(value: Any, elem: Elem) -> np.ndarray:
    """An input array (or scalar) of `elem`'s declared type as a fresh storage array."""
    if elem.is_float:
        return np.array(value, dtype=FLOAT64)
    return np.array(value, dtype=elem.declared)


def from_python(value: int | float | bool, elem: Elem) -> np.ndarray:
    """A Python number (an attribute's value) as a 0-d storage array of `elem`."""
    if elem.is_float:
        return round_float(float(value), elem)
    if elem.is_bool:
        return np.array(bool(value))
    mask = (1 << elem.width) - 1
    raw = int(value) & mask
    if raw >> (elem.width - 1):
        raw -= 1 << elem.width
    return np.array(raw, dtype=elem.declared)


POISON_PATTERN = 0xDEADBEEFDEADBEEF
"""What uninitialized integers hold: a pattern no test data produces by chance."""


def poison(shape: tuple[int, ...], elem: Elem) -> np.ndarray:
    """Uninitialized contents: NaN for floats, a 0xDEADBEEF pattern for integers."""
    if elem.is_float:
        return np.full(shape, np.nan)
    if elem.is_bool:
        return np.ones(shape, dtype=np.bool_)
    return np.full(shape, from_python(POISON_PATTERN, elem), dtype=elem.declared)


def storage_of(value: Any, elem: Elem) -> np.ndarray:
    """A computed value coerced to `elem`'s storage dtype (values are already exact); a
    bounded float (value + i * error bound, see `bounds`) stays bounded."""
    value = np.asarray(value)
    if value.dtype == elem.storage or (elem.is_float and value.dtype.kind == "c"):
        return value
    if elem.is_float:
        return value.astype(FLOAT64)
    return wrap(value.astype(np.int64) if value.dtype.kind in "iub" else value, elem)


__all__ = [
    "FLOAT64",
    "POISON_PATTERN",
    "Elem",
    "elem_of",
    "from_python",
    "poison",
    "round_bf16",
    "round_float",
    "signed",
    "storage_of",
    "to_storage",
    "unsigned",
    "wrap",
]
