"""Comparing results with the reference, and the inputs checks run on.

Tolerance (DESIGN.md, "Numerics"). A float result passes where, element by element,

    |actual_i - value_i| <= tol_i,   tol_i = SAFETY * E_i + tiny(dtype)

with `value_i` the reference's float64 value and `E_i` the forward error bound that
`evaluate_with_bounds` computes alongside it (`bounds`: from the unit roundoff of each op's
type, the length of every reduction and the magnitudes that entered that element), SAFETY
= 2 and tiny the smallest normal of the result dtype. Nothing is scaled by the largest
element of the result: an element whose magnitudes say it is not ~0 fails when zeroed,
whatever its neighbours hold. Integers and booleans must match exactly. NaN in the actual
result never passes (outputs are pre-filled with NaN before a checked run, so an element
nobody wrote never passes either); NaN or inf in the expected value fails as a broken check
(the payload read uninitialized data or overflowed). Where a bound is infinite (a divisor
not distinguishable from zero, a square root of a value that may be negative) nothing can
be said and any non-NaN value passes; the result counts such elements. Where the bound
reaches past the largest finite value of the result dtype (|value_i| + tol_i > max), the
result may round to an infinity: an infinity of value_i's sign passes there (an f16 x**3
of x = -110 is -inf in f16, whatever its float64 value says).
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
from schedir.reference.bounds import SAFETY, tiny, unit_roundoff
from schedir.reference.linalg import structured_spec
from schedir.reference.structured import loop_extents
from schedir.reference.values import POISON_PATTERN, Elem, from_python

_FLOATS = frozenset(np.dtype(t) for t in (np.float64, np.float32, np.float16, ml_dtypes.bfloat16))

DEFAULT_DYNAMIC_SIZE = 13
"""The size random_inputs gives a dynamic dimension when not told otherwise (odd on purpose)."""

DYNAMIC_REDUCTION_EXTENT = 1024
"""The extent `reduction_length` assumes for a reduction loop of dynamic size (conservative)."""


def _is_float(dtype: np.dtype) -> bool:
    """Whether `dtype` is a float type with a tolerance."""
    return dtype in _FLOATS


def tolerance_floor(dtype: np.dtype | type) -> float:
    """The absolute part of every float tolerance: the smallest normal of `dtype` (0 for
    integers, which compare exactly)."""
    dtype = np.dtype(dtype)
    return tiny(dtype) if _is_float(dtype) else 0.0


@dataclass(frozen=True)
class Expected:
    """A reference result: its `value` (float64 for floats, else the declared dtype) and,
    for floats from `evaluate_with_bounds`, the forward `error` bound of each element
    (None: exact, or not computed); `dtype` is the result's declared dtype."""

    value: np.ndarray
    error: np.ndarray | None
    dtype: np.dtype


@dataclass(frozen=True)
class CheckResult:
    """The outcome of `compare`: whether it passed, the error sizes, the tolerance used
    (`max_tolerance`, the largest per-element tolerance; `rule`, how it was derived;
    `worst_ratio`, the largest error / tolerance; `unbounded`, elements with no finite
    bound) and what failed first."""

    ok: bool
    max_abs_err: float
    max_rel_err: float
    num_mismatches: int
    first_mismatch: tuple[int, ...] | None
    message: str
    max_tolerance: float = 0.0
    rule: str = "exact"
    worst_ratio: float = 0.0
    unbounded: int = 0

    def line(self, label: str = "") -> str:
        """The `--check` line: `check:[ label] OK|MISMATCH max_abs_err=.. max_rel_err=..
        tol=..` with the rule, and the failure on a mismatch."""
        status = "OK" if self.ok else "MISMATCH"
        head = f"check:{' ' + label if label else ''} {status}"
        text = (
            f"{head} max_abs_err={self.max_abs_err:.3g} max_rel_err={self.max_rel_err:.3g} "
            f"tol={self.max_tolerance:.3g} err/tol={self.worst_ratio:.3g} ({self.rule}"
        )
        if self.unbounded:
            text += f"; {self.unbounded} element(s) without a finite bound"
        text += ")"
        if not self.ok:
            text += f": {self.message}"
        return text


def _failed(message: str, mismatches: int = 0) -> CheckResult:
    """A failed CheckResult that compared nothing."""
    return CheckResult(False, math.inf, math.inf, mismatches, None, message)


