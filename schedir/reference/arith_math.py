"""`arith` and `math` ops, by the semantics of upstream MLIR's ArithOps.td and MathOps.td.

Floats are computed in float64 (no rounding after each op); integer ops read their operands
as signed or unsigned as the op says, compute exactly in 64 bits and wrap to the width.
Results that are poison upstream (division by zero, shifts by the width or more, float to
int conversions out of range) come out as a fixed value rather than an error, because a
vectorized linalg body evaluates both sides of every `select` that guards them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.ir import Operation

from schedir.reference.attrs import prop
from schedir.reference.interpreter import unsupported
from schedir.reference.values import (
    FLOAT64,
    Elem,
    elem_of,
    from_python,
    round_float,
    signed,
    unsigned,
    wrap,
)

if TYPE_CHECKING:
    from schedir.reference.interpreter import Handler, Interpreter


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
    attr = prop(op, "value")
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


FLOAT_BINARY: dict[str, Callable[[Any, Any], np.ndarray]] = {
    "arith.addf": lambda a, b: _f64(a) + _f64(b),
    "arith.subf": lambda a, b: _f64(a) - _f64(b),
    "arith.mulf": lambda a, b: _f64(a) * _f64(b),
    "arith.divf": lambda a, b: _f64(a) / _f64(b),
    "arith.remf": lambda a, b: np.fmod(_f64(a), _f64(b)),
    "arith.maximumf": _maximumf,
    "arith.minimumf": _minimumf,
    "arith.maxnumf": _maxnumf,
    "arith.minnumf": _minnumf,
    "math.atan2": lambda a, b: np.arctan2(_f64(a), _f64(b)),
    "math.powf": lambda a, b: np.power(_f64(a), _f64(b)),
    "math.copysign": lambda a, b: np.copysign(_f64(a), _f64(b)),
}
"""Binary float ops in float64, by op name (also used for linalg named ops' bodies)."""


def _float_binary(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """A binary float op of FLOAT_BINARY."""
    return [FLOAT_BINARY[op.name](args[0], args[1])]


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


def _int_binary_exact(name: str, a: np.ndarray, b: np.ndarray, elem: Elem) -> np.ndarray:
    """The exact (int64 or uint64) result of a binary integer op, before wrapping."""
    sa, sb = signed(a, elem), signed(b, elem)
    match name:
        case "arith.addi":
            return sa + sb
        case "arith.subi":
            return sa - sb
        case "arith.muli":
            return sa * sb
        case "arith.divsi":
            return np.where(sb == 0, 0, _divsi(sa, sb))
        case "arith.remsi":
            return np.where(sb == 0, 0, np.fmod(sa, _safe(sb)))
        case "arith.floordivsi":
            return np.where(sb == 0, 0, np.floor_divide(sa, _safe(sb)))
        case "arith.ceildivsi":
            safe = _safe(sb)
            ceil = np.floor_divide(sa, safe) + (np.remainder(sa, safe) != 0)
            return np.where(sb == 0, 0, ceil)
        case "arith.maxsi":
            return np.maximum(sa, sb)
        case "arith.minsi":
            return np.minimum(sa, sb)
        case "arith.andi":
            return sa & sb
        case "arith.ori":
            return sa | sb
        case "arith.xori":
            return sa ^ sb
    ua, ub = unsigned(a, elem), unsigned(b, elem)
    one = np.uint64(1)
    match name:
        case "arith.divui":
            return np.where(ub == 0, 0, ua // np.where(ub == 0, one, ub))
        case "arith.remui":
            return np.where(ub == 0, 0, ua % np.where(ub == 0, one, ub))
        case "arith.ceildivui":
            safe = np.where(ub == 0, one, ub)
            return np.where(ub == 0, 0, ua // safe + (ua % safe != 0))
        case "arith.maxui":
            return np.maximum(ua, ub)
        case "arith.minui":
            return np.minimum(ua, ub)
        case "arith.shli":
            return np.where(ub < elem.width, ua << np.minimum(ub, np.uint64(63)), 0)
        case "arith.shrui":
            return np.where(ub < elem.width, ua >> np.minimum(ub, np.uint64(63)), 0)
        case "arith.shrsi":
            return np.where(
                ub < elem.width, sa >> np.minimum(ub, np.uint64(63)).astype(np.int64), 0
            )
        case "math.ipowi":
            return _ipowi(sa, sb)
    raise AssertionError(name)


INT_BINARY = frozenset(
    {
        "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.remsi",
        "arith.floordivsi", "arith.ceildivsi", "arith.maxsi", "arith.minsi", "arith.andi",
        "arith.ori", "arith.xori", "arith.divui", "arith.remui", "arith.ceildivui",
        "arith.maxui", "arith.minui", "arith.shli", "arith.shrui", "arith.shrsi", "math.ipowi",
    }
)  # fmt: skip


def int_binary(name: str, a: Any, b: Any, elem: Elem) -> np.ndarray:
    """A binary integer op on storage values, wrapped to `elem`'s width."""
    return wrap(_int_binary_exact(name, np.asarray(a), np.asarray(b), elem), elem)


def _int_binary(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """A binary integer op of INT_BINARY."""
    return [int_binary(op.name, args[0], args[1], _operand_elem(op))]


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
    read = signed if op.name == "arith.mulsi_extended" else unsigned
    a = read(args[0], elem).astype(object)
    b = read(args[1], elem).astype(object)
    if op.name == "arith.addui_extended":
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
    attr = prop(op, "predicate")
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


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
    """arith.cmpf."""
    return [cmpf(CMPF_PREDICATES[_predicate(op)], args[0], args[1])]


def _select(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """arith.select (scalar or elementwise condition)."""
    return [np.where(np.asarray(args[0], dtype=np.bool_), args[1], args[2])]


# ---- casts ---------------------------------------------------------------------------------


def convert(x: Any, src: Elem, dst: Elem, *, unsigned_source: bool = False) -> np.ndarray:
    """Convert between element types as linalg's `cast_signed` / `cast_unsigned` do.

    float->float: extend exactly or round (truncf); int->float: sitofp/uitofp (rounded to
    the destination); float->int: fptosi/fptoui (toward zero); int->int: extsi/extui/trunci.
    """
    if src.is_float and dst.is_float:
        return round_float(x, dst) if dst.width < src.width else _f64(x)
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
    t = np.trunc(_f64(x))
    if unsigned_result:
        lo, hi = 0.0, float(2**dst.width - 1)
    else:
        lo, hi = float(-(2 ** (dst.width - 1))), float(2 ** (dst.width - 1) - 1)
    ok = (t >= lo) & (t <= hi)
    t = np.where(ok, t, 0.0)
    if dst.width == 64 and unsigned_result:
        return wrap(t.astype(np.uint64), dst)
    return wrap(t.astype(np.int64), dst)


def _cast(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """The arith cast ops."""
    src, dst = _operand_elem(op), _result_elem(op)
    x = args[0]
    match op.name:
        case "arith.extf":
            return [_f64(x)]
        case "arith.truncf":
            mode = prop(op, "roundingmode")
            if mode is not None and "to_nearest_even" not in str(mode):
                raise unsupported(f"'arith.truncf' with rounding mode {mode}", op)
            return [round_float(x, dst)]
        case "arith.extsi" | "arith.trunci" | "arith.index_cast":
            return [wrap(signed(x, src), dst)]
        case "arith.extui" | "arith.index_castui":
            return [wrap(unsigned(x, src), dst)]
        case "arith.sitofp":
            return [convert(x, src, dst)]
        case "arith.uitofp":
            return [convert(x, src, dst, unsigned_source=True)]
        case "arith.fptosi":
            return [fp_to_int(x, dst, unsigned_result=False)]
        case "arith.fptoui":
            return [fp_to_int(x, dst, unsigned_result=True)]
    raise AssertionError(op.name)


def _bitcast(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """arith.bitcast between types of one width."""
    src, dst = _operand_elem(op), _result_elem(op)
    if src.width != dst.width:
        raise unsupported(f"'arith.bitcast' from {src.name} to {dst.name}", op)
    x = np.asarray(args[0])
    # The bits of a float are those of its declared type, so round it there first.
    bits = x.astype(src.declared) if src.is_float else x
    out = np.array(bits, copy=True).view(dst.declared)
    return [out.astype(FLOAT64) if dst.is_float else out.copy()]


# ---- math ----------------------------------------------------------------------------------

_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """math.round: to nearest, ties away from zero (exact: x - trunc(x) is exact)."""
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


FLOAT_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "arith.negf": np.negative,
    "math.absf": np.abs,
    "math.ceil": np.ceil,
    "math.floor": np.floor,
    "math.trunc": np.trunc,
    "math.round": _round_half_away,
    "math.roundeven": np.rint,
    "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1.0 / np.sqrt(x),
    "math.cbrt": np.cbrt,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.log": np.log,
    "math.log1p": np.log1p,
    "math.log2": np.log2,
    "math.log10": np.log10,
    "math.sin": np.sin,
    "math.cos": np.cos,
    "math.tan": np.tan,
    "math.asin": np.arcsin,
    "math.acos": np.arccos,
    "math.atan": np.arctan,
    "math.sinh": np.sinh,
    "math.cosh": np.cosh,
    "math.tanh": np.tanh,
    "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh,
    "math.atanh": np.arctanh,
    "math.erf": lambda x: np.asarray(_erf(x), dtype=FLOAT64),
    "math.erfc": lambda x: np.asarray(_erfc(x), dtype=FLOAT64),
}
"""Unary float ops in float64, by op name (also used for linalg named ops' bodies)."""


def _float_unary(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """A unary float op of FLOAT_UNARY."""
    return [np.asarray(FLOAT_UNARY[op.name](_f64(args[0])), dtype=FLOAT64)]


def _float_class(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.isnan / isinf / isfinite / isnormal."""
    x = _f64(args[0])
    match op.name:
        case "math.isnan":
            return [np.isnan(x)]
        case "math.isinf":
            return [np.isinf(x)]
        case "math.isfinite":
            return [np.isfinite(x)]
    # isnormal: in the declared type's range, not zero, subnormal, inf or NaN.
    tiny = {16: 2.0**-14, 32: 2.0**-126, 64: 2.0**-1022}[_operand_elem(op).width]
    if _operand_elem(op).name == "bf16":
        tiny = 2.0**-126
    return [np.isfinite(x) & (np.abs(x) >= tiny)]


def _fma(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.fma (a * b + c in float64)."""
    return [_f64(args[0]) * _f64(args[1]) + _f64(args[2])]


def _fpowi(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.fpowi: a float to an integer power."""
    exponent = signed(args[1], _operand_elem(op, 1)).astype(FLOAT64)
    return [np.power(_f64(args[0]), exponent)]


def _int_unary(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.absi, ctpop, ctlz, cttz at the operand's width."""
    elem = _operand_elem(op)
    if op.name == "math.absi":
        return [wrap(np.abs(signed(args[0], elem)), elem)]
    u = unsigned(args[0], elem)
    bits = [(u >> np.uint64(i)) & np.uint64(1) for i in range(elem.width)]
    if op.name == "math.ctpop":
        count = sum((b.astype(np.int64) for b in bits), np.zeros(u.shape, np.int64))
        return [wrap(count, elem)]
    order = bits[::-1] if op.name == "math.ctlz" else bits
    count = np.zeros(u.shape, np.int64)
    running = np.ones(u.shape, np.bool_)
    for b in order:
        running &= b == 0
        count += running
    return [wrap(count, elem)]


def _sincos(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """math.sincos."""
    x = _f64(args[0])
    return [np.sin(x), np.cos(x)]


def _float_ternary_clamp(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    # math.clampf(x, lo, hi) = minnumf(maxnumf(x, lo), hi)
    """math.clampf."""
    return [_minnumf(_maxnumf(args[0], args[1]), args[2])]


def _poison(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """ub.poison: the evaluator's uninitialized pattern."""
    from schedir.reference.values import poison

    elem = _result_elem(op)
    t = op.results[0].type
    shape = tuple(t.get_shape()) if hasattr(t, "get_shape") else ()
    return [poison(shape, elem)]


def handlers() -> dict[str, Handler]:
    """The handlers of this module, by op name."""
    table: dict[str, Handler] = {
        "arith.constant": _constant,
        "arith.cmpi": _cmpi,
        "arith.cmpf": _cmpf,
        "arith.select": _select,
        "arith.bitcast": _bitcast,
        "arith.addui_extended": _extended,
        "arith.mului_extended": _extended,
        "arith.mulsi_extended": _extended,
        "math.fma": _fma,
        "math.fpowi": _fpowi,
        "math.absi": _int_unary,
        "math.ctlz": _int_unary,
        "math.cttz": _int_unary,
        "math.ctpop": _int_unary,
        "math.sincos": _sincos,
        "math.clampf": _float_ternary_clamp,
        "math.isnan": _float_class,
        "math.isinf": _float_class,
        "math.isfinite": _float_class,
        "math.isnormal": _float_class,
        "ub.poison": _poison,
    }
    for name in FLOAT_BINARY:
        table[name] = _float_binary
    for name in INT_BINARY:
        table[name] = _int_binary
    for name in FLOAT_UNARY:
        table[name] = _float_unary
    for name in (
        "arith.extf", "arith.truncf", "arith.extsi", "arith.extui", "arith.trunci",
        "arith.index_cast", "arith.index_castui", "arith.sitofp", "arith.uitofp",
        "arith.fptosi", "arith.fptoui",
    ):  # fmt: skip
        table[name] = _cast
    return table


__all__ = [
    "CMPF_PREDICATES",
    "CMPI_PREDICATES",
    "FLOAT_BINARY",
    "FLOAT_UNARY",
    "INT_BINARY",
    "cmpf",
    "cmpi",
    "convert",
    "fp_to_int",
    "handlers",
    "int_binary",
]
