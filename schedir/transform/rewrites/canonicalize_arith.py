"""arith folders and canonicalization patterns (upstream ArithOps.cpp and
ArithCanonicalization.td), for scalar integer, index and float operands.

Folders evaluate constant operands (two's complement at the type's width, IEEE rounding
at the float type's precision), apply identities (`x + 0`, `x * 1`, `x - x`, `x / 1`,
`min(x, x)`, ...), and, for commutative ops, move a constant operand to the right (an
in-place fold, as upstream's `foldCommutative`). The patterns reassociate constants
through chains of `addi` / `subi` / `muli`, as upstream's DRR patterns do.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.transform.rewrites.canonicalize import PatternSet
from schedir.transform.rewrites.canonicalize_utils import (
    CanonRewriter,
    Folder,
    constant_attr,
    constant_float,
    constant_int,
)

# --- integer helpers -------------------------------------------------------------------------


def int_width(type_: Attribute) -> int | None:
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    return None


def wrap(value: int, width: int) -> int:
    """Two's complement value at `width` bits, as a signed integer."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


def int_attr(value: int, type_: Attribute) -> IntegerAttr:
    width = int_width(type_)
    assert width is not None
    if width == 1:
        return IntegerAttr(-1 if value & 1 else 0, type_)  # type: ignore[arg-type]
    return IntegerAttr(wrap(value, width), type_)  # type: ignore[arg-type]


def _int_operands(op: Operation) -> list[int | None]:
    return [constant_int(v) for v in op.operands]


# --- float helpers ----------------------------------------------------------------------------


def round_float(value: float, type_: Attribute) -> float | None:
    """`value` rounded to the precision of a float type (None for other types)."""
    if isinstance(type_, Float64Type):
        return float(value)
    if isinstance(type_, Float32Type):
        return float(np.float32(value))
    if isinstance(type_, Float16Type):
        return float(np.float16(value))
    if isinstance(type_, BFloat16Type):
        if math.isnan(value) or math.isinf(value):
            return value
        bits = struct.unpack("<I", struct.pack("<f", float(np.float32(value))))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return None


def float_attr(value: float, type_: Attribute) -> FloatAttr | None:
    rounded = round_float(value, type_)
    if rounded is None:
        return None
    return FloatAttr(rounded, type_)  # type: ignore[arg-type]


def _float_operands(op: Operation) -> list[float | None]:
    return [constant_float(v) for v in op.operands]


def _is_neg_zero(value: float | None) -> bool:
    return value == 0.0 and value is not None and math.copysign(1.0, value) < 0


# --- integer folders --------------------------------------------------------------------------

IntFn = Callable[[int, int, int], int | None]
"""(lhs, rhs, width) -> result, or None when it does not fold (division by zero, ...)."""


def _const_fold_int(op: Operation, fn: IntFn) -> list[Attribute | SSAValue] | None:
    a, b = _int_operands(op)
    width = int_width(op.results[0].type)
    if a is None or b is None or width is None:
        return None
    value = fn(a, b, width)
    if value is None:
        return None
    return [int_attr(value, op.results[0].type)]


def _sdiv(a: int, b: int, w: int) -> int | None:
    a, b = wrap(a, w), wrap(b, w)
    if b == 0 or (a == -(1 << (w - 1)) and b == -1):
        return None
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _srem(a: int, b: int, w: int) -> int | None:
    a, b = wrap(a, w), wrap(b, w)
    if b == 0:
        return None
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def _udiv(a: int, b: int, w: int) -> int | None:
    a, b = unsigned(a, w), unsigned(b, w)
    return None if b == 0 else a // b


def _urem(a: int, b: int, w: int) -> int | None:
    a, b = unsigned(a, w), unsigned(b, w)
    return None if b == 0 else a % b


def _floordivs(a: int, b: int, w: int) -> int | None:
    a, b = wrap(a, w), wrap(b, w)
    if b == 0 or (a == -(1 << (w - 1)) and b == -1):
        return None
    return a // b