def compare(actual: Any, expected: Expected | np.ndarray, dtype: np.dtype | type) -> CheckResult:
    """Compare a computed result with the reference's expected one.

    `actual` must have the declared `dtype`. `expected` is an `Expected` from
    `evaluate_with_bounds` (its value, and for floats its error bounds); integer and
    boolean results may also be given as the plain array `evaluate` returns. Floats pass
    element by element within SAFETY x bound + tiny(dtype) (see the module docstring);
    integers and booleans must be equal. A shape or dtype mismatch, NaN anywhere in
    `actual`, or NaN/inf in the expected value fails.
    """
    dtype = np.dtype(dtype)
    is_float = _is_float(dtype)
    if isinstance(expected, Expected):
        expected_arr, error = np.asarray(expected.value), expected.error
    else:
        expected_arr, error = np.asarray(expected), None
    if is_float and error is None:
        raise TypeError(
            f"compare needs the reference's error bounds for a {dtype} result: "
            "pass what schedir.reference.evaluate_with_bounds returns"
        )
    actual_arr = np.asarray(actual)
    if actual_arr.dtype != dtype:
        return _failed(f"actual result has dtype {actual_arr.dtype}, expected {dtype}")
    if actual_arr.shape != expected_arr.shape:
        return _failed(f"actual result has shape {actual_arr.shape}, expected {expected_arr.shape}")
    if is_float and expected_arr.dtype.kind != "f":
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
    assert error is not None
    return _compare_bounded(actual_arr, expected_arr, np.asarray(error), dtype)


def _compare_bounded(
    actual: np.ndarray, expected: np.ndarray, error: np.ndarray, dtype: np.dtype
) -> CheckResult:
    """Floats against per-element tolerances SAFETY * error + tiny(dtype)."""
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    floor = tiny(dtype)
    rule = (
        f"per element: {SAFETY:g} x forward error bound + {floor:.3g}, u={unit_roundoff(dtype):.3g}"
    )
    bad_expected = ~np.isfinite(e)
    if bad_expected.any():
        count = int(bad_expected.sum())
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad_expected)), e.shape))
        return CheckResult(
            False, math.inf, math.inf, count, where,
            f"check setup: the reference result has {count} NaN/inf value(s), first at {where} "
            "(the payload reads uninitialized data, or overflows); nothing was compared",
            rule=rule,
        )  # fmt: skip
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        tol = SAFETY * np.broadcast_to(error, e.shape) + floor
        # The rounding to the result type may overflow where the bound reaches past its
        # largest finite value: an infinity of the expected sign is that rounding.
        overflowed = np.isinf(a) & (np.sign(a) == np.sign(e)) & (np.abs(e) + tol > _largest(dtype))
        diff = np.where(overflowed, 0.0, np.abs(a - e))
        bad = ~(diff <= tol)  # NaN in actual compares False: a mismatch
        rel = np.where(
            e != 0, diff / np.where(e != 0, np.abs(e), 1.0), np.where(diff == 0, 0.0, np.inf)
        )
        ratio = np.where(np.isnan(diff), np.inf, diff / tol)
    finite_tol = tol[np.isfinite(tol)]
    unbounded = int(tol.size - finite_tol.size)
    max_tol = float(finite_tol.max()) if finite_tol.size else math.inf
    max_abs = float(np.max(np.where(np.isnan(diff), np.inf, diff)))
    max_rel = float(np.max(np.where(np.isnan(rel), np.inf, rel)))
    worst = float(np.max(np.where(np.isfinite(tol), ratio, 0.0)))
    count = int(bad.sum())
    if not count:
        return CheckResult(True, max_abs, max_rel, 0, None, "ok", max_tol, rule, worst, unbounded)
    first = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad)), e.shape))
    nans = int(np.isnan(a).sum())
    message = (
        f"{count} of {e.size} elements differ; first at {first}: got {float(a[first]):.9g}, "
        f"expected {float(e[first]):.9g}, tolerance {float(tol[first]):.3g}"
    )
    if nans:
        message += f"; {nans} NaN value(s) in the actual result (unwritten or invalid)"
    return CheckResult(
        False, max_abs, max_rel, count, first, message, max_tol, rule, worst, unbounded
    )


def _largest(dtype: np.dtype) -> float:
    """The largest finite value of a float dtype (ml_dtypes' for bfloat16)."""
    info = ml_dtypes.finfo(dtype) if dtype == np.dtype(ml_dtypes.bfloat16) else np.finfo(dtype)
    return float(info.max)


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
    "Expected",
    "compare",
    "nan_filled",
    "random_inputs",
    "reduction_length",
    "tolerance_floor",
]
