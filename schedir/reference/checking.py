"""Comparing results with the reference, and the inputs checks run on.

Tolerance. A float result passes where, elementwise,

    |actual - expected| <= atol + rtol * |expected|,   atol = atol_scale * max(|expected|)

with `(rtol, atol_scale) = tolerance(dtype, K)`: rtol = base(dtype) * sqrt(max(K, 1)) and
atol_scale = rtol. The base is DESIGN.md's: f64 1e-12, f32 1e-5, f16 1e-3, bf16 1.6e-2. K is
the reduction length (`reduction_length`): rounding errors of a K-term sum grow like
sqrt(K) ulps in practice. The absolute term is relative to the largest expected magnitude,
so an element that cancels to almost zero (whose rounding error is that of its large
terms, not of its small value) does not fail spuriously. Integers and booleans must match
exactly. NaN in the actual result never passes; NaN or inf in the expected result fails
too, as a broken check (the payload read uninitialized data or overflowed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, ShapedType

from schedir.abi import DYNAMIC, ArgSpec, EntrySignature
from schedir.diagnostics import InputError
from schedir.dialects.types import find_entry
from schedir.reference.linalg import structured_spec
from schedir.reference.structured import loop_extents
from schedir.reference.values import POISON_PATTERN, Elem, from_python

_BASE_RTOL = {
    np.dtype(np.float64): 1e-12,
    np.dtype(np.float32): 1e-5,
    np.dtype(np.float16): 1e-3,
    np.dtype(ml_dtypes.bfloat16): 1.6e-2,
}

DEFAULT_DYNAMIC_SIZE = 13
"""The size random_inputs gives a dynamic dimension when not told otherwise (odd on purpose)."""

DYNAMIC_REDUCTION_EXTENT = 1024
"""The extent `reduction_length` assumes for a reduction loop of dynamic size (conservative)."""


def _is_float(dtype: np.dtype) -> bool:
    """Whether `dtype` is a float type with a tolerance."""
    return dtype in _BASE_RTOL


def tolerance(dtype: np.dtype | type, reduction_length: int = 1) -> tuple[float, float]:
    """`(rtol, atol_scale)` for results of `dtype` reduced over `reduction_length` terms.

    rtol = base * sqrt(max(K, 1)) with base 1e-12 (f64), 1e-5 (f32), 1e-3 (f16), 1.6e-2
    (bf16); atol_scale = rtol, applied to max(|expected|) (see the module docstring).
    Integers and booleans are exact: (0.0, 0.0).
    """
    dtype = np.dtype(dtype)
    base = _BASE_RTOL.get(dtype)
    if base is None:
        return 0.0, 0.0
    rtol = base * math.sqrt(max(int(reduction_length), 1))
    return rtol, rtol


@dataclass(frozen=True)
class CheckResult:
    """The outcome of `compare`: whether it passed, the error sizes, and what failed first."""

    ok: bool
    max_abs_err: float
    max_rel_err: float
    num_mismatches: int
    first_mismatch: tuple[int, ...] | None
    message: str


def _failed(message: str, mismatches: int = 0) -> CheckResult:
    """A failed CheckResult that compared nothing."""
    return CheckResult(False, math.inf, math.inf, mismatches, None, message)


def compare(
    actual: Any, expected: Any, dtype: np.dtype | type, reduction_length: int = 1
) -> CheckResult:
    """Compare a computed result with the reference's expected one.

    `actual` must have the declared `dtype`; `expected` is what `evaluate` returned (float64
    for float results, `dtype` for integers). Floats pass within `tolerance(dtype,
    reduction_length)` (see the module docstring); integers and booleans must be equal.
    A shape or dtype mismatch, NaN anywhere in `actual`, or NaN/inf in `expected` fails.
    """
    dtype = np.dtype(dtype)
    actual_arr, expected_arr = np.asarray(actual), np.asarray(expected)
    if actual_arr.dtype != dtype:
        return _failed(f"actual result has dtype {actual_arr.dtype}, expected {dtype}")
    if actual_arr.shape != expected_arr.shape:
        return _failed(f"actual result has shape {actual_arr.shape}, expected {expected_arr.shape}")
    is_float = _is_float(dtype)
    if (
        is_float
        and expected_arr.dtype.kind != "f"
        and expected_arr.dtype != np.dtype(ml_dtypes.bfloat16)
    ):
        return _failed(
            f"check setup: expected result has dtype {expected_arr.dtype} for a {dtype} result"
        )
    if not is_float and expected_arr.dtype.kind not in "iub":
        return _failed(
            f"check setup: expected result has dtype {expected_arr.dtype} for a {dtype} result"
        )
    if actual_arr.size == 0:
        return CheckResult(True, 0.0, 0.0, 0, None, "ok (empty)")
    if not is_float:
        return _compare_exact(actual_arr, expected_arr)
    a = actual_arr.astype(np.float64)
    e = expected_arr.astype(np.float64)
    bad_expected = ~np.isfinite(e)
    if bad_expected.any():
        count = int(bad_expected.sum())
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad_expected)), e.shape))
        return CheckResult(
            False, math.inf, math.inf, count, where,
            f"check setup: the reference result has {count} NaN/inf value(s), first at {where} "
            "(the payload reads uninitialized data, or overflows); nothing was compared",
        )  # fmt: skip
    rtol, atol_scale = tolerance(dtype, reduction_length)
    atol = atol_scale * float(np.max(np.abs(e)))
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a - e)
        allowed = atol + rtol * np.abs(e)
        bad = ~(diff <= allowed)  # NaN in actual compares False: a mismatch
        rel = np.where(
            e != 0, diff / np.where(e != 0, np.abs(e), 1.0), np.where(diff == 0, 0.0, np.inf)
        )
    max_abs = float(np.nanmax(np.where(np.isnan(diff), np.inf, diff)))
    max_rel = float(np.max(np.where(np.isnan(rel), np.inf, rel)))
    count = int(bad.sum())
    if not count:
        return CheckResult(
            True, max_abs, max_rel, 0, None, f"ok (rtol={rtol:.3g}, atol={atol:.3g})"
        )
    first = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad)), e.shape))
    nans = int(np.isnan(a).sum())
    message = (
        f"{count} of {e.size} elements differ; first at {first}: got {float(a[first]):.9g}, expected {float(e[first]):.9g} "
        f"(rtol={rtol:.3g}, atol={atol:.3g})"
    )
    if nans:
        message += f"; {nans} NaN value(s) in the actual result"
    return CheckResult(False, max_abs, max_rel, count, first, message)


def _compare_exact(actual: np.ndarray, expected: np.ndarray) -> CheckResult:
    """Exact comparison of integers and booleans."""
    a = actual.astype(np.int64)
    e = expected.astype(np.int64)
    bad = a != e
    diff = np.abs(a.astype(np.float64) - e.astype(np.float64))
    rel = np.where(
        e != 0,
        diff / np.where(e != 0, np.abs(e.astype(np.float64)), 1.0),
        np.where(diff == 0, 0.0, np.inf),
    )
    max_abs, max_rel = float(diff.max()), float(rel.max())
    count = int(bad.sum())
    if not count:
        return CheckResult(True, max_abs, max_rel, 0, None, "ok (exact)")
    first = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad)), e.shape))
    return CheckResult(
        False, max_abs, max_rel, count, first,
        f"{count} of {e.size} elements differ; first at {first}: got {a[first]}, expected {e[first]} (exact)",
    )  # fmt: skip


def reduction_length(module: ModuleOp, entry: str | None = None) -> int:
    """The largest product of reduction-loop extents of any linalg op the entry runs.

    Covers the entry function and the functions it calls. A reduction loop of dynamic
    extent counts as DYNAMIC_REDUCTION_EXTENT (1024), which only loosens tolerances. 1 when
    nothing reduces.
    """
    fn = find_entry(module, entry)
    functions = {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)}
    seen: set[str] = set()
    todo = [fn]
    best = 1
    while todo:
        current = todo.pop()
        if current.sym_name.data in seen:
            continue
        seen.add(current.sym_name.data)
        for op in current.walk():
            if isinstance(op, func.CallOp):
                name = op.callee.root_reference.data
                if name in functions:
                    todo.append(functions[name])
            spec = structured_spec(op)
            if spec is None:
                continue
            maps, reduction = spec
            if not any(reduction):
                continue
            shapes = [
                tuple(DYNAMIC_REDUCTION_EXTENT if d < 0 else d for d in v.type.get_shape())
                if isinstance(v.type, ShapedType)
                else None
                for v in op.operands[: len(maps)]
            ]
            try:
                extents = loop_extents(op, shapes, maps)
            except Exception:
                continue
            best = max(best, math.prod(e for e, r in zip(extents, reduction, strict=True) if r))
    return best


def _sized(spec: ArgSpec, index: int, dynamic: list[int] | None) -> tuple[int, ...]:
    """The shape of `spec` with dynamic dims taken from `dynamic` (consumed in order)."""
    assert spec.shape is not None
    shape = []
    for d in spec.shape:
        if d != DYNAMIC:
            shape.append(d)
        elif dynamic is None:
            shape.append(DEFAULT_DYNAMIC_SIZE)
        elif not dynamic:
            raise InputError(f"argument {index} ({spec.mlir_type}): not enough dynamic sizes given")
        else:
            shape.append(int(dynamic.pop(0)))
    return tuple(shape)


def random_inputs(
    signature: EntrySignature, seed: int, dynamic_sizes: int | Sequence[int] | None = None
) -> list[np.ndarray]:
    """Seeded random arguments for `signature`, in its argument order.

    Floats are uniform in [-1, 1], rounded to the declared type, never exactly zero;
    integers are in [-8, 8] without zero (index scalars in [1, 8], as they are often
    sizes or offsets); i1 is random. A dynamic dim takes its size from `dynamic_sizes`: one
    int for all of them, or a sequence consumed in argument order; by default 13. Scalars
    come back as 0-d arrays.
    """
    rng = np.random.default_rng(seed)
    dynamic: list[int] | None
    if dynamic_sizes is None:
        dynamic = None
    elif isinstance(dynamic_sizes, int):
        dynamic = [dynamic_sizes] * sum(
            1 for a in signature.args if a.shape for d in a.shape if d == DYNAMIC
        )
    else:
        dynamic = [int(v) for v in dynamic_sizes]
    out = []
    for index, spec in enumerate(signature.args):
        shape = () if spec.shape is None else _sized(spec, index, dynamic)
        out.append(_random_array(rng, spec, shape))
    return out


def _random_array(rng: np.random.Generator, spec: ArgSpec, shape: tuple[int, ...]) -> np.ndarray:
    """One random argument of `spec` with `shape`."""
    dtype = spec.dtype
    if _is_float(dtype):
        values = rng.uniform(-1.0, 1.0, shape).astype(dtype)
        # A zero rounded from a tiny draw would hide a missing multiply or a dropped term.
        values[values == 0] = dtype.type(0.5)
        return np.asarray(values)
    if dtype == np.dtype(np.bool_):
        return np.asarray(rng.integers(0, 2, shape).astype(np.bool_))
    if spec.shape is None and spec.mlir_type == "index":
        return np.asarray(rng.integers(1, 9, shape), dtype=dtype)
    magnitude = rng.integers(1, 9, shape)
    sign = np.where(rng.integers(0, 2, shape) == 1, 1, -1)
    return np.asarray(magnitude * sign, dtype=dtype)


def nan_filled(spec: ArgSpec) -> np.ndarray:
    """A result buffer for `spec` filled with NaN (integers: the 0xDEADBEEF pattern)."""
    if spec.shape is not None and DYNAMIC in spec.shape:
        raise InputError(f"cannot allocate a result of dynamic type {spec.mlir_type}")
    shape = () if spec.shape is None else spec.shape
    if _is_float(spec.dtype):
        return np.full(shape, np.nan, dtype=spec.dtype)
    if spec.dtype == np.dtype(np.bool_):
        return np.ones(shape, dtype=np.bool_)
    width = spec.dtype.itemsize * 8
    return np.full(
        shape,
        from_python(POISON_PATTERN, Elem("int", width, spec.dtype, spec.mlir_type)),
        dtype=spec.dtype,
    )


__all__ = [
    "DEFAULT_DYNAMIC_SIZE",
    "DYNAMIC_REDUCTION_EXTENT",
    "CheckResult",
    "compare",
    "nan_filled",
    "random_inputs",
    "reduction_length",
    "tolerance",
]
