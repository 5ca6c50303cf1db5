"""scf.for unrolling and peeling (upstream SCF/Utils/Utils.cpp `loopUnrollByFactor`,
SCF/Transforms/LoopSpecialization.cpp `peelForLoopAndSimplifyBounds` /
`peelForLoopFirstIteration`, AffineCanonicalizationUtils.cpp `rewritePeeledMinMaxOp`).

Unrolling by `f` (trip count `n`): the loop's upper bound becomes `lb + (n - n mod f) *
step`, its step `step * f`, and its body is repeated `f` times (copy `i` uses
`iv + step * i` and the previous copy's yielded values); when `f` does not divide `n`, a
copy of the original loop after it runs the remainder. Either loop is inlined when it
runs exactly once. Dynamic bounds compute the same with arith ops.

    scf.for %i = %c0 to %c10 step %c1 { "body"(%i) }      // unroll by 4 ->
    scf.for %i = %c0 to %c8 step %c4 {
      "body"(%i)  "body"(%i + 1)  "body"(%i + 2)  "body"(%i + 3)
    }
    scf.for %i = %c8 to %c10 step %c1 { "body"(%i) }

Peeling the last iteration splits `lb..ub` at `max(ub - (ub - lb) mod step, lb)` into a
main loop of full steps and a partial loop; `affine.min` / `affine.max` ops in both are
simplified with what each knows (`ub - iv >= step` in the main loop, `< step` in the
partial one). Peeling the first iteration splits at `lb + step`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
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
from schedir.dialects.semi_affine import SemiAffineError, binary, is_multiple_of, substitute
from schedir.transform.rewrites.canonicalize.affine import (
    ValueMap,
    op_value_map,
    simplify_value_map,
    substitute_constants,
)
from schedir.transform.rewrites.canonicalize.scf import trip_count
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.rewriter import CanonRewriter


def _rewriter(anchor: Operation, listener: PatternRewriterListener | None) -> CanonRewriter:
    return CanonRewriter(InsertPoint.before(anchor), listener)


def _const(rw: CanonRewriter, value: int, type_: object, loc: Operation) -> SSAValue:
    attr = IntegerAttr(value, type_)  # type: ignore[arg-type]  # xDSL types the attribute's type parameter narrower than the int/float type checked here
    const = rw.create(arith.ConstantOp(attr), loc)
    if isinstance(type_, IndexType) and value >= 0:
        const.results[0].name_hint = f"c{value}"
    return const.results[0]


def _set_operand(op: Operation, index: int, value: SSAValue) -> None:
    operands = list(op.operands)
    operands[index] = value
    op.operands = operands


# --- promotion ---------------------------------------------------------------------------------


def promote_if_single_iteration(rw: CanonRewriter, loop: Operation) -> bool:
    """Upstream's `ForOp::promoteIfSingleIteration`: inline a loop that runs once."""
    assert isinstance(loop, scf.ForOp)
    if trip_count(loop.lb, loop.ub, loop.step) != 1:
        return False
    block = loop.body.block
    terminator = block.last_op
    assert terminator is not None
    for result, value in zip(loop.results, terminator.operands, strict=True):
        rw.replace_all_uses_with(result, value)
    for arg, value in zip(block.args, [loop.lb, *loop.iter_args], strict=True):
        arg.replace_all_uses_with(value)
    for op in list(block.ops):
        if op is terminator:
            break
        rw.move_op(op, InsertPoint.before(loop))
    rw.erase(terminator)
    rw.erase(loop)
    return True


# --- unrolling ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnrollResult:
    """The unrolled loop and the remainder loop (None when inlined or not needed)."""

    main: Operation | None
    epilogue: Operation | None


MAX_UNROLL_COPIES = 1 << 16
"""The most copies of a loop body unrolling may create: beyond it the rewrite would not
finish (upstream duplicates the body `factor` times whatever the factor)."""


