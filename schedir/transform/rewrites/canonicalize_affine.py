"""affine.apply / min / max folding and simplification (upstream AffineOps.cpp), and the
simplification of min/max over loop induction variables (upstream
AffineCanonicalizationUtils.cpp, used by `scf.for_loop_canonicalization`).

Tiling leaves `affine.apply` offsets and `affine.min` / `affine.max` tile sizes; these
make them cheap again:

* `simplify_value_map`: upstream's compose + canonicalize + simplify of a map and its
  operands: producers that are `affine.apply` are substituted in, constant operands
  become map constants, repeated and unused operands are dropped, operands that are valid
  symbols (function arguments, values defined at the function's top level) become
  symbols, and each result is flattened and rebuilt in canonical form;
* folders: an apply whose result is one of its operands or a constant, a min/max whose
  results are all constants (or, in place, with constant operands substituted);
* min/max patterns: single result -> apply, duplicate results dropped, nested min/max of
  the same kind merged, results dominated by a constant bound dropped;
* `simplify_min_max_in_loops`: a min (max) whose result k is provably <= (>=) all others
  over the iteration range of the scf.for / scf.forall / scf.parallel induction variables
  among its operands becomes an apply of result k.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
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
from schedir.transform.rewrites.canonicalize import PatternSet
from schedir.transform.rewrites.canonicalize_utils import CanonRewriter, Folder, constant_int

AFFINE_SCOPES = frozenset({"func.func", "gpu.func", "gpu.launch", "builtin.module", "llvm.func"})
"""Ops whose regions define an affine scope (upstream's `AffineScope` trait)."""

_MAX_COMPOSE_DEPTH = 32
_MAX_ENUMERATION = 1 << 14


# --- valid symbols ----------------------------------------------------------------------------


def _is_top_level(value: SSAValue) -> bool:
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
    else:
        assert isinstance(value, OpResult)
        owner = value.op.parent_op()
    return owner is not None and owner.name in AFFINE_SCOPES


def is_valid_symbol(value: SSAValue) -> bool:
    """Upstream's `isValidSymbol` (without a region): top-level values of an affine scope,
    constants, and affine.apply / dim of valid symbols."""
    if _is_top_level(value):
        return True
    if isinstance(value, OpResult):
        op = value.op
        if op.name == "arith.constant":
            return True
        if op.name in ("affine.apply", "affine.min", "affine.max"):
            return all(is_valid_symbol(v) for v in op.operands)
        if op.name in ("tensor.dim", "memref.dim"):
            return is_valid_symbol(op.operands[0]) and is_valid_symbol(op.operands[1])
    return False


# --- value maps -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ValueMap:
    """An affine map with its operands (dims then symbols), upstream's AffineValueMap."""

    map: AffineMap
    operands: tuple[SSAValue, ...]


def op_value_map(op: Operation) -> ValueMap:
    attr = op.properties["map"]
    assert isinstance(attr, AffineMapAttr)
    return ValueMap(attr.data, tuple(op.operands))


def _simplify_expr(expr: AffineExpr, num_dims: int, num_symbols: int) -> AffineExpr:
    try:
        return expr.simplify(num_dims, num_symbols)
    except (NotImplementedError, ValueError, AssertionError, ZeroDivisionError):
        return expr


def _used(expr: AffineExpr, dims: set[int], syms: set[int]) -> None:
    for node in expr.dfs():
        if isinstance(node, AffineDimExpr):
            dims.add(node.position)
        elif isinstance(node, AffineSymExpr):
            syms.add(node.position)


def simplify_value_map(vm: ValueMap, *, compose: bool = True) -> ValueMap | None:
    """Compose producers, fold constants, dedupe/drop/reclassify operands and simplify
    (upstream's composeAffineMapAndOperands + canonicalizeMapAndOperands +
    simplifyAffineMap). None when the map cannot be handled (semi-affine, ...)."""
    try:
        return _simplify_value_map(vm, compose)
    except (NotImplementedError, ValueError, ZeroDivisionError, RecursionError):
        return None


def _simplify_value_map(vm: ValueMap, compose: bool) -> ValueMap:
    values: list[SSAValue] = []
    index: dict[SSAValue, int] = {}

    def var(value: SSAValue, depth: int) -> AffineExpr:
        c = constant_int(value)
        if c is not None:
            return AffineExpr.constant(c)
        owner = value.owner
        if (
            compose
            and depth < _MAX_COMPOSE_DEPTH
            and isinstance(owner, Operation)
            and owner.name == "affine.apply"
        ):
            inner = op_value_map(owner)
            subs = [var(v, depth + 1) for v in inner.operands]
            nd = inner.map.num_dims
            return inner.map.results[0].replace_dims_and_symbols(subs[:nd], subs[nd:])
        if value not in index:
            index[value] = len(values)
            values.append(value)
        return AffineExpr.dimension(index[value])

    nd = vm.map.num_dims
    subs = [var(v, 0) for v in vm.operands]
    results = [r.replace_dims_and_symbols(subs[:nd], subs[nd:]) for r in vm.map.results]
    # Reclassify: valid symbols become symbols, the rest dims (first-use order kept).
    used_dims: set[int] = set()
    for r in results:
        _used(r, used_dims, set())
    dims = [i for i, v in enumerate(values) if i in used_dims and not is_valid_symbol(v)]
    syms = [i for i, v in enumerate(values) if i in used_dims and is_valid_symbol(v)]
    new_exprs: list[AffineExpr] = [AffineExpr.constant(0)] * len(values)
    for position, i in enumerate(dims):
        new_exprs[i] = AffineExpr.dimension(position)
    for position, i in enumerate(syms):
        new_exprs[i] = AffineExpr.symbol(position)
    results = [r.replace_dims_and_symbols(new_exprs, ()) for r in results]
    results = [_simplify_expr(r, len(dims), len(syms)) for r in results]
    # Simplification may drop uses (d0 - d0): compact again.
    final_dims: set[int] = set()
    final_syms: set[int] = set()
    for r in results:
        _used(r, final_dims, final_syms)
    keep_dims = [p for p in range(len(dims)) if p in final_dims]
    keep_syms = [p for p in range(len(syms)) if p in final_syms]
    if len(keep_dims) != len(dims) or len(keep_syms) != len(syms):
        dim_subs = [AffineExpr.constant(0)] * len(dims)
        sym_subs = [AffineExpr.constant(0)] * len(syms)
        for new, old in enumerate(keep_dims):
            dim_subs[old] = AffineExpr.dimension(new)
        for new, old in enumerate(keep_syms):
            sym_subs[old] = AffineExpr.symbol(new)
        results = [r.replace_dims_and_symbols(dim_subs, sym_subs) for r in results]
        dims = [dims[p] for p in keep_dims]
        syms = [syms[p] for p in keep_syms]
    operands = tuple(values[i] for i in dims) + tuple(values[i] for i in syms)
    return ValueMap(AffineMap(len(dims), len(syms), tuple(results)), operands)


# --- constant evaluation and bounds -----------------------------------------------------------


def constant_result(expr: AffineExpr) -> int | None:
    return expr.value if isinstance(expr, AffineConstantExpr) else None


def substitute_constants(vm: ValueMap) -> AffineMap | None:
    """Upstream's `partialConstantFold`: each result that becomes a constant once the
    constant operands are substituted is replaced by it; the others are kept as written."""
    nd = vm.map.num_dims
    subs: list[AffineExpr] = []
    for i, v in enumerate(vm.operands):
        c = constant_int(v)
        if c is not None:
            subs.append(AffineExpr.constant(c))
        else:
            subs.append(AffineExpr.dimension(i) if i < nd else AffineExpr.symbol(i - nd))
    results: list[AffineExpr] = []
    for r in vm.map.results:
        try:
            folded = _simplify_expr(
                r.replace_dims_and_symbols(subs[:nd], subs[nd:]), nd, vm.map.num_symbols
            )
        except (NotImplementedError, ValueError, ZeroDivisionError):
            folded = r  # semi-affine: xDSL cannot rebuild it with a non-constant divisor
        results.append(folded if isinstance(folded, AffineConstantExpr) else r)
    return AffineMap(nd, vm.map.num_symbols, tuple(results))


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


def _drop_dominated(
    results: Sequence[AffineExpr], num_operands: int, is_min: bool
) -> list[AffineExpr]:
    """Upstream's simplifyMinOrMaxExprWithOperands with unbounded operands: a result whose
    range lies entirely beyond another's (given only its own structure) is redundant."""
    del num_operands  # operands are unbounded: only a result's own structure bounds it
    bounds = [expr_bounds(e, ()) for e in results]
    kept: list[AffineExpr] = []
    for i, expr in enumerate(results):
        lo_i, hi_i = bounds[i]
        if lo_i is not None and lo_i == hi_i:
            expr = AffineExpr.constant(lo_i)
        redundant = False
        for j, (lo_j, hi_j) in enumerate(bounds):
            if j == i:
                continue
            if is_min:
                # result i is redundant if some other result is always <= its lower bound
                if lo_i is None or hi_j is None:
                    continue
                if hi_j < lo_i:
                    redundant = True
                elif hi_j == lo_i:
                    tie = lo_j is not None and lo_j == hi_j and lo_i == hi_i
                    redundant = not (tie and i < j)
            else:
                if hi_i is None or lo_j is None:
                    continue
                if lo_j > hi_i:
                    redundant = True
                elif lo_j == hi_i:
                    tie = hi_j is not None and lo_j == hi_j and lo_i == hi_i
                    redundant = not (tie and i < j)
            if redundant:
                break
        if not redundant:
            kept.append(expr)
    return kept


# --- folders ----------------------------------------------------------------------------------


def fold_apply(op: Operation) -> list[Attribute | SSAValue] | None:
    vm = op_value_map(op)
    expr = vm.map.results[0]
    if isinstance(expr, AffineDimExpr):
        return [vm.operands[expr.position]]
    if isinstance(expr, AffineSymExpr):
        return [vm.operands[vm.map.num_dims + expr.position]]
    folded = substitute_constants(vm)
    if folded is None:
        return None
    c = constant_result(folded.results[0])
    if c is None:
        return None
    return [IntegerAttr(c, IndexType())]


def _fold_min_max(is_min: bool) -> Folder:
    def fold(op: Operation) -> list[Attribute | SSAValue] | bool | None:
        vm = op_value_map(op)
        folded = substitute_constants(vm)
        if folded is None:
            return None
        values = [constant_result(r) for r in folded.results]
        if all(v is not None for v in values):
            pick = min if is_min else max
            return [IntegerAttr(pick(v for v in values if v is not None), IndexType())]
        if (
            folded.num_symbols == 1
            and folded.num_dims == 0
            and folded.results == (AffineExpr.symbol(0),)
        ):
            return [op.operands[0]]
        if folded == vm.map:
            return None
        op.properties["map"] = AffineMapAttr(folded)
        return True

    return fold


FOLDERS: dict[str, Folder] = {
    "affine.apply": fold_apply,
    "affine.min": _fold_min_max(True),
    "affine.max": _fold_min_max(False),
}


# --- patterns ---------------------------------------------------------------------------------


def _new_affine(name: str, vm: ValueMap, loc_op: Operation, rw: CanonRewriter) -> Operation:
    cls = {"affine.apply": ApplyOp, "affine.min": MinOp, "affine.max": MaxOp}[name]
    return rw.create(cls(list(vm.operands), AffineMapAttr(vm.map)), loc_op)


def simplify_apply(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `SimplifyAffineOp<AffineApplyOp>`."""
    old = op_value_map(op)
    new = simplify_value_map(old)
    if new is None or new == old:
        return False
    rw.replace_with_op(op, ApplyOp(list(new.operands), AffineMapAttr(new.map)))
    return True


def _dedupe(results: Sequence[AffineExpr]) -> list[AffineExpr]:
    seen: list[AffineExpr] = []
    for r in results:
        if r not in seen:
            seen.append(r)
    return seen


def simplify_min_max(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's SimplifyAffineOp, DeduplicateAffineMinMaxExpressions, MergeAffineMinMaxOp
    and CanonicalizeSingleResultAffineMinMaxOp for affine.min / affine.max."""
    is_min = op.name == "affine.min"
    old = op_value_map(op)
    if len(old.map.results) == 1:
        rw.replace_with_op(op, ApplyOp(list(old.operands), AffineMapAttr(old.map)))
        return True
    merged = _merge_nested(old, op.name)
    vm = simplify_value_map(merged if merged is not None else old)
    if vm is None:
        return False
    results = _dedupe(vm.map.results)
    results = _drop_dominated(results, len(vm.operands), is_min)
    vm = ValueMap(AffineMap(vm.map.num_dims, vm.map.num_symbols, tuple(results)), vm.operands)
    if vm == old:
        return False
    cls = MinOp if is_min else MaxOp
    rw.replace_with_op(op, cls(list(vm.operands), AffineMapAttr(vm.map)))
    return True


def _merge_nested(vm: ValueMap, name: str) -> ValueMap | None:
    """Results that are just an operand produced by the same kind of min/max are replaced
    by that producer's results (upstream's MergeAffineMinMaxOp)."""
    nd = vm.map.num_dims
    operands = list(vm.operands)
    new_results: list[AffineExpr] = []
    changed = False
    num_dims, num_syms = nd, vm.map.num_symbols
    extra_dims: list[SSAValue] = []
    extra_syms: list[SSAValue] = []
    for r in vm.map.results:
        position = (
            r.position
            if isinstance(r, AffineDimExpr)
            else (nd + r.position if isinstance(r, AffineSymExpr) else None)
        )
        producer = operands[position].owner if position is not None else None
        if isinstance(producer, Operation) and producer.name == name:
            inner = op_value_map(producer)
            ind = inner.map.num_dims
            dims = [AffineExpr.dimension(num_dims + len(extra_dims) + i) for i in range(ind)]
            syms = [
                AffineExpr.symbol(num_syms + len(extra_syms) + i)
                for i in range(inner.map.num_symbols)
            ]
            extra_dims.extend(inner.operands[:ind])
            extra_syms.extend(inner.operands[ind:])
            new_results.extend(e.replace_dims_and_symbols(dims, syms) for e in inner.map.results)
            changed = True
        else:
            new_results.append(r)
    if not changed:
        return None
    total_dims = num_dims + len(extra_dims)
    # Symbols of the original map follow all dims: shift their positions.
    shifted = [
        e.replace_dims_and_symbols(
            [AffineExpr.dimension(i) for i in range(total_dims)],
            [AffineExpr.symbol(i) for i in range(num_syms + len(extra_syms))],
        )
        for e in new_results
    ]
    new_operands = operands[:nd] + extra_dims + operands[nd:] + extra_syms
    return ValueMap(
        AffineMap(total_dims, num_syms + len(extra_syms), tuple(shifted)), tuple(new_operands)
    )


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
    if loop.name == "scf.for" and value.index == 0:
        lb, ub, step = (constant_int(v) for v in loop.operands[:3])
    elif loop.name == "scf.forall":
        from schedir.dialects.scf import ForallOp

        assert isinstance(loop, ForallOp)
        if value.index >= loop.rank:
            return None
        lb = constant_int(loop.lower_bounds[value.index])
        ub = constant_int(loop.upper_bounds[value.index])
        step = constant_int(loop.steps[value.index])
    elif loop.name == "scf.parallel":
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
    operands, whatever the unranged ones are."""
    expr = _simplify_expr(expr, num_dims, len(ranges) - num_dims)
    as_dims = expr.replace_dims_and_symbols(
        [AffineExpr.dimension(i) for i in range(num_dims)],
        [AffineExpr.dimension(num_dims + i) for i in range(len(ranges) - num_dims)],
    )
    used: set[int] = set()
    _used(as_dims, used, set())
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
    for point in itertools.product(
        *(range(ranges[i].lb, ranges[i].max_value + 1) for i in positions)
    ):  # type: ignore[union-attr]
        for i, v in zip(positions, point, strict=True):
            values[i] = v
        if as_dims.eval(values, ()) < 0:
            return False
    return True


def simplify_min_max_in_loops(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `AffineOpSCFCanonicalizationPattern`: replace a min (max) by the result
    that bounds all others over the loop ranges of its induction-variable operands."""
    is_min = op.name == "affine.min"
    vm = op_value_map(op)
    ranges = [loop_iv_range(v) for v in vm.operands]
    if not any(r is not None for r in ranges):
        return False
    nd = vm.map.num_dims
    results = vm.map.results
    for k, candidate in enumerate(results):
        ok = True
        for i, other in enumerate(results):
            if i == k:
                continue
            diff = other - candidate if is_min else candidate - other
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
        expr = candidate.replace_dims_and_symbols(subs[:nd], subs[nd:])
        new = simplify_value_map(ValueMap(AffineMap(nd, vm.map.num_symbols, (expr,)), vm.operands))
        if new is None:
            return False
        rw.replace_with_op(op, ApplyOp(list(new.operands), AffineMapAttr(new.map)))
        return True
    return False


def patterns() -> PatternSet:
    return (
        PatternSet()
        .add("affine.apply", simplify_apply)
        .add("affine.min", simplify_min_max)
        .add("affine.max", simplify_min_max)
    )


def loop_min_max_patterns() -> PatternSet:
    return (
        PatternSet()
        .add("affine.min", simplify_min_max_in_loops)
        .add("affine.max", simplify_min_max_in_loops)
    )


__all__ = [
    "FOLDERS",
    "ValueMap",
    "is_valid_symbol",
    "loop_iv_range",
    "loop_min_max_patterns",
    "op_value_map",
    "patterns",
    "simplify_min_max",
    "simplify_min_max_in_loops",
    "simplify_value_map",
]
