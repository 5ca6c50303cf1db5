"""`arith` and `math` ops, by the semantics of upstream MLIR's ArithOps.td and MathOps.td.

Floats are computed in float64 (no rounding after each op); integer ops read their operands
as signed or unsigned as the op says, compute exactly in 64 bits and wrap to the width.
Results that are poison upstream (division by zero, shifts by the width or more, float to
int conversions out of range) come out as a fixed value rather than an error, because a
vectorized linalg body evaluates both sides of every `select` that guards them.

In a bounded evaluation (`Interpreter.bounded`) every float op also computes the error
bound of its result by the rule `bounds` gives it; `float_binary` and `float_unary` are the
entry points the linalg bodies use too.
"""

from __future__ import annotations

from collections.abc import Callable
from math import erf
from typing import Any

import numpy as np
from xdsl.dialects import math, ub
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, ShapedType
from xdsl.ir import Operation

from schedir.dialects import arith
from schedir.reference import bounds
from schedir.reference.interpreter import Handler, Interpreter, unsupported
from schedir.reference.values import (
    FLOAT64,
    Elem,
    elem_of,
    from_python,
    poison,
    round_float,
    signed,
    unsigned,
    wrap,
)


def _operand_elem(op: Operation, index: int = 0) -> Elem:
    """The element type of operand `index`."""
    return elem_of(op.operands[index].type)


def _result_elem(op: Operation, index: int = 0) -> Elem:
    """The element type of result `index`."""
    return elem_of(op.results[index].type)


def _f64(x: Any) -> np.ndarray:
    """Values as a float64 array."""
    return np.asarray(x, dtype=FLOAT64)


# ---- constants -----------------------------------------------------------------------------