class UnrollTooLarge(ValueError):
    """Unrolling would copy the body more than `MAX_UNROLL_COPIES` times."""


def _check_copies(copies: int) -> None:
    if copies > MAX_UNROLL_COPIES:
        raise UnrollTooLarge(
            f"unrolling by {copies} would copy the loop body more than the supported "
            f"maximum of {MAX_UNROLL_COPIES} times"
        )


def unroll_by_factor(
    loop: Operation, factor: int, listener: PatternRewriterListener | None = None
) -> UnrollResult:
    """Upstream's `loopUnrollByFactor` for `scf.for`.

    A factor above a static trip count leaves the unrolled loop without iterations (all
    of them run in the epilogue), so its body is not copied; otherwise more than
    `MAX_UNROLL_COPIES` copies raise `UnrollTooLarge` before anything changes.
    """
    assert isinstance(loop, scf.ForOp) and factor > 0
    rw = _rewriter(loop, listener)
    block = loop.body.block
    if len(list(block.ops)) == 1:
        return UnrollResult(loop, None)
    step = loop.step
    lb, ub, st = constant_int(loop.lb), constant_int(loop.ub), constant_int(loop.step)
    index_type = loop.lb.type
    generate_epilogue = True
    copies = factor
    if lb is not None and ub is not None and st is not None and st > 0:
        count = trip_count(lb, ub, st)
        assert count is not None
        if factor == 1:
            if count == 1:
                promote_if_single_iteration(rw, loop)
                return UnrollResult(None, None)
            return UnrollResult(loop, None)
        even = count - count % factor
        if even == 0:
            # No unrolled iteration runs: keep the step (st * factor may not fit in an
            # index) and one body.
            factor = copies = 1
        _check_copies(copies)
        ub_unrolled_value = lb + even * st
        step_unrolled_value = st * factor
        generate_epilogue = ub_unrolled_value < ub
        rw.set_insertion_point(loop)
        ub_unrolled = (
            _const(rw, ub_unrolled_value, index_type, loop) if generate_epilogue else loop.ub
        )
        step_unrolled = (
            step if step_unrolled_value == st else _const(rw, step_unrolled_value, index_type, loop)
        )
    else:
        _check_copies(copies)
        rw.set_insertion_point(loop)
        diff = rw.create(arith.SubiOp(loop.ub, loop.lb), loop).results[0]
        one = _const(rw, 1, index_type, loop)
        step_minus_one = rw.create(arith.SubiOp(step, one), loop).results[0]
        total = rw.create(arith.AddiOp(diff, step_minus_one), loop).results[0]
        count_value = rw.create(arith.DivUIOp(total, step), loop).results[0]
        factor_value = _const(rw, factor, index_type, loop)
        remainder = rw.create(arith.RemSIOp(count_value, factor_value), loop).results[0]
        even_value = rw.create(arith.SubiOp(count_value, remainder), loop).results[0]
        scaled = rw.create(arith.MuliOp(even_value, step), loop).results[0]
        ub_unrolled = rw.create(arith.AddiOp(loop.lb, scaled), loop).results[0]
        step_unrolled = rw.create(arith.MuliOp(step, factor_value), loop).results[0]
    epilogue: Operation | None = None
    if generate_epilogue:
        clone = loop.clone()
        rw.insert(clone, InsertPoint.after(loop))
        for result, new in zip(loop.results, clone.results, strict=True):
            rw.replace_all_uses_with(result, new)
        clone.operands = [ub_unrolled, clone.operands[1], clone.operands[2], *loop.results]
        epilogue = clone if not promote_if_single_iteration(rw, clone) else None
    loop.operands = [loop.lb, ub_unrolled, step_unrolled, *loop.iter_args]
    _generate_unrolled_body(rw, loop, factor, step)
    if promote_if_single_iteration(rw, loop):
        return UnrollResult(None, epilogue)
    return UnrollResult(loop, epilogue)


