"""Simplify `affine.min` / `affine.max` under known value ranges (upstream
Affine/Analysis/Utils.cpp `simplifyConstrainedMinMaxOp`, as driven by
`transform.affine.simplify_bounded_affine_ops`).

Each bounded value lies in a closed interval; constants are their own interval; other
operands are unbounded. A result `e_k` of a min's map that is provably never above any
other result `e_j` (the maximum of `e_k - e_j` over the box is <= 0) is the min's value,
and symmetrically for max. Each difference is flattened into a linear form over the
operands (equal operands merged) and `floordiv` / `ceildiv` / `mod` sub-terms (opaque
atoms whose intervals come from their operand's), whose extremes over a box are exact
for the linear part. A semi-affine product or division whose symbolic factor or divisor
has one value under the bounds uses that constant; otherwise it is an atom whose interval
is the product's (or the quotient's, for a positive divisor) over the boxes:

    %v in [0, 19]
    %m = affine.min affine_map<()[s0] -> (50, 100 - s0)>()[%v]
      50 - (100 - s0) = s0 - 50 <= 19 - 50 < 0  ->  %m = arith.constant 50 : index

The op is then replaced by the chosen result: a constant, the operand itself, or an
`affine.apply` of the one-result map (a constant when all the operands it uses are).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects.affine import ApplyOp, MaxOp, MinOp
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.rewriter import CanonRewriter

Interval = tuple[int | None, int | None]
"""Closed bounds; None is unbounded."""


@dataclass(frozen=True)
class _Atom:
    """An opaque `floordiv` / `ceildiv` / `mod` term of one op's map, and its range."""

    text: str
    interval: Interval


_Key = SSAValue | _Atom


def _product(a: Interval, b: Interval) -> Interval:
    """The range of `x * y` for `x` in `a` and `y` in `b` (unbounded unless both are)."""
    if None in a or None in b:
        return (None, None)
    corners = [x * y for x in a for y in b if x is not None and y is not None]
    return (min(corners), max(corners))