def _constant(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """arith.constant: scalar, splat or dense values, rounded to their type."""
    assert isinstance(op, arith.ConstantOp)
    attr = op.value
    elem = _result_elem(op)
    if isinstance(attr, IntegerAttr | FloatAttr):
        return [from_python(attr.value.data, elem)]
    if isinstance(attr, DenseIntOrFPElementsAttr):
        shape = tuple(attr.get_shape())
        values = attr.get_values()
        if elem.is_float:
            data = round_float(np.array(values, dtype=FLOAT64), elem)
        elif elem.is_bool:
            data = np.array(values, dtype=np.int64) != 0
        else:
            data = wrap(np.array(values, dtype=np.int64), elem)
        return [np.broadcast_to(data, shape).copy() if data.size == 1 else data.reshape(shape)]
    raise unsupported(f"'arith.constant' with a {type(attr).__name__} value", op)


# ---- float arithmetic ----------------------------------------------------------------------


def _maximumf(a: Any, b: Any) -> np.ndarray:
    """IEEE maximum: NaN if either is NaN, and +0 above -0."""
    a, b = _f64(a), _f64(b)
    return np.where(a == b, np.where(np.signbit(a), b, a), np.maximum(a, b))


def _minimumf(a: Any, b: Any) -> np.ndarray:
    """IEEE minimum: NaN if either is NaN, and -0 below +0."""
    a, b = _f64(a), _f64(b)
    return np.where(a == b, np.where(np.signbit(a), a, b), np.minimum(a, b))


def _maxnumf(a: Any, b: Any) -> np.ndarray:
    """IEEE maxNum: the other operand when one is NaN."""
    return np.fmax(_f64(a), _f64(b))


def _minnumf(a: Any, b: Any) -> np.ndarray:
    """IEEE minNum: the other operand when one is NaN."""
    return np.fmin(_f64(a), _f64(b))


FLOAT_BINARY: dict[type[Operation], Callable[[Any, Any], np.ndarray]] = {
    arith.AddfOp: lambda a, b: _f64(a) + _f64(b),
    arith.SubfOp: lambda a, b: _f64(a) - _f64(b),
    arith.MulfOp: lambda a, b: _f64(a) * _f64(b),
    arith.DivfOp: lambda a, b: _f64(a) / _f64(b),
    arith.RemFOp: lambda a, b: np.fmod(_f64(a), _f64(b)),
    arith.MaximumfOp: _maximumf,
    arith.MinimumfOp: _minimumf,
    arith.MaxnumfOp: _maxnumf,
    arith.MinnumfOp: _minnumf,
    math.Atan2Op: lambda a, b: np.arctan2(_f64(a), _f64(b)),
    math.PowFOp: lambda a, b: np.power(_f64(a), _f64(b)),
    math.CopySignOp: lambda a, b: np.copysign(_f64(a), _f64(b)),
}
"""Binary float ops in float64, by op class (also used for linalg named ops' bodies)."""


def float_binary(
    cls: type[Operation], a: Any, b: Any, elem: Elem, bounded: bool = False
) -> np.ndarray:
    """Binary float op `cls` (a class of FLOAT_BINARY) in `elem`, bounded or not."""
    if bounded:
        return bounds.binary(cls, FLOAT_BINARY[cls], a, b, elem)
    return FLOAT_BINARY[cls](a, b)


def _float_binary(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """A binary float op of FLOAT_BINARY."""
    return [float_binary(type(op), args[0], args[1], _result_elem(op), ip.bounded)]


# ---- integer arithmetic --------------------------------------------------------------------


def _safe(d: np.ndarray) -> np.ndarray:
    """A divisor with zeros replaced by one; division by zero is poison upstream."""
    return np.where(d == 0, 1, d)


def _divsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Signed division rounding toward zero."""
    b = _safe(b)
    q = np.floor_divide(a, b)
    # Floor and truncation differ by one when the division is inexact and the signs differ
    # (computed without abs(), which overflows on INT64_MIN).
    return np.where((np.remainder(a, b) != 0) & ((a < 0) != (b < 0)), q + 1, q)


def _signed(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> IntBinary:
    """An integer op on its operands read as signed."""
    return lambda a, b, elem: fn(signed(a, elem), signed(b, elem))


def _unsigned(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> IntBinary:
    """An integer op on its operands read as unsigned."""
    return lambda a, b, elem: fn(unsigned(a, elem), unsigned(b, elem))


def _ceildivsi(sa: np.ndarray, sb: np.ndarray) -> np.ndarray:
    safe = _safe(sb)
    ceil = np.floor_divide(sa, safe) + (np.remainder(sa, safe) != 0)
    return np.where(sb == 0, 0, ceil)


_ONE = np.uint64(1)


def _ceildivui(ua: np.ndarray, ub: np.ndarray) -> np.ndarray:
    safe = np.where(ub == 0, _ONE, ub)
    return np.where(ub == 0, 0, ua // safe + (ua % safe != 0))


def _shift_amount(ub: np.ndarray) -> np.ndarray:
    """A shift amount numpy can apply (shifts by the width or more are poison upstream)."""
    return np.minimum(ub, np.uint64(63))


IntBinary = Callable[[np.ndarray, np.ndarray, Elem], np.ndarray]
"""A binary integer op on storage values: the exact (int64 or uint64) result, unwrapped."""

INT_BINARY: dict[type[Operation], IntBinary] = {
    arith.AddiOp: _signed(lambda sa, sb: sa + sb),
    arith.SubiOp: _signed(lambda sa, sb: sa - sb),
    arith.MuliOp: _signed(lambda sa, sb: sa * sb),
    arith.DivSIOp: _signed(lambda sa, sb: np.where(sb == 0, 0, _divsi(sa, sb))),
    arith.RemSIOp: _signed(lambda sa, sb: np.where(sb == 0, 0, np.fmod(sa, _safe(sb)))),
    arith.FloorDivSIOp: _signed(
        lambda sa, sb: np.where(sb == 0, 0, np.floor_divide(sa, _safe(sb)))
    ),
    arith.CeilDivSIOp: _signed(_ceildivsi),
    arith.MaxSIOp: _signed(np.maximum),
    arith.MinSIOp: _signed(np.minimum),
    arith.AndIOp: _signed(lambda sa, sb: sa & sb),
    arith.OrIOp: _signed(lambda sa, sb: sa | sb),
    arith.XOrIOp: _signed(lambda sa, sb: sa ^ sb),
    arith.DivUIOp: _unsigned(
        lambda ua, ub: np.where(ub == 0, 0, ua // np.where(ub == 0, _ONE, ub))
    ),
    arith.RemUIOp: _unsigned(lambda ua, ub: np.where(ub == 0, 0, ua % np.where(ub == 0, _ONE, ub))),
    arith.CeilDivUIOp: _unsigned(_ceildivui),
    arith.MaxUIOp: _unsigned(np.maximum),
    arith.MinUIOp: _unsigned(np.minimum),
    arith.ShLIOp: lambda a, b, elem: np.where(
        unsigned(b, elem) < elem.width,
        unsigned(a, elem) << _shift_amount(unsigned(b, elem)),
        0,
    ),
    arith.ShRUIOp: lambda a, b, elem: np.where(
        unsigned(b, elem) < elem.width,
        unsigned(a, elem) >> _shift_amount(unsigned(b, elem)),
        0,
    ),
    arith.ShRSIOp: lambda a, b, elem: np.where(
        unsigned(b, elem) < elem.width,
        signed(a, elem) >> _shift_amount(unsigned(b, elem)).astype(np.int64),
        0,
    ),
    math.IPowIOp: _signed(lambda sa, sb: _ipowi(sa, sb)),
}
"""Binary integer ops by op class, each reading its operands as signed or unsigned as the
op says (also used for linalg named ops' bodies)."""


def int_binary(op: type[Operation], a: Any, b: Any, elem: Elem) -> np.ndarray:
    """Binary integer op `op` (a class of INT_BINARY) on storage values, wrapped to `elem`."""
    return wrap(INT_BINARY[op](np.asarray(a), np.asarray(b), elem), elem)


def _int_binary(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """A binary integer op of INT_BINARY."""
    return [int_binary(type(op), args[0], args[1], _operand_elem(op))]


def _ipowi(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """Integer power by squaring (wrapping); negative exponents give 1/base^n truncated."""
    base, exponent = np.broadcast_arrays(base, exponent)
    result = np.ones(base.shape, dtype=np.int64)
    b = base.copy()
    e = np.maximum(exponent, 0)
    while np.any(e > 0):
        odd = (e & 1) == 1
        result = np.where(odd, result * b, result)
        b = b * b
        e = e >> 1
    # Upstream: x^-n is 1 for x == 1, (-1)^n for x == -1, and 0 otherwise (0^-n is poison).
    negative = np.where(base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0))
    return np.where(exponent < 0, negative, result)


def _extended(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """addui_extended / mului_extended / mulsi_extended: exact via Python integers."""
    elem = _operand_elem(op)
    w = elem.width
    read = signed if isinstance(op, arith.MulSIExtendedOp) else unsigned
    a = read(args[0], elem).astype(object)
    b = read(args[1], elem).astype(object)
    if isinstance(op, arith.AddUIExtendedOp):
        total = a + b
        carry = np.vectorize(lambda v: (v >> w) != 0, otypes=[np.bool_])(total)
        low = np.vectorize(lambda v: v & ((1 << w) - 1), otypes=[object])(total)
        return [_wrap_object(low, elem), np.asarray(carry)]
    product = a * b
    low = np.vectorize(lambda v: v & ((1 << w) - 1), otypes=[object])(product)
    high = np.vectorize(lambda v: (v >> w) & ((1 << w) - 1), otypes=[object])(product)
    return [_wrap_object(low, elem), _wrap_object(high, elem)]


def _wrap_object(values: np.ndarray, elem: Elem) -> np.ndarray:
    """Non-negative Python integers below 2**width as `elem` storage (two's complement)."""
    half = 1 << (elem.width - 1)
    signed_values = np.vectorize(
        lambda v: v - (1 << elem.width) if v >= half else v, otypes=[object]
    )(values)
    return wrap(np.asarray(signed_values).astype(np.int64), elem)


# ---- comparisons and select ----------------------------------------------------------------


def _predicate(op: Operation) -> int:
    """The integer predicate of a cmpi/cmpf."""
    assert isinstance(op, arith.CmpiOp | arith.CmpfOp)
    return op.predicate.value.data


CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip


def cmpi(predicate: str, a: Any, b: Any, elem: Elem) -> np.ndarray:
    """`arith.cmpi` by predicate name."""
    read = unsigned if predicate.startswith("u") else signed
    x, y = read(a, elem), read(b, elem)
    match predicate:
        case "eq":
            return x == y
        case "ne":
            return x != y
        case "slt" | "ult":
            return x < y
        case "sle" | "ule":
            return x <= y
        case "sgt" | "ugt":
            return x > y
        case "sge" | "uge":
            return x >= y
    raise AssertionError(predicate)


def cmpf(predicate: str, a: Any, b: Any) -> np.ndarray:
    """`arith.cmpf` by predicate name: ordered ones are false, unordered true, on NaN."""
    x, y = _f64(a), _f64(b)
    unordered = np.isnan(x) | np.isnan(y)
    match predicate:
        case "false":
            return np.zeros(unordered.shape, dtype=np.bool_)
        case "true":
            return np.ones(unordered.shape, dtype=np.bool_)
        case "ord":
            return ~unordered
        case "uno":
            return unordered
    match predicate[1:]:
        case "eq":
            result = x == y
        case "ne":
            result = x != y
        case "gt":
            result = x > y
        case "ge":
            result = x >= y
        case "lt":
            result = x < y
        case "le":
            result = x <= y
        case _:
            raise AssertionError(predicate)
    if predicate[0] == "o":
        return result & ~unordered
    return result | unordered


def _cmpi(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """arith.cmpi."""
    return [cmpi(CMPI_PREDICATES[_predicate(op)], args[0], args[1], _operand_elem(op))]


def _cmpf(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """arith.cmpf (on the reference values when bounded)."""
    a, b = bounds.value(args[0]), bounds.value(args[1])
    return [cmpf(CMPF_PREDICATES[_predicate(op)], a, b)]


def _select(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """arith.select (scalar or elementwise condition)."""
    if ip.bounded and _result_elem(op).is_float:
        return [bounds.select(args[0], args[1], args[2])]
    return [np.where(np.asarray(args[0], dtype=np.bool_), args[1], args[2])]


# ---- casts ---------------------------------------------------------------------------------


def convert(x: Any, src: Elem, dst: Elem, *, unsigned_source: bool = False) -> np.ndarray:
    """Convert between element types as linalg's `cast_signed` / `cast_unsigned` do.

    float->float: extend exactly or round (truncf); int->float: sitofp/uitofp (rounded to
    the destination); float->int: fptosi/fptoui (toward zero); int->int: extsi/extui/trunci.
    """
    if src.is_float and dst.is_float:
        if bounds.is_bounded(x):
            return bounds.narrow(x, round_float(x.real, dst), dst) if dst.width < src.width else x
        return round_float(x, dst) if dst.width < src.width else _f64(x)
    if src.is_float:
        x = bounds.value(x)
    if dst.is_float:
        ints = unsigned(x, src) if unsigned_source else signed(x, src)
        if dst.width == 32:
            # Straight from the integer, so a 64-bit value is rounded only once.
            return ints.astype(np.float32).astype(FLOAT64)
        return round_float(ints.astype(FLOAT64), dst)
    if src.is_float:
        return fp_to_int(x, dst, unsigned_result=unsigned_source)
    ints = unsigned(x, src) if unsigned_source else signed(x, src)
    return wrap(ints, dst)


def fp_to_int(x: Any, dst: Elem, *, unsigned_result: bool) -> np.ndarray:
    """fptosi / fptoui: truncate toward zero; NaN and out-of-range values are poison (0 here)."""
    t = np.trunc(_f64(bounds.value(x)))
    if unsigned_result:
        lo, hi = 0.0, float(2**dst.width - 1)
    else:
        lo, hi = float(-(2 ** (dst.width - 1))), float(2 ** (dst.width - 1) - 1)
    ok = (t >= lo) & (t <= hi)
    t = np.where(ok, t, 0.0)
    if dst.width == 64 and unsigned_result:
        return wrap(t.astype(np.uint64), dst)
    return wrap(t.astype(np.int64), dst)


_CASTS: dict[type[Operation], Callable[[Any, Elem, Elem], np.ndarray]] = {
    arith.ExtFOp: lambda x, src, dst: x if bounds.is_bounded(x) else _f64(x),
    arith.ExtSIOp: lambda x, src, dst: wrap(signed(x, src), dst),
    arith.TruncIOp: lambda x, src, dst: wrap(signed(x, src), dst),
    arith.IndexCastOp: lambda x, src, dst: wrap(signed(x, src), dst),
    arith.ExtUIOp: lambda x, src, dst: wrap(unsigned(x, src), dst),
    arith.IndexCastUIOp: lambda x, src, dst: wrap(unsigned(x, src), dst),
    arith.SIToFPOp: lambda x, src, dst: convert(x, src, dst),
    arith.UIToFPOp: lambda x, src, dst: convert(x, src, dst, unsigned_source=True),
    arith.FPToSIOp: lambda x, src, dst: fp_to_int(x, dst, unsigned_result=False),
    arith.FPToUIOp: lambda x, src, dst: fp_to_int(x, dst, unsigned_result=True),
}
"""The arith casts but truncf, by op class: (value, source elem, result elem) -> value."""


def _cast(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """An arith cast of _CASTS."""
    return [_CASTS[type(op)](args[0], _operand_elem(op), _result_elem(op))]


def _truncf(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """arith.truncf, rounding to nearest even (the only rounding mode evaluated)."""
    # schedir's arith.truncf defines no rounding-mode property: a mode is a discardable
    # attribute of that name.
    mode = op.attributes.get("roundingmode")
    if mode is not None and "to_nearest_even" not in str(mode):
        raise unsupported(f"'arith.truncf' with rounding mode {mode}", op)
    elem = _result_elem(op)
    if bounds.is_bounded(args[0]):
        return [bounds.narrow(args[0], round_float(bounds.value(args[0]), elem), elem)]
    return [round_float(args[0], elem)]


def _bitcast(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """arith.bitcast between types of one width."""
    src, dst = _operand_elem(op), _result_elem(op)
    if src.width != dst.width:
        raise unsupported(f"'arith.bitcast' from {src.name} to {dst.name}", op)
    x = np.asarray(bounds.value(args[0]))
    # The bits of a float are those of its declared type, so round it there first.
    bits = x.astype(src.declared) if src.is_float else x
    out = np.array(bits, copy=True).view(dst.declared)
    return [out.astype(FLOAT64) if dst.is_float else out.copy()]


# ---- math ----------------------------------------------------------------------------------

_erf = np.frompyfunc(erf, 1, 1)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """math.round: to nearest, ties away from zero (exact: x - trunc(x) is exact)."""
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


FLOAT_UNARY: dict[type[Operation], Callable[[np.ndarray], np.ndarray]] = {
    arith.NegfOp: np.negative,
    math.AbsFOp: np.abs,
    math.CeilOp: np.ceil,
    math.FloorOp: np.floor,
    math.TruncOp: np.trunc,
    math.RoundOp: _round_half_away,
    math.RoundEvenOp: np.rint,
    math.SqrtOp: np.sqrt,
    math.RsqrtOp: lambda x: 1.0 / np.sqrt(x),
    math.CbrtOp: np.cbrt,
    math.ExpOp: np.exp,
    math.Exp2Op: np.exp2,
    math.ExpM1Op: np.expm1,
    math.LogOp: np.log,
    math.Log1pOp: np.log1p,
    math.Log2Op: np.log2,
    math.Log10Op: np.log10,
    math.SinOp: np.sin,
    math.CosOp: np.cos,
    math.TanOp: np.tan,
    math.AsinOp: np.arcsin,
    math.AcosOp: np.arccos,
    math.AtanOp: np.arctan,
    math.SinhOp: np.sinh,
    math.CoshOp: np.cosh,
    math.TanhOp: np.tanh,
    math.AsinhOp: np.arcsinh,
    math.AcoshOp: np.arccosh,
    math.AtanhOp: np.arctanh,
    math.ErfOp: lambda x: np.asarray(_erf(x), dtype=FLOAT64),
}
"""Unary float ops in float64, by op class (also used for linalg named ops' bodies)."""


def float_unary(cls: type[Operation], x: Any, elem: Elem, bounded: bool = False) -> np.ndarray:
    """Unary float op `cls` (a class of FLOAT_UNARY) in `elem`, bounded or not."""
    fn = FLOAT_UNARY[cls]
    if bounded:
        return bounds.unary(cls, lambda v: np.asarray(fn(_f64(v)), dtype=FLOAT64), x, elem)
    return np.asarray(fn(_f64(x)), dtype=FLOAT64)


def _float_unary(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """A unary float op of FLOAT_UNARY."""
    return [float_unary(type(op), args[0], _result_elem(op), ip.bounded)]


def _fma(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.fma (a * b + c in float64)."""
    if ip.bounded:
        return [bounds.fma(args[0], args[1], args[2], _result_elem(op))]
    return [_f64(args[0]) * _f64(args[1]) + _f64(args[2])]


def _fpowi(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.fpowi: a float to an integer power."""
    exponent = signed(args[1], _operand_elem(op, 1)).astype(FLOAT64)
    if ip.bounded:
        power = lambda a, b: np.power(_f64(a), _f64(b))  # noqa: E731 (a value function)
        return [bounds.power(power, args[0], exponent, _result_elem(op))]
    return [np.power(_f64(args[0]), exponent)]


def _absi(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.absi at the operand's width."""
    elem = _operand_elem(op)
    return [wrap(np.abs(signed(args[0], elem)), elem)]


def _bits(x: Any, elem: Elem) -> list[np.ndarray]:
    """The bits of integer values, least significant first."""
    u = unsigned(x, elem)
    return [(u >> np.uint64(i)) & np.uint64(1) for i in range(elem.width)]


def _ctpop(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.ctpop at the operand's width."""
    elem = _operand_elem(op)
    shape = np.shape(args[0])
    count = sum((b.astype(np.int64) for b in _bits(args[0], elem)), np.zeros(shape, np.int64))
    return [wrap(count, elem)]


def _count_zeros(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.ctlz / math.cttz at the operand's width."""
    elem = _operand_elem(op)
    bits = _bits(args[0], elem)
    order = bits[::-1] if isinstance(op, math.CountLeadingZerosOp) else bits
    shape = np.shape(args[0])
    count = np.zeros(shape, np.int64)
    running = np.ones(shape, np.bool_)
    for b in order:
        running &= b == 0
        count += running
    return [wrap(count, elem)]


def _poison(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """ub.poison: the evaluator's uninitialized pattern."""
    t = op.results[0].type
    shape = tuple(t.get_shape()) if isinstance(t, ShapedType) else ()
    return [poison(shape, _result_elem(op))]


def handlers() -> dict[type[Operation], Handler]:
    """The handlers of this module, by op class."""
    return {
        arith.ConstantOp: _constant,
        arith.CmpiOp: _cmpi,
        arith.CmpfOp: _cmpf,
        arith.SelectOp: _select,
        arith.BitcastOp: _bitcast,
        arith.AddUIExtendedOp: _extended,
        arith.MulUIExtendedOp: _extended,
        arith.MulSIExtendedOp: _extended,
        arith.TruncFOp: _truncf,
        math.FmaOp: _fma,
        math.FPowIOp: _fpowi,
        math.AbsIOp: _absi,
        math.CtPopOp: _ctpop,
        math.CountLeadingZerosOp: _count_zeros,
        math.CountTrailingZerosOp: _count_zeros,
        ub.PoisonOp: _poison,
        **dict.fromkeys(FLOAT_BINARY, _float_binary),
        **dict.fromkeys(INT_BINARY, _int_binary),
        **dict.fromkeys(FLOAT_UNARY, _float_unary),
        **dict.fromkeys(_CASTS, _cast),
    }


__all__ = [
    "CMPF_PREDICATES",
    "CMPI_PREDICATES",
    "FLOAT_BINARY",
    "FLOAT_UNARY",
    "INT_BINARY",
    "cmpf",
    "cmpi",
    "convert",
    "float_binary",
    "float_unary",
    "fp_to_int",
    "handlers",
    "int_binary",
]
