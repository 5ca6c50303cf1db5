"""arith float folders (upstream ArithOps.cpp): constants evaluated with IEEE rounding at
the result type's precision (f64, f32, f16, bf16), and the identities upstream folds
(`x + -0.0`, `x - 0.0`, `x * 1.0`, `x / 1.0`, `-(-x)`, `min/max(x, x)`), min/max with
upstream's NaN and signed-zero rules, and `cmpf` of constants.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.transform.rewrites.constants import constant_float, float_attr, int_attr
from schedir.transform.rewrites.greedy import Folder


def _float_operands(op: Operation) -> list[float | None]:
    return [constant_float(v) for v in op.operands]


def _is_neg_zero(value: float | None) -> bool:
    return value == 0.0 and value is not None and math.copysign(1.0, value) < 0


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
    if isinstance(inner, arith.NegfOp):
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


FLOAT_FOLDERS: dict[type[Operation], Folder] = {
    arith.AddfOp: fold_addf,
    arith.SubfOp: fold_subf,
    arith.MulfOp: fold_mulf,
    arith.DivfOp: fold_divf,
    arith.NegfOp: fold_negf,
    arith.MaximumfOp: _fold_fminmax("maximumf"),
    arith.MinimumfOp: _fold_fminmax("minimumf"),
    arith.MaxnumfOp: _fold_fminmax("maxnumf"),
    arith.MinnumfOp: _fold_fminmax("minnumf"),
    arith.CmpfOp: fold_cmpf,
}

__all__ = ["FLOAT_FOLDERS"]
