"""Forward error bounds: how far a correct computation in the payload's types may land from
the reference's float64 value, element by element.

The bounded evaluation (`schedir.reference.evaluate_with_bounds`) runs the payload once with
every float held as a pair: the float64 value as the reference computes it, and a bound E
on the absolute error that a target computing the same ops in the declared types (f32, f16,
...) may have accumulated at that element. The pair is one complex128 number, value + i*E,
so every op that only moves data (slices, inserts, reshapes, transposes, broadcasts, copies,
loops and their iter_args) carries the bound along unchanged; every op that computes floats
has a rule here.

The rules follow the standard model of floating-point arithmetic: a correctly rounded op
gives fl(x op y) = (x op y)(1 + d) + n with |d| <= u (the unit roundoff of the op's type:
2^-24 for f32, 2^-11 f16, 2^-8 bf16, 2^-53 f64) and |n| <= tiny (the smallest normal of the
type, which also covers flush-to-zero). With `rnd(v) = ulps * u * |v| + tiny`:

* inputs and constants are exact: E = 0 (constants are rounded to their type first);
* add / sub: E = Ea + Eb + rnd(v);
* mul: E = |a| Eb + |b| Ea + Ea Eb + rnd(v) (exact, not first-order);
* fma: E = |a| Eb + |b| Ea + Ea Eb + Ec + rnd(v) (one rounding);
* div: E = (Ea + |v| Eb) / (|b| - Eb) + rnd(v), infinite when |b| <= Eb (the divisor is
  not distinguishable from zero: nothing can be said there);
* maximum / minimum (all four kinds), abs, neg: max(Ea, Eb) resp. Ea, no rounding: they
  are 1-Lipschitz and exact;
* select: max(Et, Ef), so a relu or clamp whose condition flips inside the error bound of
  its operand stays covered (a select between values that differ by more than their bounds,
  on a condition within rounding of its threshold, is a step function and has no sound
  bound; the condition is taken from the reference values);
* monotone functions (exp, exp2, expm1, log*, sqrt, rsqrt, cbrt, tanh, sinh, asinh, atan,
  asin, acos, acosh, atanh, erf, ceil, floor, trunc, round, roundeven):
  max(|f(x + E) - f(x)|, |f(x - E) - f(x)|) is exact for a monotone f; a NaN there (the
  interval leaves the domain: sqrt or log of a value that may be negative) gives an infinite
  bound; then the function's own error `MATH_ULPS` ulps (libm and libdevice are within a few
  ulps; IEEE sqrt and the rounding functions within 1 resp. 0);
* sin, cos: min(E, 2) (1-Lipschitz, bounded); cosh: sinh(|x| + E) E; tan: the interval
  rule when no pole lies within E of x, else infinite;
* powf, fpowi, atan2, remf, copysign: the extremes over the corners of the operands'
  intervals (each is monotone in each operand on the pieces that matter), see the rules;
* reductions by an associative combine (linalg fast path: matmul, convolutions, generic
  sums): a sum of K terms in any order has error <= K u sum|terms| (Higham's gamma_K, first
  order), so E = sum E_terms + K (u sum|terms| + tiny) with K the full reduction length plus
  the initial value, whatever order (tiling, vectorization, split reductions) the schedule
  picks; products the same with the relative bound; max/min: max of the E;
* casts: extf exact; truncf and narrowing casts add 2 u_dst (|v| + E) + tiny_dst; int to
  float is exact relative to the reference, which rounds the same way.

A check then passes element i where |actual_i - value_i| <= SAFETY * E_i + tiny(dtype)
(`checking.compare`). Integer values are never bounded: integers compare exactly. Known
holes, documented rather than hidden: integers computed from inexact floats (fptosi,
comparisons driving integer results) are compared exactly against the reference's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import math
from xdsl.ir import Operation

from schedir.dialects import arith
from schedir.reference.values import FLOAT64, Elem

BOUNDED = np.dtype(np.complex128)
"""The dtype of a bounded float: value + 1j * error bound."""

SAFETY = 2.0
"""The factor a check applies to the bound (covers second-order terms and libm slack)."""

MATH_ULPS = 8.0
"""The error of a transcendental function, in ulps of its result (libm and libdevice: <= 4)."""

_UNIT_ROUNDOFF = {
    np.dtype(np.float64): 2.0**-53,
    np.dtype(np.float32): 2.0**-24,
    np.dtype(np.float16): 2.0**-11,
    np.dtype(ml_dtypes.bfloat16): 2.0**-8,
}
_TINY = {
    np.dtype(np.float64): float(np.finfo(np.float64).tiny),
    np.dtype(np.float32): float(np.finfo(np.float32).tiny),
    np.dtype(np.float16): float(np.finfo(np.float16).tiny),
    np.dtype(ml_dtypes.bfloat16): float(ml_dtypes.finfo(ml_dtypes.bfloat16).smallest_normal),
}


def unit_roundoff(dtype: Any) -> float:
    """u of a float dtype: half the distance from 1 to the next float (2^-24 for f32)."""
    return _UNIT_ROUNDOFF[np.dtype(dtype)]


def tiny(dtype: Any) -> float:
    """The smallest normal number of a float dtype (the absolute part of every rounding)."""
    return _TINY[np.dtype(dtype)]


def is_bounded(x: Any) -> bool:
    """Whether `x` is a bounded float (complex storage)."""
    return np.asarray(x).dtype == BOUNDED


def split(x: Any) -> tuple[np.ndarray, np.ndarray]:
    """(value, error bound) of a bounded float; a plain float or integer has bound 0."""
    x = np.asarray(x)
    if x.dtype == BOUNDED:
        return x.real, x.imag
    v = x.astype(FLOAT64)
    return v, np.zeros(v.shape)


def value(x: Any) -> np.ndarray:
    """The value of a bounded or plain float (what comparisons and casts read)."""
    x = np.asarray(x)
    return x.real if x.dtype == BOUNDED else x


def join(v: Any, e: Any) -> np.ndarray:
    """A bounded float from a value and a bound (set apart: 1j * inf would give a NaN value)."""
    v, e = np.asarray(v, dtype=FLOAT64), np.asarray(e, dtype=FLOAT64)
    out = np.empty(np.broadcast_shapes(v.shape, e.shape), dtype=BOUNDED)
    out.real = v
    # A NaN bound (inf - inf in a rule) means nothing is known there.
    out.imag = np.where(np.isnan(e), np.inf, e)
    return out


def bounded(x: Any) -> np.ndarray:
    """`x` as a bounded float (bound 0 when it had none)."""
    x = np.asarray(x)
    return x if x.dtype == BOUNDED else join(x, 0.0)


REFERENCE_ROUNDOFF = 2.0**-53
"""The reference's own rounding (it computes in float64): added to every op's, so that an
f64 payload, computed by the reference no more exactly than by the target, is covered."""


def _u(elem: Elem, ulps: float = 1.0) -> float:
    """The rounding of one op in `elem` by the target (`ulps` ulps) and by the reference."""
    return ulps * unit_roundoff(elem.declared) + REFERENCE_ROUNDOFF


def rounding(v: np.ndarray, elem: Elem, ulps: float = 1.0) -> np.ndarray:
    """The error of one rounding of `v` to `elem`: ulps * u * |v| + tiny (plus the
    reference's own float64 rounding)."""
    return _u(elem, ulps) * np.abs(v) + tiny(elem.declared)


# ---- binary ops ----------------------------------------------------------------------------

ValueFn2 = Callable[[Any, Any], np.ndarray]
BinaryRule = Callable[[ValueFn2, Any, Any, Elem], np.ndarray]


def _add(fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    (va, ea), (vb, eb) = split(a), split(b)
    v = fn(va, vb)
    return join(v, ea + eb + rounding(v, elem))


def _mul(fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    (va, ea), (vb, eb) = split(a), split(b)
    v = fn(va, vb)
    return join(v, np.abs(va) * eb + np.abs(vb) * ea + ea * eb + rounding(v, elem))


def _div(fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    (va, ea), (vb, eb) = split(a), split(b)
    v = fn(va, vb)
    room = np.abs(vb) - eb
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where(room > 0, (ea + np.abs(v) * eb) / np.where(room > 0, room, 1.0), np.inf)
    return join(v, e + rounding(v, elem))


def _lipschitz(fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    """max/min kinds: exact and 1-Lipschitz in each operand."""
    (va, ea), (vb, eb) = split(a), split(b)
    return join(fn(va, vb), np.maximum(ea, eb))


def _corners(fn: ValueFn2, a: Any, b: Any, elem: Elem, ulps: float) -> np.ndarray:
    """The largest deviation of fn over the corners of both intervals (and 0 for a when it
    straddles zero), plus the function's own error."""
    (va, ea), (vb, eb) = split(a), split(b)
    v = fn(va, vb)
    deviation = np.zeros(np.shape(v))
    a_candidates = [va - ea, va + ea, np.where((va - ea < 0) & (va + ea > 0), 0.0, va)]
    for ca in a_candidates:
        for cb in (vb - eb, vb + eb):
            deviation = np.fmax(deviation, np.abs(fn(ca, cb) - v))
            deviation = np.where(np.isnan(fn(ca, cb)) & ~np.isnan(v), np.inf, deviation)
    return join(v, deviation + rounding(v, elem, ulps))


def _pow(fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    return _corners(fn, a, b, elem, MATH_ULPS)


def _atan2(fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    """atan2(a, b): |grad| = 1 / r, so E <= (Ea + Eb) / (r - Ea - Eb); at most 2 pi."""
    (va, ea), (vb, eb) = split(a), split(b)
    v = fn(va, vb)
    room = np.hypot(va, vb) - ea - eb
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where(room > 0, (ea + eb) / np.where(room > 0, room, 1.0), 2 * np.pi)
    # Across the branch cut (b < 0, a within Ea of 0) the angle jumps by 2 pi.
    e = np.where((vb < eb) & (np.abs(va) <= ea) & ((ea > 0) | (eb > 0)), 2 * np.pi, e)
    return join(v, np.minimum(e, 2 * np.pi) + rounding(v, elem, MATH_ULPS))


def _rem(fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    """fmod: continuous (1-Lipschitz in a, |trunc(a/b)| in b) unless a quotient boundary
    lies within the bounds, where it may jump by up to |b|."""
    (va, ea), (vb, eb) = split(a), split(b)
    v = fn(va, vb)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.trunc(va / vb)
        e = ea + np.abs(q) * eb
        quotients = [np.trunc(x / y) for x in (va - ea, va + ea) for y in (vb - eb, vb + eb)]
    jumps = np.zeros(np.shape(v), dtype=bool)
    for other in quotients:
        jumps |= other != q
    return join(v, np.where(jumps, np.abs(vb) + eb + e, e) + tiny(elem.declared))


def _copysign(fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    """|a| with b's sign: E = Ea, or 2|a| + Ea where b's sign is uncertain."""
    (va, ea), (vb, eb) = split(a), split(b)
    v = fn(va, vb)
    uncertain = (np.abs(vb) <= eb) & (eb > 0)
    return join(v, np.where(uncertain, 2 * np.abs(va) + ea, ea))


BINARY_RULES: dict[type[Operation], BinaryRule] = {
    arith.AddfOp: _add,
    arith.SubfOp: _add,
    arith.MulfOp: _mul,
    arith.DivfOp: _div,
    arith.RemFOp: _rem,
    arith.MaximumfOp: _lipschitz,
    arith.MinimumfOp: _lipschitz,
    arith.MaxnumfOp: _lipschitz,
    arith.MinnumfOp: _lipschitz,
    math.Atan2Op: _atan2,
    math.PowFOp: _pow,
    math.CopySignOp: _copysign,
}
"""The bound of each binary float op, given its value function (see the module docstring)."""


def binary(cls: type[Operation], fn: ValueFn2, a: Any, b: Any, elem: Elem) -> np.ndarray:
    """Binary float op `cls` (value function `fn`) on bounded operands, in `elem`."""
    return BINARY_RULES[cls](fn, a, b, elem)


# ---- unary ops -----------------------------------------------------------------------------

ValueFn1 = Callable[[np.ndarray], np.ndarray]


def _interval(fn: ValueFn1, v: np.ndarray, x: np.ndarray, e: np.ndarray) -> np.ndarray:
    """max |f(x +- e) - f(x)|: the exact deviation of a monotone f; inf where f leaves
    its domain (NaN) inside the interval."""
    deviation = np.zeros(np.shape(v))
    for end in (x - e, x + e):
        y = np.asarray(fn(end), dtype=FLOAT64)
        d = np.abs(y - v)
        deviation = np.where(np.isnan(d) & ~np.isnan(v), np.inf, np.fmax(deviation, d))
    return np.where(e > 0, deviation, 0.0)


_EXACT_MONOTONE = (math.CeilOp, math.FloorOp, math.TruncOp, math.RoundOp, math.RoundEvenOp)
_IEEE_MONOTONE = (math.SqrtOp,)
_MATH_MONOTONE = (
    math.RsqrtOp, math.CbrtOp, math.ExpOp, math.Exp2Op, math.ExpM1Op, math.LogOp,
    math.Log1pOp, math.Log2Op, math.Log10Op, math.AtanOp, math.AsinOp, math.AcosOp,
    math.SinhOp, math.TanhOp, math.AsinhOp, math.AcoshOp, math.AtanhOp, math.ErfOp,
)  # fmt: skip


def unary(cls: type[Operation], fn: ValueFn1, x: Any, elem: Elem) -> np.ndarray:
    """Unary float op `cls` (value function `fn`) on a bounded operand, in `elem`."""
    vx, ex = split(x)
    v = np.asarray(fn(vx), dtype=FLOAT64)
    if cls in (arith.NegfOp, math.AbsFOp):
        return join(v, ex)
    if cls in _EXACT_MONOTONE:
        return join(v, _interval(fn, v, vx, ex))
    if cls in _IEEE_MONOTONE:
        return join(v, _interval(fn, v, vx, ex) + rounding(v, elem))
    if cls is math.RsqrtOp:
        # Monotone on each side of 0 only: an interval that reaches 0 has no bound.
        e = np.where((vx - ex) * (vx + ex) > 0, _interval(fn, v, vx, ex), np.inf)
        return join(v, np.where(ex > 0, e, 0.0) + rounding(v, elem, MATH_ULPS))
    if cls in _MATH_MONOTONE:
        return join(v, _interval(fn, v, vx, ex) + rounding(v, elem, MATH_ULPS))
    if cls in (math.SinOp, math.CosOp):
        return join(v, np.minimum(ex, 2.0) + rounding(v, elem, MATH_ULPS))
    if cls is math.CoshOp:
        return join(v, np.sinh(np.abs(vx) + ex) * ex + rounding(v, elem, MATH_ULPS))
    if cls is math.TanOp:
        # No pole within the interval: cos keeps its sign over it and it is shorter than pi.
        same = (np.sign(np.cos(vx - ex)) == np.sign(np.cos(vx))) & (
            np.sign(np.cos(vx + ex)) == np.sign(np.cos(vx))
        )
        e = np.where(same & (ex < np.pi / 2), _interval(fn, v, vx, ex), np.inf)
        return join(v, e + rounding(v, elem, MATH_ULPS))
    raise KeyError(cls)


def fma(a: Any, b: Any, c: Any, elem: Elem) -> np.ndarray:
    """math.fma: a * b + c with one rounding."""
    (va, ea), (vb, eb), (vc, ec) = split(a), split(b), split(c)
    v = va * vb + vc
    # The reference rounds the product before adding (the target does not): its own error
    # is relative to |a b|, which cancellation may make much larger than |v|.
    own = REFERENCE_ROUNDOFF * np.abs(va * vb)
    return join(v, np.abs(va) * eb + np.abs(vb) * ea + ea * eb + ec + own + rounding(v, elem))


def power(fn: ValueFn2, a: Any, exponent: np.ndarray, elem: Elem) -> np.ndarray:
    """math.fpowi: a float to an exact integer power."""
    return _corners(fn, a, exponent.astype(FLOAT64), elem, MATH_ULPS)


def narrow(x: Any, rounded: np.ndarray, dst: Elem) -> np.ndarray:
    """A value rounded to the narrower `dst` (`rounded` is the reference's rounding)."""
    vx, ex = split(x)
    return join(
        rounded, ex + 2 * unit_roundoff(dst.declared) * (np.abs(vx) + ex) + tiny(dst.declared)
    )


def select(cond: Any, t: Any, f: Any) -> np.ndarray:
    """arith.select: the reference's choice, with the larger bound of the two sides."""
    (vt, et), (vf, ef) = split(t), split(f)
    c = np.asarray(cond, dtype=np.bool_)
    return join(np.where(c, vt, vf), np.maximum(et, ef))


# ---- reductions ----------------------------------------------------------------------------


def reduce(
    cls: type[Operation],
    ufunc: np.ufunc,
    values: Any,
    axes: tuple[int, ...],
    elem: Elem,
    terms: int,
) -> np.ndarray:
    """A reduction of bounded values along `axes` (kept), in any order, as part of a
    reduction of `terms` terms in all (see the module docstring)."""
    v, e = split(values)
    value_ = ufunc.reduce(v, axis=axes, keepdims=True)
    if cls in (arith.AddfOp,):
        u = _u(elem)
        magnitude = np.add.reduce(np.abs(v), axis=axes, keepdims=True)
        error = np.add.reduce(e, axis=axes, keepdims=True)
        return join(value_, error + terms * (u * magnitude + tiny(elem.declared)))
    if cls in (arith.MulfOp,):
        u = _u(elem)
        upper = np.multiply.reduce(np.abs(v) + e, axis=axes, keepdims=True)
        exact = np.multiply.reduce(np.abs(v), axis=axes, keepdims=True)
        error = upper * (1 + terms * u) - exact + terms * tiny(elem.declared)
        return join(value_, error)
    return join(value_, np.maximum.reduce(e, axis=axes, keepdims=True))


def initial(acc: Any, elem: Elem, cls: type[Operation], terms: int) -> np.ndarray:
    """The initial value of a sum of `terms` terms, charged its share of the rounding."""
    v, e = split(acc)
    if cls in (arith.AddfOp, arith.MulfOp):
        e = e + terms * _u(elem) * np.abs(v)
    return join(v, e)


def softmax(x: Any, dim: int, elem: Elem) -> np.ndarray:
    """linalg.softmax as upstream decomposes it: max (maxnumf), sub, exp, sum, div."""
    vx, ex = split(x)
    n = vx.shape[dim]
    m = np.fmax.reduce(vx, axis=dim, keepdims=True) if n else vx
    em = np.max(ex, axis=dim, keepdims=True) if n else ex
    shifted = _add(lambda a, b: a - b, join(vx, ex), join(m, em), elem)
    exp = unary(math.ExpOp, np.exp, shifted, elem)
    total = reduce(arith.AddfOp, np.add, exp, (dim,), elem, max(n, 1)) if n else exp
    return _div(lambda a, b: a / b, exp, total, elem)


def einsum_bound(
    product: Callable[[Any, Any], np.ndarray], a: Any, b: Any, elem: Elem, terms: int
) -> np.ndarray:
    """sum over the reduced loops of a * b as `product(x, y)` sums it, bounded: each product
    rounded once, then a sum of `terms` terms in any order."""
    (va, ea), (vb, eb) = split(a), split(b)
    v = product(va, vb)
    magnitude = product(np.abs(va), np.abs(vb))
    error = np.zeros(np.shape(v))
    if ea.any():
        error = error + product(ea, np.abs(vb))
    if eb.any():
        error = error + product(np.abs(va), eb)
    if ea.any() and eb.any():
        error = error + product(ea, eb)
    return join(v, error + (terms + 1) * (_u(elem) * magnitude + tiny(elem.declared)))


__all__ = [
    "BINARY_RULES",
    "BOUNDED",
    "MATH_ULPS",
    "REFERENCE_ROUNDOFF",
    "SAFETY",
    "binary",
    "bounded",
    "einsum_bound",
    "fma",
    "initial",
    "is_bounded",
    "join",
    "narrow",
    "power",
    "reduce",
    "rounding",
    "select",
    "softmax",
    "split",
    "tiny",
    "unary",
    "unit_roundoff",
    "value",
]