def _generate_unrolled_body(
    rw: CanonRewriter, loop: scf.ForOp, factor: int, step: SSAValue
) -> None:
    """Upstream's `generateUnrolledLoop`: append `factor - 1` copies of the body."""
    block: Block = loop.body.block
    terminator = block.last_op
    assert terminator is not None
    body = [op for op in block.ops if op is not terminator]
    iv = block.args[0]
    iter_args = list(block.args[1:])
    yielded = list(terminator.operands)
    last = list(yielded)
    rw.set_insertion_point(terminator)
    for i in range(1, factor):
        mapper: dict[SSAValue, SSAValue] = dict(zip(iter_args, last, strict=True))
        if iv.uses:
            index = _const(rw, i, iv.type, loop)
            stride = rw.create(arith.MuliOp(step, index), loop).results[0]
            mapper[iv] = rw.create(arith.AddiOp(iv, stride), loop).results[0]
        for op in body:
            clone = op.clone(value_mapper=mapper)
            rw.insert(clone)
        last = [mapper.get(v, v) for v in yielded]
    terminator.operands = last
    rw.modified(terminator)


# --- peeling -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PeelResult:
    """The main loop (full steps) and the peeled loop (partial, or first, iteration)."""

    main: Operation
    peeled: Operation


def peel_last_iteration(
    loop: Operation, listener: PatternRewriterListener | None = None
) -> PeelResult | None:
    """Upstream's `peelForLoopAndSimplifyBounds`; None when the step already divides the
    iteration space (or the step is at most 1)."""
    assert isinstance(loop, scf.ForOp)
    rw = _rewriter(loop, listener)
    lb, ub, st = constant_int(loop.lb), constant_int(loop.ub), constant_int(loop.step)
    if st is not None and st <= 1:
        return None
    if lb is not None and ub is not None and st is not None and (ub - lb) % st == 0:
        return None
    s0, s1, s2 = (AffineExpr.symbol(i) for i in range(3))
    # `% s2` is semi-affine: xDSL's operators refuse it, so the node is built directly.
    remainder = AffineBinaryOpExpr(AffineBinaryOpKind.Mod, s1 - s0, s2)
    bounds = ValueMap(AffineMap(0, 3, (remainder,)), (loop.lb, loop.ub, loop.step))
    composed = simplify_value_map(bounds)
    if composed is not None and composed.map.results == (AffineExpr.constant(0),):
        return None
    if _span_is_multiple_of_step(loop):
        return None
    previous_ub = loop.ub
    rw.set_insertion_point(loop)
    split_map = AffineMap(0, 3, (s1 - remainder, s0))
    split = _create_or_fold(rw, MaxOp, split_map, [loop.lb, loop.ub, loop.step], loop)
    partial = loop.clone()
    rw.insert(partial, InsertPoint.after(loop))
    for result, new in zip(loop.results, partial.results, strict=True):
        rw.replace_all_uses_with(result, new)
    partial.operands = [split, partial.operands[1], partial.operands[2], *loop.results]
    loop.operands = [loop.lb, split, loop.step, *loop.iter_args]
    rw.modified(loop)
    _rewrite_min_max_after_peeling(rw, loop, partial, previous_ub)
    return PeelResult(loop, partial)


def _span_is_multiple_of_step(loop: scf.ForOp) -> bool:
    """Upstream's slow path: `(ub - lb) mod step` composed through the `affine.apply`s
    defining the bounds folds to 0, semi-affine expressions included (an upper bound
    `ub - (ub - lb) mod step` is already peeled)."""
    leaves: list[SSAValue] = []

    def leaf(value: SSAValue) -> AffineExpr:
        for index, seen in enumerate(leaves):
            if seen is value:
                return AffineExpr.symbol(index)
        leaves.append(value)
        return AffineExpr.symbol(len(leaves) - 1)

    def expr_of(value: SSAValue, depth: int = 0) -> AffineExpr:
        constant = constant_int(value)
        if constant is not None:
            return AffineExpr.constant(constant)
        owner = value.owner
        if isinstance(owner, ApplyOp | affine.ApplyOp) and depth < 8:
            amap = owner.map.data
            args = [expr_of(o, depth + 1) for o in owner.operands]
            return substitute(amap.results[0], args[: amap.num_dims], args[amap.num_dims :])
        return leaf(value)

    try:
        span = binary(AffineBinaryOpKind.Add, expr_of(loop.ub), expr_of(loop.lb) * -1)
        return is_multiple_of(span, expr_of(loop.step))
    except (SemiAffineError, NotImplementedError, ZeroDivisionError):
        return False


