"""Simplification of affine.min / affine.max over loop induction variables (upstream
AffineCanonicalizationUtils.cpp, the pattern `scf.for_loop_canonicalization` adds).

A min (max) whose result k is provably <= (>=) all its other results over the iteration
range of the scf.for / scf.forall / scf.parallel induction variables among its operands
becomes an affine.apply of result k; this removes the `min(tile, ub - iv)` of tiled loops
whose tile divides the trip count:

    scf.for %iv = %c0 to %c128 step %c32 {
      %s = affine.min affine_map<(d0) -> (32, -d0 + 128)>(%iv)   // -> 32 (constant apply)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import affine, scf
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from schedir.dialects.affine import ApplyOp, MaxOp, MinOp
from schedir.dialects.scf import ForallOp
from schedir.transform.rewrites.canonicalize.affine import (
    ValueMap,
    collect_positions,
    constant_result,
    op_value_map,
    simplify_expr,
    simplify_value_map,
)
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter

_MAX_ENUMERATION = 1 << 14
"""Largest iteration domain enumerated exactly when interval arithmetic cannot decide."""


# --- intervals ---------------------------------------------------------------------------------


Interval = tuple[int | None, int | None]


def expr_bounds(expr: AffineExpr, ranges: Sequence[Interval]) -> Interval:
    """Interval of an expression given an interval per dim-then-symbol position."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value, expr.value
    if isinstance(expr, AffineDimExpr):
        return ranges[expr.position] if expr.position < len(ranges) else (None, None)
    if isinstance(expr, AffineSymExpr):
        return (None, None)  # callers pass symbols through `ranges` via dim positions
    assert isinstance(expr, AffineBinaryOpExpr)
    lo_a, hi_a = expr_bounds(expr.lhs, ranges)
    lo_b, hi_b = expr_bounds(expr.rhs, ranges)
    kind = expr.kind
    if kind == AffineBinaryOpKind.Add:
        return (
            None if lo_a is None or lo_b is None else lo_a + lo_b,
            None if hi_a is None or hi_b is None else hi_a + hi_b,
        )
    c = constant_result(expr.rhs)
    if c is None:
        return (None, None)
    if kind == AffineBinaryOpKind.Mul:
        lo, hi = (lo_a, hi_a) if c >= 0 else (hi_a, lo_a)
        return (None if lo is None else lo * c, None if hi is None else hi * c)
    if c <= 0:
        return (None, None)
    if kind == AffineBinaryOpKind.Mod:
        if lo_a is not None and hi_a is not None and lo_a // c == hi_a // c:
            return lo_a % c, hi_a % c
        return 0, c - 1
    if kind == AffineBinaryOpKind.FloorDiv:
        return (None if lo_a is None else lo_a // c, None if hi_a is None else hi_a // c)
    return (None if lo_a is None else -(-lo_a // c), None if hi_a is None else -(-hi_a // c))


# --- min/max over loop induction variables ----------------------------------------------------


@dataclass(frozen=True)
class IvRange:
    """An induction variable's range: lb <= iv <= max_value (constants)."""

    lb: int
    max_value: int


def loop_iv_range(value: SSAValue) -> IvRange | None:
    """The range of an scf.for / scf.forall / scf.parallel induction variable with
    constant bounds and step, as upstream's `addLoopRangeConstraints` states it."""
    if not isinstance(value, BlockArgument):
        return None
    block: Block = value.block
    loop = block.parent_op()
    if loop is None:
        return None
    lb: int | None
    ub: int | None
    step: int | None
    if isinstance(loop, scf.ForOp) and value.index == 0:
        lb, ub, step = (constant_int(v) for v in loop.operands[:3])
    elif isinstance(loop, ForallOp):
        if value.index >= loop.rank:
            return None
        lb = constant_int(loop.lower_bounds[value.index])
        ub = constant_int(loop.upper_bounds[value.index])
        step = constant_int(loop.steps[value.index])
    elif isinstance(loop, scf.ParallelOp):
        rank = (len(loop.operands) - len(loop.results)) // 3
        if value.index >= rank:
            return None
        lb = constant_int(loop.operands[value.index])
        ub = constant_int(loop.operands[rank + value.index])
        step = constant_int(loop.operands[2 * rank + value.index])
    else:
        return None
    if lb is None or ub is None or step is None or step <= 0 or ub <= lb:
        return None
    if lb + step >= ub:
        return IvRange(lb, lb)
    return IvRange(lb, lb + step * ((ub - lb - 1) // step))


def _prove_nonnegative(expr: AffineExpr, ranges: Sequence[IvRange | None], num_dims: int) -> bool:
    """Whether `expr` (over dims then symbols) is >= 0 for all values of the ranged
    operands, whatever the unranged ones are (False when it cannot tell)."""
    try:
        return _prove_nonnegative_impl(expr, ranges, num_dims)
    except (NotImplementedError, ValueError, ZeroDivisionError):
        return False  # semi-affine: xDSL's expressions cannot rebuild it


def _prove_nonnegative_impl(
    expr: AffineExpr, ranges: Sequence[IvRange | None], num_dims: int
) -> bool:
    expr = simplify_expr(expr, num_dims, len(ranges) - num_dims)
    as_dims = expr.replace_dims_and_symbols(
        [AffineExpr.dimension(i) for i in range(num_dims)],
        [AffineExpr.dimension(num_dims + i) for i in range(len(ranges) - num_dims)],
    )
    used: set[int] = set()
    collect_positions(as_dims, used, set())
    if any(ranges[i] is None for i in used):
        return False
    intervals: list[Interval] = [
        (r.lb, r.max_value) if r is not None else (None, None) for r in ranges
    ]
    lo, _ = expr_bounds(as_dims, intervals)
    if lo is not None and lo >= 0:
        return True
    # Interval arithmetic is loose with mod/floordiv and repeated variables: enumerate
    # small domains exactly.
    positions = sorted(used)
    size = 1
    for i in positions:
        r = ranges[i]
        assert r is not None
        size *= r.max_value - r.lb + 1
        if size > _MAX_ENUMERATION:
            return False
    values = [0] * len(ranges)
    known = [r for i, r in enumerate(ranges) if i in positions and r is not None]
    for point in itertools.product(*(range(r.lb, r.max_value + 1) for r in known)):
        for i, v in zip(positions, point, strict=True):
            values[i] = v
        if as_dims.eval(values, ()) < 0:
            return False
    return True


def simplify_min_max_in_loops(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `AffineOpSCFCanonicalizationPattern`: replace a min (max) by the result
    that bounds all others over the loop ranges of its induction-variable operands."""
    is_min = isinstance(op, affine.MinOp)
    vm = op_value_map(op)
    # As upstream, also without induction variables among the operands (then only
    # constant differences are provable, and a single result always is).
    ranges = [loop_iv_range(v) for v in vm.operands]
    nd = vm.map.num_dims
    results = vm.map.results
    for k, candidate in enumerate(results):
        ok = True
        for i, other in enumerate(results):
            if i == k:
                continue
            try:
                diff = other - candidate if is_min else candidate - other
            except NotImplementedError:
                ok = False
                break
            if not _prove_nonnegative(diff, ranges, nd):
                ok = False
                break
        if not ok:
            continue
        # Single-valued induction variables are replaced by their value (upstream reads
        # them off the constraint system).
        subs: list[AffineExpr] = []
        for i, r in enumerate(ranges):
            if r is not None and r.lb == r.max_value:
                subs.append(AffineExpr.constant(r.lb))
            else:
                subs.append(AffineExpr.dimension(i) if i < nd else AffineExpr.symbol(i - nd))
        try:
            expr = candidate.replace_dims_and_symbols(subs[:nd], subs[nd:])
        except NotImplementedError:
            return False
        new = simplify_value_map(ValueMap(AffineMap(nd, vm.map.num_symbols, (expr,)), vm.operands))
        if new is None:
            return False
        rw.replace_with_op(op, ApplyOp(list(new.operands), AffineMapAttr(new.map)))
        return True
    return False


def loop_min_max_patterns() -> PatternSet:
    return PatternSet().add(MinOp, simplify_min_max_in_loops).add(MaxOp, simplify_min_max_in_loops)


__all__ = [
    "Interval",
    "IvRange",
    "expr_bounds",
    "loop_iv_range",
    "loop_min_max_patterns",
    "simplify_min_max_in_loops",
]
