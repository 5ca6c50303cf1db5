"""affine.apply / min / max folding and simplification (upstream AffineOps.cpp).

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
* the simplification of min/max over loop induction variables is in
  `affine_loops`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import affine, arith, func, llvm, memref, tensor
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from schedir.dialects import gpu
from schedir.dialects.affine import ApplyOp, LoadOp, MaxOp, MinOp, StoreOp
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import Folder, PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter

AFFINE_SCOPES: tuple[type[Operation], ...] = (
    func.FuncOp,
    gpu.FuncOp,
    gpu.LaunchOp,
    ModuleOp,
    llvm.FuncOp,
)
"""Ops whose regions define an affine scope (upstream's `AffineScope` trait)."""

_MAX_COMPOSE_DEPTH = 32


# --- valid symbols ----------------------------------------------------------------------------


def _is_top_level(value: SSAValue) -> bool:
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
    else:
        assert isinstance(value, OpResult)
        owner = value.op.parent_op()
    return isinstance(owner, AFFINE_SCOPES)


def is_valid_symbol(value: SSAValue) -> bool:
    """Upstream's `isValidSymbol` (without a region): top-level values of an affine scope,
    constants, and affine.apply / dim of valid symbols."""
    if _is_top_level(value):
        return True
    if isinstance(value, OpResult):
        op = value.op
        if isinstance(op, arith.ConstantOp):
            return True
        if isinstance(op, affine.ApplyOp | affine.MinOp | MaxOp):
            return all(is_valid_symbol(v) for v in op.operands)
        if isinstance(op, tensor.DimOp | memref.DimOp):
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


def simplify_expr(expr: AffineExpr, num_dims: int, num_symbols: int) -> AffineExpr:
    try:
        return expr.simplify(num_dims, num_symbols)
    except (NotImplementedError, ValueError, AssertionError, ZeroDivisionError):
        return expr


def collect_positions(expr: AffineExpr, dims: set[int], syms: set[int]) -> None:
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
    composed = _compose(vm) if compose else vm
    canonical = canonicalize_map_and_operands(composed)
    m = canonical.map
    results = tuple(simplify_expr(r, m.num_dims, m.num_symbols) for r in m.results)
    # Simplification may drop uses (d0 - d0); upstream drops them on its next round.
    return canonicalize_map_and_operands(
        ValueMap(AffineMap(m.num_dims, m.num_symbols, results), canonical.operands)
    )


def _replace_one(
    expr: AffineExpr, nd: int, ns: int, is_dim: bool, pos: int, new: AffineExpr
) -> AffineExpr:
    dims = [AffineExpr.dimension(i) for i in range(nd)]
    syms = [AffineExpr.symbol(i) for i in range(ns)]
    (dims if is_dim else syms)[pos] = new
    return expr.replace_dims_and_symbols(dims, syms)


def _compose(vm: ValueMap) -> ValueMap:
    """Upstream's `composeAffineMapAndOperands`: operands produced by `affine.apply` are
    replaced by its (canonicalized) map; its dims and symbols are appended."""
    nd = vm.map.num_dims
    dims: list[SSAValue | None] = list(vm.operands[:nd])
    syms: list[SSAValue | None] = list(vm.operands[nd:])
    results = list(vm.map.results)
    for _ in range(_MAX_COMPOSE_DEPTH * 8):
        changed = False
        for pos in range(len(dims) + len(syms)):
            is_dim = pos < len(dims)
            index = pos if is_dim else pos - len(dims)
            value = dims[index] if is_dim else syms[index]
            owner = value.owner if value is not None else None
            if not isinstance(owner, affine.ApplyOp):
                continue
            inner = canonicalize_map_and_operands(op_value_map(owner))
            ind = inner.map.num_dims
            shifted = inner.map.results[0].replace_dims_and_symbols(
                [AffineExpr.dimension(len(dims) + k) for k in range(ind)],
                [AffineExpr.symbol(len(syms) + k) for k in range(inner.map.num_symbols)],
            )
            if is_dim:
                dims[index] = None
            else:
                syms[index] = None
            dims.extend(inner.operands[:ind])
            syms.extend(inner.operands[ind:])
            results = [
                _replace_one(r, len(dims), len(syms), is_dim, index, shifted) for r in results
            ]
            changed = True
            break
        if not changed:
            break
    # Prune the replaced operands.
    dim_subs: list[AffineExpr] = []
    sym_subs: list[AffineExpr] = []
    operands: list[SSAValue] = []
    kept_dims = 0
    for value in dims:
        dim_subs.append(
            AffineExpr.constant(0) if value is None else AffineExpr.dimension(kept_dims)
        )
        if value is not None:
            operands.append(value)
            kept_dims += 1
    kept_syms = 0
    for value in syms:
        sym_subs.append(AffineExpr.constant(0) if value is None else AffineExpr.symbol(kept_syms))
        if value is not None:
            operands.append(value)
            kept_syms += 1
    results = [r.replace_dims_and_symbols(dim_subs, sym_subs) for r in results]
    return ValueMap(AffineMap(kept_dims, kept_syms, tuple(results)), tuple(operands))


def canonicalize_map_and_operands(vm: ValueMap) -> ValueMap:
    """Upstream's `canonicalizeMapAndOperands`: dims that are valid symbols become
    symbols (after the existing ones), unused operands are dropped, repeated operands
    merged, constant symbols substituted."""
    m = vm.map
    nd, ns = m.num_dims, m.num_symbols
    if not vm.operands:
        return vm
    # Promote valid symbols in dim positions.
    dim_remap: list[AffineExpr] = []
    kept_dims: list[SSAValue] = []
    promoted: list[SSAValue] = []
    for value in vm.operands[:nd]:
        if is_valid_symbol(value):
            dim_remap.append(AffineExpr.symbol(ns + len(promoted)))
            promoted.append(value)
        else:
            dim_remap.append(AffineExpr.dimension(len(kept_dims)))
            kept_dims.append(value)
    syms = [*vm.operands[nd:], *promoted]
    results = [
        r.replace_dims_and_symbols(dim_remap, [AffineExpr.symbol(i) for i in range(ns)])
        for r in m.results
    ]
    nd, ns = len(kept_dims), len(syms)
    used_dims: set[int] = set()
    used_syms: set[int] = set()
    for r in results:
        collect_positions(r, used_dims, used_syms)
    operands: list[SSAValue] = []
    dim_subs: list[AffineExpr] = [AffineExpr.constant(0)] * nd
    seen: dict[SSAValue, AffineExpr] = {}
    next_dim = 0
    for i, value in enumerate(kept_dims):
        if i not in used_dims:
            continue
        if value in seen:
            dim_subs[i] = seen[value]
            continue
        dim_subs[i] = seen[value] = AffineExpr.dimension(next_dim)
        next_dim += 1
        operands.append(value)
    sym_subs: list[AffineExpr] = [AffineExpr.constant(0)] * ns
    seen_syms: dict[SSAValue, AffineExpr] = {}
    next_sym = 0
    for i, value in enumerate(syms):
        if i not in used_syms:
            continue
        c = constant_int(value)
        if c is not None:
            sym_subs[i] = AffineExpr.constant(c)
            continue
        if value in seen_syms:
            sym_subs[i] = seen_syms[value]
            continue
        sym_subs[i] = seen_syms[value] = AffineExpr.symbol(next_sym)
        next_sym += 1
        operands.append(value)
    results = [r.replace_dims_and_symbols(dim_subs, sym_subs) for r in results]
    return ValueMap(AffineMap(next_dim, next_sym, tuple(results)), tuple(operands))


def composed_folded_apply(
    rw: CanonRewriter, map_: AffineMap, operands: Sequence[SSAValue], loc: Operation
) -> SSAValue:
    """Upstream's `makeComposedFoldedAffineApply` + `getValueOrCreateConstantIndexOp`:
    the composed, canonicalized apply; an operand when the map is one of them, a constant
    when it folds, else a new `affine.apply`."""
    vm = simplify_value_map(ValueMap(map_, tuple(operands)))
    if vm is None:
        return rw.create(ApplyOp(list(operands), AffineMapAttr(map_)), loc).results[0]
    expr = vm.map.results[0]
    if isinstance(expr, AffineConstantExpr):
        return rw.constant_index(expr.value, loc)
    if isinstance(expr, AffineDimExpr):
        return vm.operands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return vm.operands[vm.map.num_dims + expr.position]
    return rw.create(ApplyOp(list(vm.operands), AffineMapAttr(vm.map)), loc).results[0]


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
            folded = simplify_expr(
                r.replace_dims_and_symbols(subs[:nd], subs[nd:]), nd, vm.map.num_symbols
            )
        except (NotImplementedError, ValueError, ZeroDivisionError):
            folded = r  # semi-affine: xDSL cannot rebuild it with a non-constant divisor
        results.append(folded if isinstance(folded, AffineConstantExpr) else r)
    return AffineMap(nd, vm.map.num_symbols, tuple(results))


# --- folders ----------------------------------------------------------------------------------


def fold_apply(op: Operation) -> list[Attribute | SSAValue] | None:
    vm = op_value_map(op)
    # Upstream's parser already simplifies `(d0 * 16) mod 16 + d0 floordiv 1` to `d0`.
    expr = simplify_expr(vm.map.results[0], vm.map.num_dims, vm.map.num_symbols)
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


FOLDERS: dict[type[Operation], Folder] = {
    ApplyOp: fold_apply,
    MinOp: _fold_min_max(True),
    MaxOp: _fold_min_max(False),
}


# --- patterns ---------------------------------------------------------------------------------


def simplify_apply(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `SimplifyAffineOp<AffineApplyOp>`."""
    old = op_value_map(op)
    new = simplify_value_map(old)
    if new is None or new == old:
        return False
    rw.replace_with_op(op, ApplyOp(list(new.operands), AffineMapAttr(new.map)))
    return True


def simplify_access(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `SimplifyAffineOp<AffineLoadOp / AffineStoreOp>`: the access map is
    composed with its `affine.apply` producers and canonicalized (constant indices fold
    into it, unused and repeated indices are dropped); unlike upstream, indices stay
    dimensions (see below)."""
    # The map operands follow the memref (and the stored value).
    start = 1 if isinstance(op, affine.LoadOp) else 2
    attr = op.properties["map"]
    assert isinstance(attr, AffineMapAttr)
    old = ValueMap(attr.data, tuple(op.operands[start:]))
    new = simplify_value_map(old)
    if new is None:
        return False
    # schedir's affine syntax has no `symbol(%x)`: every index is printed and parsed as a
    # dimension. Symbols become trailing dimensions so that the op prints as it means.
    m = new.map
    if m.num_symbols:
        dims = [AffineExpr.dimension(m.num_dims + i) for i in range(m.num_symbols)]
        m = m.replace_dims_and_symbols(
            [AffineExpr.dimension(i) for i in range(m.num_dims)],
            dims,
            m.num_dims + m.num_symbols,
            0,
        )
        new = ValueMap(m, new.operands)
    if new == old:
        return False
    replacement = op.clone()
    replacement.operands = [*op.operands[:start], *new.operands]
    replacement.properties["map"] = AffineMapAttr(new.map)
    rw.replace_with_op(op, replacement)
    return True


def _dedupe(results: Sequence[AffineExpr]) -> list[AffineExpr]:
    seen: list[AffineExpr] = []
    for r in results:
        if r not in seen:
            seen.append(r)
    return seen


def simplify_min_max(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's min/max patterns, applied together: CanonicalizeSingleResultAffineMinMaxOp
    (one result -> apply), MergeAffineMinMaxOp (a result that is a min/max of the same
    kind takes its results), SimplifyAffineOp (compose, canonicalize, simplify),
    DeduplicateAffineMinMaxExpressions and CanonicalizeAffineMinMaxOpExprAndTermOrder
    (results sorted by their flattened coefficients)."""
    old = op_value_map(op)
    if len(old.map.results) == 1:
        rw.replace_with_op(op, ApplyOp(list(old.operands), AffineMapAttr(old.map)))
        return True
    is_min = isinstance(op, affine.MinOp)
    merged = _merge_nested(old, affine.MinOp if is_min else MaxOp)
    vm = simplify_value_map(merged if merged is not None else old)
    if vm is None:
        return False
    results = sort_results(_dedupe(vm.map.results), vm.map.num_dims, vm.map.num_symbols)
    vm = ValueMap(AffineMap(vm.map.num_dims, vm.map.num_symbols, tuple(results)), vm.operands)
    if vm == old:
        return False
    cls = MinOp if is_min else MaxOp
    rw.replace_with_op(op, cls(list(vm.operands), AffineMapAttr(vm.map)))
    return True


def _flat(expr: AffineExpr, nd: int, ns: int) -> list[int] | None:
    """The flattened coefficients [dims, symbols, constant] of a linear expression (None
    when flattening would need local variables: mod, floordiv, ceildiv, products)."""
    for node in expr.dfs():
        if isinstance(node, AffineBinaryOpExpr) and (
            node.kind != AffineBinaryOpKind.Add
            and not (
                node.kind == AffineBinaryOpKind.Mul and isinstance(node.rhs, AffineConstantExpr)
            )
        ):
            return None
    # Linear: each coefficient is the change under a unit probe.
    zeros_d, zeros_s = [0] * nd, [0] * ns
    const = expr.eval(zeros_d, zeros_s)
    coeffs: list[int] = []
    for i in range(nd):
        probe = list(zeros_d)
        probe[i] = 1
        coeffs.append(expr.eval(probe, zeros_s) - const)
    for i in range(ns):
        probe = list(zeros_s)
        probe[i] = 1
        coeffs.append(expr.eval(zeros_d, probe) - const)
    return [*coeffs, const]


def sort_results(results: list[AffineExpr], nd: int, ns: int) -> list[AffineExpr]:
    """Upstream's `canonicalizeMapExprAndTermOrder`: results sorted by their flattened
    coefficient vectors (unchanged if one is not pure affine or needs local variables)."""
    keys = [_flat(r, nd, ns) for r in results]
    flat = [k for k in keys if k is not None]
    if len(flat) != len(keys):
        return results
    order = sorted(range(len(results)), key=lambda i: flat[i])
    return [results[i] for i in order]


def _merge_nested(vm: ValueMap, kind: type[Operation]) -> ValueMap | None:
    """Upstream's MergeAffineMinMaxOp: results that are just an operand produced by the
    same kind of min/max are replaced by that producer's results (appended last)."""
    nd, ns = vm.map.num_dims, vm.map.num_symbols
    dim_operands = list(vm.operands[:nd])
    sym_operands = list(vm.operands[nd:])
    kept: list[AffineExpr] = []
    producers: list[Operation] = []
    for r in vm.map.results:
        value = None
        if isinstance(r, AffineDimExpr):
            value = dim_operands[r.position]
        elif isinstance(r, AffineSymExpr):
            value = sym_operands[r.position]
        owner = value.owner if value is not None else None
        if isinstance(owner, kind):
            producers.append(owner)
            continue
        kept.append(r)
    if not producers:
        return None
    used_dims, used_syms = nd, ns
    new_dims, new_syms = list(dim_operands), list(sym_operands)
    appended: list[tuple[AffineExpr, int, int]] = []
    for producer in producers:
        inner = op_value_map(producer)
        pd, ps = inner.map.num_dims, inner.map.num_symbols
        new_dims.extend(inner.operands[:pd])
        new_syms.extend(inner.operands[pd:])
        for e in inner.map.results:
            appended.append((e, used_dims, used_syms))
        used_dims += pd
        used_syms += ps
    results = list(kept)
    for e, dim_offset, sym_offset in appended:
        results.append(
            e.replace_dims_and_symbols(
                [AffineExpr.dimension(dim_offset + k) for k in range(used_dims - dim_offset)],
                [AffineExpr.symbol(sym_offset + k) for k in range(used_syms - sym_offset)],
            )
        )
    return ValueMap(AffineMap(used_dims, used_syms, tuple(results)), tuple(new_dims + new_syms))


def patterns() -> PatternSet:
    return (
        PatternSet()
        .add(ApplyOp, simplify_apply)
        .add(MinOp, simplify_min_max)
        .add(MaxOp, simplify_min_max)
        .add(LoadOp, simplify_access)
        .add(StoreOp, simplify_access)
    )


__all__ = [
    "FOLDERS",
    "ValueMap",
    "collect_positions",
    "is_valid_symbol",
    "op_value_map",
    "patterns",
    "simplify_expr",
    "simplify_min_max",
    "simplify_value_map",
]