def _semi_affine_division(kind: AffineBinaryOpKind, x: Interval, y: Interval) -> Interval:
    """The range of `x floordiv y`, `x ceildiv y` or `x mod y` for a positive divisor in
    `y`: the quotient is monotone in each argument, so its extremes are at the corners."""
    low, high = y
    assert low is not None and low > 0  # the caller checks it
    if kind == AffineBinaryOpKind.Mod:
        return (0, None if high is None else high - 1)
    if None in x or high is None:
        return (None, None)
    ceil = kind == AffineBinaryOpKind.CeilDiv
    corners = [(-(-a // b) if ceil else a // b) for a in x for b in (low, high) if a is not None]
    return (min(corners), max(corners))


def _div_interval(iv: Interval, c: int, ceil: bool) -> Interval:
    def div(v: int | None) -> int | None:
        if v is None:
            return None
        return -(-v // c) if ceil else v // c

    lo, hi = iv
    return (div(lo), div(hi)) if c > 0 else (div(hi), div(lo))


class _Flattener:
    """Linear forms of affine expressions over the ops' operands."""

    def __init__(
        self, operands: Sequence[SSAValue], num_dims: int, bounds: Mapping[SSAValue, Interval]
    ):
        self.operands = operands
        self.num_dims = num_dims
        self.bounds = bounds

    def interval_of(self, key: _Key) -> Interval:
        if isinstance(key, _Atom):
            return key.interval
        assert isinstance(key, SSAValue)
        constant = constant_int(key)
        if constant is not None:
            return (constant, constant)
        return self.bounds.get(key, (None, None))

    def extremes(self, form: dict[_Key, int], const: int) -> Interval:
        lo: int | None = const
        hi: int | None = const
        for key, coeff in form.items():
            if coeff == 0:
                continue
            a, b = self.interval_of(key)
            low, high = (a, b) if coeff > 0 else (b, a)
            lo = None if lo is None or low is None else lo + coeff * low
            hi = None if hi is None or high is None else hi + coeff * high
        return lo, hi

    def flatten(self, expr: AffineExpr) -> tuple[dict[_Key, int], int]:
        if isinstance(expr, AffineConstantExpr):
            return {}, expr.value
        if isinstance(expr, AffineDimExpr):
            return {self.operands[expr.position]: 1}, 0
        if isinstance(expr, AffineSymExpr):
            return {self.operands[self.num_dims + expr.position]: 1}, 0
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs, lc = self.flatten(expr.lhs)
        rhs, rc = self.flatten(expr.rhs)
        if expr.kind == AffineBinaryOpKind.Add:
            merged = dict(lhs)
            for k, v in rhs.items():
                merged[k] = merged.get(k, 0) + v
            return merged, lc + rc
        # A semi-affine factor or divisor (a symbolic term) whose range is one value
        # under the bounds is that constant; other semi-affine terms are opaque atoms
        # with the range interval arithmetic gives them.
        divisor = self.extremes(rhs, rc)
        if expr.kind == AffineBinaryOpKind.Mul:
            factor = self.extremes(lhs, lc)
            if divisor[0] is not None and divisor[0] == divisor[1]:
                return {k: v * divisor[0] for k, v in lhs.items()}, lc * divisor[0]
            if factor[0] is not None and factor[0] == factor[1]:
                return {k: v * factor[0] for k, v in rhs.items()}, rc * factor[0]
            return {_Atom(str(expr), _product(factor, divisor)): 1}, 0
        inner = self.extremes(lhs, lc)
        if rhs and divisor[0] is not None and divisor[0] == divisor[1]:
            rhs, rc = {}, divisor[0]
        if rhs and divisor[0] is not None and divisor[0] > 0:
            interval = _semi_affine_division(expr.kind, inner, divisor)
        elif not rhs and rc > 0:
            if expr.kind == AffineBinaryOpKind.FloorDiv:
                interval = _div_interval(inner, rc, ceil=False)
            elif expr.kind == AffineBinaryOpKind.CeilDiv:
                interval = _div_interval(inner, rc, ceil=True)
            else:
                lo, hi = inner
                same_period = lo is not None and hi is not None and lo // rc == hi // rc
                interval = (
                    (lo % rc, hi % rc)
                    if same_period and lo is not None and hi is not None
                    else (0, rc - 1)
                )
        else:
            interval = (None, None)
        # Within one op's map, equal sub-expressions are the same term.
        return {_Atom(str(expr), interval): 1}, 0


def _chosen(op: MinOp | MaxOp, bounds: Mapping[SSAValue, Interval]) -> int | None:
    """The index of a result that is the op's value under `bounds`, if one is provable."""
    amap = op.map.data
    flattener = _Flattener(list(op.operands), amap.num_dims, bounds)
    forms = [flattener.flatten(e) for e in amap.results]
    is_min = isinstance(op, MinOp)
    for k, (form_k, const_k) in enumerate(forms):
        ok = True
        for j, (form_j, const_j) in enumerate(forms):
            if j == k:
                continue
            diff = dict(form_k)
            for key, v in form_j.items():
                diff[key] = diff.get(key, 0) - v
            lo, hi = flattener.extremes(diff, const_k - const_j)
            if is_min and (hi is None or hi > 0):
                ok = False
                break
            if not is_min and (lo is None or lo < 0):
                ok = False
                break
        if ok:
            return k
    return None


def simplify_bounded_min_max(
    targets: Sequence[MinOp | MaxOp],
    bounds: Mapping[SSAValue, Interval],
    listener: PatternRewriterListener | None = None,
) -> None:
    """Replace each target whose value is provably one of its map's results by it."""
    for op in targets:
        if op.parent is None:
            continue
        k = _chosen(op, bounds)
        if k is None:
            continue
        amap = op.map.data
        expr = amap.results[k]
        rw = CanonRewriter(InsertPoint.before(op), listener)
        operands = list(op.operands)
        if isinstance(expr, AffineConstantExpr):
            new: SSAValue = rw.create(
                arith.ConstantOp(IntegerAttr(expr.value, IndexType())), op
            ).results[0]
        elif isinstance(expr, AffineDimExpr):
            new = operands[expr.position]
        elif isinstance(expr, AffineSymExpr):
            new = operands[amap.num_dims + expr.position]
        else:
            new = _folded_apply(rw, op, expr, operands)
        rw.replace_values(op, [new])


def _folded_apply(
    rw: CanonRewriter, op: MinOp | MaxOp, expr: AffineExpr, operands: Sequence[SSAValue]
) -> SSAValue:
    """An `affine.apply` of the chosen result, or the constant it folds to when every
    operand it uses is a constant (upstream's canonicalization folds that apply)."""
    amap = op.map.data
    values = [constant_int(v) for v in operands]
    used = [*expr.used_dims(), *(amap.num_dims + s for s in _used_symbols(expr))]
    if all(values[i] is not None for i in used):
        known = [v if v is not None else 0 for v in values]
        with suppress(ZeroDivisionError):
            folded = expr.eval(known[: amap.num_dims], known[amap.num_dims :])
            return rw.create(arith.ConstantOp(IntegerAttr(folded, IndexType())), op).results[0]
    single = AffineMap(amap.num_dims, amap.num_symbols, (expr,))
    return rw.create(ApplyOp(list(operands), AffineMapAttr(single)), op).results[0]


def _used_symbols(expr: AffineExpr) -> set[int]:
    return {e.position for e in expr.dfs() if isinstance(e, AffineSymExpr)}


def is_min_max(op: Operation) -> bool:
    """Whether `op` is an `affine.min` or `affine.max`."""
    return isinstance(op, MinOp | MaxOp)


__all__ = ["Interval", "is_min_max", "simplify_bounded_min_max"]
