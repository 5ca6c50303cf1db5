"""arith folders (upstream ArithOps.cpp), for scalar integer, index and float operands;
the float folders are in `arith_float`, the patterns (upstream
ArithCanonicalization.td) in `arith_patterns`.

Folders evaluate constant operands (two's complement at the type's width, IEEE rounding
at the float type's precision), apply identities (`x + 0`, `x * 1`, `x - x`, `x / 1`,
`min(x, x)`, ...), and, for commutative ops, move a constant operand to the right (an
in-place fold, as upstream's `foldCommutative`). The patterns reassociate constants
through chains of `addi` / `subi` / `muli`, as upstream's DRR patterns do.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.dialects.arith import IndexCastUIOp
from schedir.transform.rewrites.canonicalize.arith_float import FLOAT_FOLDERS
from schedir.transform.rewrites.constants import (
    constant_attr,
    constant_float,
    constant_int,
    float_attr,
    int_attr,
    int_width,
    round_float,
    unsigned,
    wrap,
)
from schedir.transform.rewrites.greedy import Folder


def _int_operands(op: Operation) -> list[int | None]:
    return [constant_int(v) for v in op.operands]


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
CMPI_INVERTED = {0: 1, 1: 0, 2: 5, 3: 4, 4: 3, 5: 2, 6: 9, 7: 8, 8: 7, 9: 6}


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
    kind = IndexCastUIOp if isinstance(op, IndexCastUIOp) else arith.IndexCastOp
    c = constant_int(src)
    if c is not None:
        src_width = int_width(src.type)
        assert src_width is not None
        value = unsigned(c, src_width) if kind is IndexCastUIOp else wrap(c, src_width)
        return [int_attr(value, res_type)]
    inner = src.owner
    if isinstance(inner, kind) and inner.operands[0].type == res_type:
        return [inner.operands[0]]
    return None


def fold_ext(op: Operation) -> list[Attribute | SSAValue] | None:
    (src,) = op.operands
    c = constant_int(src)
    width = int_width(src.type)
    if c is None or width is None:
        return None
    value = unsigned(c, width) if isinstance(op, arith.ExtUIOp) else wrap(c, width)
    return [int_attr(value, op.results[0].type)]


def fold_trunci(op: Operation) -> list[Attribute | SSAValue] | None:
    (src,) = op.operands
    c = constant_int(src)
    if c is not None:
        return [int_attr(c, op.results[0].type)]
    inner = src.owner
    if (
        isinstance(inner, arith.ExtSIOp | arith.ExtUIOp)
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
    value = unsigned(c, width) if isinstance(op, arith.UIToFPOp) else wrap(c, width)
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
        if isinstance(op, arith.FPToUIOp)
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
    if (
        isinstance(op, arith.TruncFOp)
        and not math.isnan(c)
        and round_float(c, op.results[0].type) != c
    ):
        return None  # upstream only folds exact truncations
    return [attr]


_COMMUTATIVE: frozenset[type[Operation]] = frozenset(
    {
        arith.AddiOp, arith.MuliOp, arith.AndIOp, arith.OrIOp, arith.XOrIOp,
        arith.MaxSIOp, arith.MaxUIOp, arith.MinSIOp, arith.MinUIOp,
        arith.AddfOp, arith.MulfOp, arith.MaximumfOp, arith.MinimumfOp,
        arith.MaxnumfOp, arith.MinnumfOp,
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


_BASE_FOLDERS: dict[type[Operation], Folder] = {
    # Commutative ops also move a constant left operand to the right.
    arith.AddiOp: fold_addi,
    arith.SubiOp: fold_subi,
    arith.MuliOp: fold_muli,
    arith.DivSIOp: _fold_div(_sdiv),
    arith.DivUIOp: _fold_div(_udiv),
    arith.FloorDivSIOp: _fold_div(_floordivs),
    arith.CeilDivSIOp: _fold_div(_ceildivs),
    arith.CeilDivUIOp: _fold_div(_ceildivu),
    arith.RemSIOp: _fold_rem(_srem),
    arith.RemUIOp: _fold_rem(_urem),
    arith.AndIOp: fold_andi,
    arith.OrIOp: fold_ori,
    arith.XOrIOp: fold_xori,
    arith.ShLIOp: _fold_shift("shl"),
    arith.ShRUIOp: _fold_shift("shru"),
    arith.ShRSIOp: _fold_shift("shrs"),
    arith.MaxSIOp: _fold_minmax("maxs"),
    arith.MinSIOp: _fold_minmax("mins"),
    arith.MaxUIOp: _fold_minmax("maxu"),
    arith.MinUIOp: _fold_minmax("minu"),
    arith.CmpiOp: fold_cmpi,
    arith.SelectOp: fold_select,
    arith.IndexCastOp: fold_index_cast,
    IndexCastUIOp: fold_index_cast,
    arith.ExtSIOp: fold_ext,
    arith.ExtUIOp: fold_ext,
    arith.TruncIOp: fold_trunci,
    arith.SIToFPOp: fold_int_to_float,
    arith.UIToFPOp: fold_int_to_float,
    arith.FPToSIOp: fold_float_to_int,
    arith.FPToUIOp: fold_float_to_int,
    arith.ExtFOp: fold_float_cast,
    arith.TruncFOp: fold_float_cast,
}

# Commutative ops also move a constant left operand to the right.
FOLDERS: dict[type[Operation], Folder] = {
    root: _commutative(fold) if root in _COMMUTATIVE else fold
    for root, fold in {**_BASE_FOLDERS, **FLOAT_FOLDERS}.items()
}


__all__ = ["CMPI_INVERTED", "FOLDERS"]