def _create_or_fold(
    rw: CanonRewriter,
    cls: type[MinOp | MaxOp],
    map_: AffineMap,
    operands: Sequence[SSAValue],
    loc: Operation,
) -> SSAValue:
    """`createOrFold<AffineMinOp / AffineMaxOp>`: a constant when every result folds,
    else the op with its constant-valued results folded in."""
    folded = substitute_constants(ValueMap(map_, tuple(operands)))
    if folded is not None:
        values = [constant_int_expr(r) for r in folded.results]
        if all(v is not None for v in values):
            pick = min if cls is MinOp else max
            return _const(rw, pick(v for v in values if v is not None), IndexType(), loc)
        map_ = folded
    return rw.create(cls(list(operands), AffineMapAttr(map_)), loc).results[0]


def constant_int_expr(expr: AffineExpr) -> int | None:
    return expr.value if isinstance(expr, AffineConstantExpr) else None


def peel_first_iteration(
    loop: Operation, listener: PatternRewriterListener | None = None
) -> PeelResult | None:
    """Upstream's `peelForLoopFirstIteration`: split at `min(lb + step, ub)`; None when
    the loop is known to run at most once."""
    assert isinstance(loop, scf.ForOp)
    rw = _rewriter(loop, listener)
    lb, ub, st = constant_int(loop.lb), constant_int(loop.ub), constant_int(loop.step)
    if lb is not None and ub is not None and st is not None and st > 0 and -(-(ub - lb) // st) <= 1:
        return None
    rw.set_insertion_point(loop)
    s0, s1, s2 = (AffineExpr.symbol(i) for i in range(3))
    split_map = AffineMap(0, 3, (s0 + s1, s2))
    split = _create_or_fold(rw, MinOp, split_map, [loop.lb, loop.step, loop.ub], loop)
    first = loop.clone(value_mapper={loop.ub: split})
    rw.insert(first, InsertPoint.before(loop))
    first.operands = [first.operands[0], split, *first.operands[2:]]
    loop.operands = [split, loop.ub, loop.step, *first.results]
    rw.modified(loop)
    return PeelResult(loop, first)


def _rewrite_min_max_after_peeling(
    rw: CanonRewriter, main: scf.ForOp, partial: scf.ForOp, previous_ub: SSAValue
) -> None:
    step = main.step
    for loop, inside in ((main, True), (partial, False)):
        iv = loop.body.block.args[0]
        for op in [o for o in loop.walk() if isinstance(o, affine.MinOp | MaxOp)]:
            rewrite_peeled_min_max(rw, op, iv, previous_ub, step, inside)


# --- min/max simplification in peeled loops ------------------------------------------------------

Linear = dict[object, Fraction]
"""A linear form: variable (an SSA value, or "const") -> coefficient."""


def _linear(expr: AffineExpr, operands: Sequence[SSAValue], num_dims: int) -> Linear | None:
    """`expr` over `operands` as a linear form over SSA values (None if not linear)."""
    try:
        flat = expr.simplify(num_dims, len(operands) - num_dims)
    except (NotImplementedError, ValueError, ZeroDivisionError):
        return None
    form: Linear = {}

    def add(key: object, value: Fraction) -> None:
        form[key] = form.get(key, Fraction(0)) + value

    def visit(node: AffineExpr, scale: Fraction) -> bool:
        if isinstance(node, AffineConstantExpr):
            add("const", scale * node.value)
            return True
        if isinstance(node, AffineDimExpr):
            value = operands[node.position]
        elif isinstance(node, AffineSymExpr):
            value = operands[num_dims + node.position]
        else:
            if not isinstance(node, AffineBinaryOpExpr):
                return False
            if node.kind == AffineBinaryOpKind.Add:
                return visit(node.lhs, scale) and visit(node.rhs, scale)
            if node.kind == AffineBinaryOpKind.Mul and isinstance(node.rhs, AffineConstantExpr):
                return visit(node.lhs, scale * node.rhs.value)
            return False
        c = constant_int(value)
        if c is not None:
            add("const", scale * c)
        else:
            add(value, scale)
        return True

    return form if visit(flat, Fraction(1)) else None


def _subtract(a: Linear, b: Linear) -> Linear:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, Fraction(0)) - v
    return {k: v for k, v in out.items() if v != 0}