def _ceildivs(a: int, b: int, w: int) -> int | None:
    a, b = wrap(a, w), wrap(b, w)
    if b == 0 or (a == -(1 << (w - 1)) and b == -1):
        return None
    return -((-a) // b)


def _ceildivu(a: int, b: int, w: int) -> int | None:
    a, b = unsigned(a, w), unsigned(b, w)
    return None if b == 0 else -((-a) // b)


def _shift(kind: str) -> IntFn:
    def fn(a: int, b: int, w: int) -> int | None:
        b = unsigned(b, w)
        if b >= w:
            return None
        if kind == "shl":
            return a << b
        if kind == "shru":
            return unsigned(a, w) >> b
        return wrap(a, w) >> b

    return fn


def fold_addi(op: Operation) -> list[Attribute | SSAValue] | None:
    lhs, rhs = op.operands
    if constant_int(rhs) == 0:
        return [lhs]
    if (folded := _const_fold_int(op, lambda a, b, w: a + b)) is not None:
        return folded
    # addi(subi(a, b), b) -> a and addi(b, subi(a, b)) -> a
    for x, y in ((lhs, rhs), (rhs, lhs)):
        sub = x.owner
        if isinstance(sub, arith.SubiOp) and sub.rhs is y:
            return [sub.lhs]
    return None


def fold_subi(op: Operation) -> list[Attribute | SSAValue] | None:
    lhs, rhs = op.operands
    if lhs is rhs and int_width(lhs.type) is not None:
        return [int_attr(0, op.results[0].type)]
    if constant_int(rhs) == 0:
        return [lhs]
    add = lhs.owner
    if isinstance(add, arith.AddiOp):
        if rhs is add.rhs:
            return [add.lhs]
        if rhs is add.lhs:
            return [add.rhs]
    return _const_fold_int(op, lambda a, b, w: a - b)


def fold_muli(op: Operation) -> list[Attribute | SSAValue] | None:
    lhs, rhs = op.operands
    c = constant_int(rhs)
    if c == 0:
        return [int_attr(0, op.results[0].type)]
    if c == 1:
        return [lhs]
    return _const_fold_int(op, lambda a, b, w: a * b)


def _fold_div(fn: IntFn) -> Folder:
    def fold(op: Operation) -> list[Attribute | SSAValue] | None:
        lhs, rhs = op.operands
        if constant_int(rhs) == 1:
            return [lhs]
        return _const_fold_int(op, fn)

    return fold


def _fold_rem(fn: IntFn) -> Folder:
    def fold(op: Operation) -> list[Attribute | SSAValue] | None:
        rhs = op.operands[1]
        if constant_int(rhs) == 1:
            return [int_attr(0, op.results[0].type)]
        return _const_fold_int(op, fn)

    return fold


def fold_andi(op: Operation) -> list[Attribute | SSAValue] | None:
    lhs, rhs = op.operands
    width = int_width(op.results[0].type)
    c = constant_int(rhs)
    if c == 0:
        return [int_attr(0, op.results[0].type)]
    if width is not None and c is not None and wrap(c, width) == -1:
        return [lhs]
    if lhs is rhs:
        return [lhs]
    return _const_fold_int(op, lambda a, b, w: a & b)


def fold_ori(op: Operation) -> list[Attribute | SSAValue] | None:
    lhs, rhs = op.operands
    width = int_width(op.results[0].type)
    c = constant_int(rhs)
    if c == 0:
        return [lhs]
    if width is not None and c is not None and wrap(c, width) == -1:
        return [rhs]
    if lhs is rhs:
        return [lhs]
    return _const_fold_int(op, lambda a, b, w: a | b)


def fold_xori(op: Operation) -> list[Attribute | SSAValue] | None:
    lhs, rhs = op.operands
    if constant_int(rhs) == 0:
        return [lhs]
    if lhs is rhs and int_width(lhs.type) is not None:
        return [int_attr(0, op.results[0].type)]
    # xori(xori(x, a), a) -> x
    inner = lhs.owner
    if isinstance(inner, arith.XOrIOp) and inner.rhs is rhs:
        return [inner.lhs]
    return _const_fold_int(op, lambda a, b, w: a ^ b)


def _fold_shift(kind: str) -> Folder:
    fn = _shift(kind)

    def fold(op: Operation) -> list[Attribute | SSAValue] | None:
        if constant_int(op.operands[1]) == 0:
            return [op.operands[0]]
        return _const_fold_int(op, fn)

    return fold


def _fold_minmax(kind: str) -> Folder:
    def fold(op: Operation) -> list[Attribute | SSAValue] | None:
        lhs, rhs = op.operands
        if lhs is rhs:
            return [lhs]
        width = int_width(op.results[0].type)
        c = constant_int(rhs)
        if width is not None and c is not None:
            smax, smin = (1 << (width - 1)) - 1, -(1 << (width - 1))
            umax = (1 << width) - 1
            if (kind == "maxs" and wrap(c, width) == smax) or (
                kind == "mins" and wrap(c, width) == smin
            ):
                return [rhs]
            if (kind == "maxs" and wrap(c, width) == smin) or (
                kind == "mins" and wrap(c, width) == smax
            ):
                return [lhs]
            if (kind == "maxu" and unsigned(c, width) == umax) or (
                kind == "minu" and unsigned(c, width) == 0
            ):
                return [rhs]
            if (kind == "maxu" and unsigned(c, width) == 0) or (
                kind == "minu" and unsigned(c, width) == umax
            ):
                return [lhs]

        def fn(a: int, b: int, w: int) -> int:
            if kind in ("maxs", "mins"):
                a, b = wrap(a, w), wrap(b, w)
            else:
                a, b = unsigned(a, w), unsigned(b, w)
            return max(a, b) if kind.startswith("max") else min(a, b)

        return _const_fold_int(op, fn)

    return fold


_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_CMPI_SWAPPED = {0: 0, 1: 1, 2: 4, 3: 5, 4: 2, 5: 3, 6: 8, 7: 9, 8: 6, 9: 7}
_CMPI_INVERTED = {0: 1, 1: 0, 2: 5, 3: 4, 4: 3, 5: 2, 6: 9, 7: 8, 8: 7, 9: 6}


def _cmpi_eval(pred: int, a: int, b: int, w: int) -> bool:
    if pred in (0, 1):
        eq = unsigned(a, w) == unsigned(b, w)
        return eq if pred == 0 else not eq
    if pred in (2, 3, 4, 5):
        a, b = wrap(a, w), wrap(b, w)
    else:
        a, b = unsigned(a, w), unsigned(b, w)
    return {2: a < b, 3: a <= b, 4: a > b, 5: a >= b, 6: a < b, 7: a <= b, 8: a > b, 9: a >= b}[
        pred
    ]


def fold_cmpi(op: Operation) -> list[Attribute | SSAValue] | bool | None:
    pred_attr = op.properties["predicate"]
    assert isinstance(pred_attr, IntegerAttr)
    pred = pred_attr.value.data
    lhs, rhs = op.operands
    i1 = op.results[0].type
    if lhs is rhs:
        return [int_attr(1 if pred in (0, 3, 5, 7, 9) else 0, i1)]
    a, b = constant_int(lhs), constant_int(rhs)
    width = int_width(lhs.type)
    if a is not None and b is not None and width is not None:
        return [int_attr(1 if _cmpi_eval(pred, a, b, width) else 0, i1)]
    if a is not None and b is None:
        # Move the constant to the right (upstream swaps the predicate in place).
        op.properties["predicate"] = IntegerAttr(_CMPI_SWAPPED[pred], pred_attr.type)
        op.operands = [rhs, lhs]
        return True
    return None


def fold_select(op: Operation) -> list[Attribute | SSAValue] | None:
    cond, a, b = op.operands
    if a is b:
        return [a]
    c = constant_int(cond)
    if c is not None:
        return [a if c & 1 else b]
    if isinstance(a.type, IntegerType) and a.type.width.data == 1:
        ca, cb = constant_int(a), constant_int(b)
        if ca is not None and cb is not None and ca & 1 and not cb & 1:
            return [cond]
    return None


def fold_index_cast(op: Operation) -> list[Attribute | SSAValue] | None:
    (src,) = op.operands
    res_type = op.results[0].type
    c = constant_int(src)
    if c is not None:
        src_width = int_width(src.type)
        assert src_width is not None
        value = unsigned(c, src_width) if op.name == "arith.index_castui" else wrap(c, src_width)
        return [int_attr(value, res_type)]
    inner = src.owner
    if (
        isinstance(inner, Operation)
        and inner.name == op.name
        and inner.operands[0].type == res_type
    ):
        return [inner.operands[0]]
    return None


def fold_ext(op: Operation) -> list[Attribute | SSAValue] | None:
    (src,) = op.operands
    c = constant_int(src)
    width = int_width(src.type)
    if c is None or width is None:
        return None
    value = unsigned(c, width) if op.name == "arith.extui" else wrap(c, width)
    return [int_attr(value, op.results[0].type)]


def fold_trunci(op: Operation) -> list[Attribute | SSAValue] | None:
    (src,) = op.operands
    c = constant_int(src)
    if c is not None:
        return [int_attr(c, op.results[0].type)]
    inner = src.owner
    if (
        isinstance(inner, Operation)
        and inner.name in ("arith.extsi", "arith.extui")
        and inner.operands[0].type == op.results[0].type
    ):
        return [inner.operands[0]]
    return None


def fold_int_to_float(op: Operation) -> list[Attribute | SSAValue] | None:
    (src,) = op.operands
    c = constant_int(src)
    width = int_width(src.type)
    if c is None or width is None:
        return None
    value = unsigned(c, width) if op.name == "arith.uitofp" else wrap(c, width)
    attr = float_attr(float(value), op.results[0].type)
    return [attr] if attr is not None else None


def fold_float_to_int(op: Operation) -> list[Attribute | SSAValue] | None:
    c = constant_float(op.operands[0])
    width = int_width(op.results[0].type)
    if c is None or width is None or math.isnan(c) or math.isinf(c):
        return None
    value = int(c)
    lo, hi = (
        (0, (1 << width) - 1)
        if op.name == "arith.fptoui"
        else (-(1 << (width - 1)), (1 << (width - 1)) - 1)
    )
    if not lo <= value <= hi:
        return None
    return [int_attr(value, op.results[0].type)]


def fold_float_cast(op: Operation) -> list[Attribute | SSAValue] | None:
    c = constant_float(op.operands[0])
    if c is None:
        return None
    attr = float_attr(c, op.results[0].type)
    if attr is None:
        return None
    if op.name == "arith.truncf" and not math.isnan(c) and round_float(c, op.results[0].type) != c:
        return None  # upstream only folds exact truncations
    return [attr]


# --- float folders ----------------------------------------------------------------------------


def _const_fold_float(
    op: Operation, fn: Callable[[float, float], float]
) -> list[Attribute | SSAValue] | None:
    a, b = _float_operands(op)
    if a is None or b is None:
        return None
    try:
        value = fn(a, b)
    except (ZeroDivisionError, OverflowError):
        return None
    attr = float_attr(value, op.results[0].type)
    return [attr] if attr is not None else None


def _fdiv(a: float, b: float) -> float:
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def fold_addf(op: Operation) -> list[Attribute | SSAValue] | None:
    if _is_neg_zero(constant_float(op.operands[1])):
        return [op.operands[0]]
    return _const_fold_float(op, lambda a, b: a + b)


def fold_subf(op: Operation) -> list[Attribute | SSAValue] | None:
    c = constant_float(op.operands[1])
    if c == 0.0 and c is not None and not _is_neg_zero(c):
        return [op.operands[0]]
    return _const_fold_float(op, lambda a, b: a - b)


def fold_mulf(op: Operation) -> list[Attribute | SSAValue] | None:
    if constant_float(op.operands[1]) == 1.0:
        return [op.operands[0]]
    return _const_fold_float(op, lambda a, b: a * b)


def fold_divf(op: Operation) -> list[Attribute | SSAValue] | None:
    if constant_float(op.operands[1]) == 1.0:
        return [op.operands[0]]
    return _const_fold_float(op, _fdiv)


def fold_negf(op: Operation) -> list[Attribute | SSAValue] | None:
    src = op.operands[0]
    inner = src.owner
    if isinstance(inner, Operation) and inner.name == "arith.negf":
        return [inner.operands[0]]
    c = constant_float(src)
    if c is None:
        return None
    attr = float_attr(-c, op.results[0].type)
    return [attr] if attr is not None else None


def _fminmax(kind: str) -> Callable[[float, float], float]:
    def fn(a: float, b: float) -> float:
        if kind in ("maximumf", "minimumf"):
            if math.isnan(a) or math.isnan(b):
                return math.nan
        else:
            if math.isnan(a):
                return b
            if math.isnan(b):
                return a
        if a == b == 0.0:
            neg = math.copysign(1.0, a) < 0
            neg_b = math.copysign(1.0, b) < 0
            pick_neg = (neg or neg_b) if kind.startswith("min") else (neg and neg_b)
            return -0.0 if pick_neg else 0.0
        return max(a, b) if kind.startswith("max") else min(a, b)

    return fn


def _fold_fminmax(kind: str) -> Folder:
    fn = _fminmax(kind)

    def fold(op: Operation) -> list[Attribute | SSAValue] | None:
        if op.operands[0] is op.operands[1]:
            return [op.operands[0]]
        return _const_fold_float(op, fn)

    return fold


_CMPF = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip


def fold_cmpf(op: Operation) -> list[Attribute | SSAValue] | None:
    pred_attr = op.properties["predicate"]
    assert isinstance(pred_attr, IntegerAttr)
    pred = _CMPF[pred_attr.value.data]
    i1 = op.results[0].type
    if pred in ("false", "true"):
        return [int_attr(1 if pred == "true" else 0, i1)]
    a, b = _float_operands(op)
    if a is None or b is None:
        return None
    unordered = math.isnan(a) or math.isnan(b)
    if pred == "ord":
        result = not unordered
    elif pred == "uno":
        result = unordered
    else:
        base = pred[1:]
        if unordered:
            result = pred[0] == "u"
        else:
            result = {
                "eq": a == b,
                "gt": a > b,
                "ge": a >= b,
                "lt": a < b,
                "le": a <= b,
                "ne": a != b,
            }[base]
    return [int_attr(1 if result else 0, i1)]


_COMMUTATIVE = frozenset(
    {
        "arith.addi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
        "arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui",
        "arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf",
        "arith.maxnumf", "arith.minnumf",
    }
)  # fmt: skip


def _commutative(fold: Folder) -> Folder:
    """Upstream's `foldCommutative`: after the op's own folder, move a constant left
    operand to the right."""

    def wrapped(op: Operation) -> list[Attribute | SSAValue] | bool | None:
        result = fold(op)
        if result is not None:
            return result
        lhs, rhs = op.operands
        if constant_attr(lhs) is not None and constant_attr(rhs) is None:
            op.operands = [rhs, lhs]
            return True
        return None

    return wrapped


_BASE_FOLDERS: dict[str, Folder] = {
    "arith.addi": fold_addi,
    "arith.subi": fold_subi,
    "arith.muli": fold_muli,
    "arith.divsi": _fold_div(_sdiv),
    "arith.divui": _fold_div(_udiv),
    "arith.floordivsi": _fold_div(_floordivs),
    "arith.ceildivsi": _fold_div(_ceildivs),
    "arith.ceildivui": _fold_div(_ceildivu),
    "arith.remsi": _fold_rem(_srem),
    "arith.remui": _fold_rem(_urem),
    "arith.andi": fold_andi,
    "arith.ori": fold_ori,
    "arith.xori": fold_xori,
    "arith.shli": _fold_shift("shl"),
    "arith.shrui": _fold_shift("shru"),
    "arith.shrsi": _fold_shift("shrs"),
    "arith.maxsi": _fold_minmax("maxs"),
    "arith.minsi": _fold_minmax("mins"),
    "arith.maxui": _fold_minmax("maxu"),
    "arith.minui": _fold_minmax("minu"),
    "arith.cmpi": fold_cmpi,
    "arith.select": fold_select,
    "arith.index_cast": fold_index_cast,
    "arith.index_castui": fold_index_cast,
    "arith.extsi": fold_ext,
    "arith.extui": fold_ext,
    "arith.trunci": fold_trunci,
    "arith.sitofp": fold_int_to_float,
    "arith.uitofp": fold_int_to_float,
    "arith.fptosi": fold_float_to_int,
    "arith.fptoui": fold_float_to_int,
    "arith.extf": fold_float_cast,
    "arith.truncf": fold_float_cast,
    "arith.addf": fold_addf,
    "arith.subf": fold_subf,
    "arith.mulf": fold_mulf,
    "arith.divf": fold_divf,
    "arith.negf": fold_negf,
    "arith.maximumf": _fold_fminmax("maximumf"),
    "arith.minimumf": _fold_fminmax("minimumf"),
    "arith.maxnumf": _fold_fminmax("maxnumf"),
    "arith.minnumf": _fold_fminmax("minnumf"),
    "arith.cmpf": fold_cmpf,
}

FOLDERS: dict[str, Folder] = {
    name: _commutative(fold) if name in _COMMUTATIVE else fold
    for name, fold in _BASE_FOLDERS.items()
}


# --- patterns ---------------------------------------------------------------------------------


def _const_operand(value: SSAValue) -> int | None:
    return constant_int(value)


def _flags(*ops: Operation) -> dict[str, Attribute]:
    """Overflow flags kept by a reassociation: those all combined ops agree on."""
    flags = [op.properties.get("overflowFlags") for op in ops]
    if flags and all(f == flags[0] for f in flags) and flags[0] is not None:
        return {"overflowFlags": flags[0]}
    return {}


def _new_binary(
    rw: CanonRewriter,
    name: str,
    lhs: SSAValue,
    rhs: SSAValue,
    like: Operation,
    flags: dict[str, Attribute],
) -> SSAValue:
    cls = {"addi": arith.AddiOp, "subi": arith.SubiOp, "muli": arith.MuliOp}[name]
    op = cls.create(
        operands=[lhs, rhs], result_types=[like.results[0].type], properties=dict(flags)
    )
    return rw.create(op, like).results[0]


def _new_constant(rw: CanonRewriter, value: int, like: Operation) -> SSAValue:
    return rw.create(arith.ConstantOp(int_attr(value, like.results[0].type)), like).results[0]


def add_add_sub_constants(op: Operation, rw: CanonRewriter) -> bool:
    """addi(addi(x, c0), c1) -> addi(x, c0 + c1); addi(subi(x, c0), c1) ->
    addi(x, c1 - c0); addi(subi(c0, x), c1) -> subi(c0 + c1, x);
    addi(x, muli(y, -1)) -> subi(x, y) (and mirrored)."""
    lhs, rhs = op.operands
    c1 = _const_operand(rhs)
    if c1 is not None:
        inner = lhs.owner
        if isinstance(inner, Operation) and inner.name in ("arith.addi", "arith.subi"):
            a, b = inner.operands
            ca, cb = _const_operand(a), _const_operand(b)
            flags = _flags(op, inner)
            if inner.name == "arith.addi" and cb is not None:
                new = _new_binary(rw, "addi", a, _new_constant(rw, cb + c1, op), op, flags)
            elif inner.name == "arith.subi" and cb is not None:
                new = _new_binary(rw, "addi", a, _new_constant(rw, c1 - cb, op), op, flags)
            elif inner.name == "arith.subi" and ca is not None:
                new = _new_binary(rw, "subi", _new_constant(rw, ca + c1, op), b, op, flags)
            else:
                return False
            rw.replace_values(op, [new])
            return True
    for x, y in ((lhs, rhs), (rhs, lhs)):
        mul = y.owner
        if isinstance(mul, Operation) and mul.name == "arith.muli":
            width = int_width(op.results[0].type)
            c = _const_operand(mul.operands[1])
            if width is not None and c is not None and wrap(c, width) == -1:
                new = _new_binary(rw, "subi", x, mul.operands[0], op, {})
                rw.replace_values(op, [new])
                return True
    return False


def sub_constants(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's SubI* DRR patterns: reassociate constants through addi/subi chains."""
    lhs, rhs = op.operands
    c_rhs, c_lhs = _const_operand(rhs), _const_operand(lhs)
    flags: dict[str, Attribute]
    if c_rhs is not None and isinstance(inner := lhs.owner, Operation):
        a, b = inner.operands if inner.name in ("arith.addi", "arith.subi") else (None, None)
        if a is not None and b is not None:
            flags = _flags(op, inner)
            ca, cb = _const_operand(a), _const_operand(b)
            if inner.name == "arith.addi" and cb is not None:  # (x + c0) - c1
                new = _new_binary(rw, "addi", a, _new_constant(rw, cb - c_rhs, op), op, flags)
            elif inner.name == "arith.subi" and cb is not None:  # (x - c0) - c1
                new = _new_binary(rw, "subi", a, _new_constant(rw, cb + c_rhs, op), op, flags)
            elif inner.name == "arith.subi" and ca is not None:  # (c0 - x) - c1
                new = _new_binary(rw, "subi", _new_constant(rw, ca - c_rhs, op), b, op, flags)
            else:
                new = None
            if new is not None:
                rw.replace_values(op, [new])
                return True
    if c_lhs is not None and isinstance(inner := rhs.owner, Operation):
        a, b = inner.operands if inner.name in ("arith.addi", "arith.subi") else (None, None)
        if a is not None and b is not None:
            flags = _flags(op, inner)
            ca, cb = _const_operand(a), _const_operand(b)
            if inner.name == "arith.addi" and cb is not None:  # c1 - (x + c0)
                new = _new_binary(rw, "subi", _new_constant(rw, c_lhs - cb, op), a, op, flags)
            elif inner.name == "arith.subi" and cb is not None:  # c1 - (x - c0)
                new = _new_binary(rw, "subi", _new_constant(rw, cb + c_lhs, op), a, op, flags)
            elif inner.name == "arith.subi" and ca is not None:  # c1 - (c0 - x)
                new = _new_binary(rw, "addi", b, _new_constant(rw, c_lhs - ca, op), op, flags)
            else:
                new = None
            if new is not None:
                rw.replace_values(op, [new])
                return True
    # subi(subi(a, b), a) -> subi(0, b)
    inner = lhs.owner
    if isinstance(inner, Operation) and inner.name == "arith.subi" and inner.operands[0] is rhs:
        new = _new_binary(rw, "subi", _new_constant(rw, 0, op), inner.operands[1], op, {})
        rw.replace_values(op, [new])
        return True
    return False


def mul_mul_constant(op: Operation, rw: CanonRewriter) -> bool:
    """muli(muli(x, c0), c1) -> muli(x, c0 * c1)."""
    lhs, rhs = op.operands
    c1 = _const_operand(rhs)
    inner = lhs.owner
    if c1 is None or not isinstance(inner, Operation) or inner.name != "arith.muli":
        return False
    c0 = _const_operand(inner.operands[1])
    if c0 is None:
        return False
    new = _new_binary(
        rw, "muli", inner.operands[0], _new_constant(rw, c0 * c1, op), op, _flags(op, inner)
    )
    rw.replace_values(op, [new])
    return True


def xori_not_cmpi(op: Operation, rw: CanonRewriter) -> bool:
    """xori(cmpi(pred, a, b), true) -> cmpi(not pred, a, b)."""
    lhs, rhs = op.operands
    cmp = lhs.owner
    if not (
        isinstance(cmp, arith.CmpiOp) and constant_int(rhs) is not None and constant_int(rhs) & 1
    ):
        return False
    if not (isinstance(op.results[0].type, IntegerType) and op.results[0].type.width.data == 1):
        return False
    pred = cmp.predicate.value.data
    new = arith.CmpiOp.create(
        operands=list(cmp.operands),
        result_types=[op.results[0].type],
        properties={"predicate": IntegerAttr(_CMPI_INVERTED[pred], cmp.predicate.type)},
    )
    rw.replace_with_op(op, new)
    return True


def select_same_condition(op: Operation, rw: CanonRewriter) -> bool:
    """select(c, select(c, a, b), d) -> select(c, a, d) (and the false side)."""
    cond, a, b = op.operands
    for index, value in ((1, a), (2, b)):
        inner = value.owner
        if isinstance(inner, arith.SelectOp) and inner.operands[0] is cond:
            operands = list(op.operands)
            operands[index] = inner.operands[index]
            rw.replace_with_op(
                op, arith.SelectOp.create(operands=operands, result_types=[op.results[0].type])
            )
            return True
    return False


def patterns() -> PatternSet:
    return (
        PatternSet()
        .add("arith.addi", add_add_sub_constants)
        .add("arith.subi", sub_constants)
        .add("arith.muli", mul_mul_constant)
        .add("arith.xori", xori_not_cmpi)
        .add("arith.select", select_same_condition)
    )


__all__ = ["FOLDERS", "float_attr", "int_attr", "int_width", "patterns", "round_float", "wrap"]