def _implied_nonnegative(d: Linear, constraint: Linear) -> bool:
    """Whether d >= 0 follows from constraint >= 0 (d = lambda * constraint + c with
    lambda >= 0 and c >= 0)."""
    terms = {k: v for k, v in d.items() if k != "const" and v != 0}
    const = d.get("const", Fraction(0))
    if not terms:
        return const >= 0
    c_terms = {k: v for k, v in constraint.items() if k != "const" and v != 0}
    key = next(iter(terms))
    if key not in c_terms:
        return False
    ratio = terms[key] / c_terms[key]
    if ratio < 0:
        return False
    if set(terms) != set(c_terms) or any(terms[k] != ratio * c_terms[k] for k in terms):
        return False
    return const - ratio * constraint.get("const", Fraction(0)) >= 0


def rewrite_peeled_min_max(
    rw: CanonRewriter, op: Operation, iv: SSAValue, ub: SSAValue, step: SSAValue, inside: bool
) -> bool:
    """Upstream's `rewritePeeledMinMaxOp`: replace a min (max) by its bounding result."""
    is_min = isinstance(op, affine.MinOp)
    vm = op_value_map(op)
    nd = vm.map.num_dims
    forms = [_linear(r, vm.operands, nd) for r in vm.map.results]
    constraint: Linear = {}

    def add(key: object, value: int) -> None:
        c = constant_int(key) if isinstance(key, SSAValue) else None
        if c is not None:
            constraint["const"] = constraint.get("const", Fraction(0)) + value * c
        else:
            constraint[key] = constraint.get(key, Fraction(0)) + value

    if inside:  # ub - iv - step >= 0
        add(ub, 1)
        add(iv, -1)
        add(step, -1)
    else:  # iv - ub + step - 1 >= 0
        add(iv, 1)
        add(ub, -1)
        add(step, 1)
        constraint["const"] = constraint.get("const", Fraction(0)) - 1
    for k, candidate in enumerate(forms):
        if candidate is None:
            continue
        proven = True
        for i, other in enumerate(forms):
            if i == k:
                continue
            if other is None:
                proven = False
                break
            diff = _subtract(other, candidate) if is_min else _subtract(candidate, other)
            if not _implied_nonnegative(diff, constraint):
                proven = False
                break
        if not proven:
            continue
        bound = ValueMap(AffineMap(nd, vm.map.num_symbols, (vm.map.results[k],)), vm.operands)
        new = simplify_value_map(bound, compose=False) or bound
        rw.set_insertion_point(op)
        rw.replace_with_op(op, ApplyOp(list(new.operands), AffineMapAttr(new.map)))
        return True
    return False


__all__ = [
    "MAX_UNROLL_COPIES",
    "PeelResult",
    "UnrollResult",
    "UnrollTooLarge",
    "peel_first_iteration",
    "peel_last_iteration",
    "promote_if_single_iteration",
    "rewrite_peeled_min_max",
    "unroll_by_factor",
]
