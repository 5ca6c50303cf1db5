"""Loop coalescing (upstream's `coalescePerfectlyNestedSCFForLoops` /
`coalescePerfectlyNestedAffineLoops`, mlir/lib/Dialect/SCF/Utils/Utils.cpp and
mlir/lib/Dialect/Affine/Utils/LoopUtils.cpp).

A perfect nest of loops whose bounds are defined above the band's outermost loop becomes
one loop over the product of the trip counts; the body recovers each original index by
delinearizing the new one, innermost fastest:

    scf.for %i = %lb to %n step %c3 {          %t0 = affine.apply ()[s0, s1] -> ((s1 - s0) ceildiv 3)
      scf.for %j = %c0 to %c7 step %c1 {  =>   %t = affine.apply ()[s0] -> (s0 * 7)()[%t0]
        use(%i, %j)                             scf.for %x = %c0 to %t step %c1 {
                                                  %j = affine.apply (d0) -> (d0 mod 7)(%x)
                                                  %x0 = affine.apply (d0) -> (d0 floordiv 7)(%x)
                                                  %i = affine.apply (d0)[s0] -> (d0 * 3 + s0)(%x0)[%lb]
                                                  use(%i, %j)

`scf.for` loops are normalized first (lower bound 0, step 1; trip count
`(ub - lb) ceildiv step`); `affine.for` loops must already be normalized, as upstream
requires. The band search is upstream's: for each loop, the outermost loop above which its
bound operands are defined; bands are coalesced bottom-up. Loop-carried values of `scf.for`
nests pass through unchanged (the inner loop's inits must be the outer loop's iteration
arguments, and the outer loop must yield the inner loop's results).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, IndexType, IntegerAttr, i32
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
)

from schedir.dialects import semi_affine
from schedir.dialects.affine import ApplyOp, MaxOp, MinOp
from schedir.transform.rewrites.constants import constant_int

_Loop = scf.ForOp | affine.ForOp
_Term = int | SSAValue
"""A value known as a constant, or an SSA index value."""


def perfectly_nested_loops(root: _Loop) -> list[_Loop]:
    """`root` and the loops of the same kind nested in it whose bodies hold only the
    next loop and the terminator (upstream's `getPerfectlyNestedLoops`)."""
    loops: list[_Loop] = [root]
    while True:
        outer = loops[-1]
        ops = list(outer.body.block.ops)
        if len(ops) != 2 or not isinstance(ops[0], type(root)):
            return loops
        inner = ops[0]
        assert isinstance(inner, scf.ForOp | affine.ForOp)
        if not _carries_through(outer, inner, ops[1]):
            return loops
        loops.append(inner)


def _carries_through(outer: _Loop, inner: _Loop, terminator: Operation) -> bool:
    """The inner loop starts from the outer loop's iteration arguments and the outer loop
    yields the inner loop's results, in order."""
    inits = list(inner.iter_args if isinstance(inner, scf.ForOp) else inner.inits)
    return inits == list(outer.body.block.args[1:]) and list(terminator.operands) == list(
        inner.results
    )


def coalesce_perfect_nest(root: _Loop) -> bool:
    """Coalesce the bands of the perfect nest rooted at `root`; whether any changed."""
    loops = perfectly_nested_loops(root)
    if len(loops) <= 1:
        return False
    defined_above: list[int] = []
    for i, loop in enumerate(loops):
        operands = _bound_operands(loop)
        outermost = next(
            (j for j in range(i) if all(_defined_above(v, loops[j]) for v in operands)), i
        )
        defined_above.append(outermost)
    changed = False
    end = len(loops)
    while end > 0:
        start = 0
        while start < end - 1:
            if max(defined_above[start:end]) > start:
                start += 1
                continue
            if _coalesce_band(loops[start:end]):
                changed = True
            break
        if start != end - 1:
            end = start + 1
        end -= 1
    return changed


def _bound_operands(loop: _Loop) -> list[SSAValue]:
    if isinstance(loop, scf.ForOp):
        return [loop.lb, loop.ub, loop.step]
    return [*loop.lowerBoundOperands, *loop.upperBoundOperands]


def _defined_above(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    while op is not None:
        if op is loop:
            return False
        op = op.parent_op()
    return True


class _Emitter:
    """Builds index arithmetic as `affine.apply` ops before `before`, folding constants."""

    def __init__(self, block: Block, before: Operation) -> None:
        self.block, self.before = block, before

    def emit(self, op: Operation) -> SSAValue:
        self.block.insert_op_before(op, self.before)
        return op.results[0]

    def constant(self, value: int) -> SSAValue:
        return self.emit(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def binary(self, kind: AffineBinaryOpKind, lhs: _Term, rhs: _Term, *, dim: bool) -> _Term:
        """`lhs kind rhs`; `lhs` is a dimension of the map when `dim` (a loop-varying
        value), every other value a symbol (defined above the band)."""
        if isinstance(lhs, int) and isinstance(rhs, int):
            folded = semi_affine.binary(kind, AffineExpr.constant(lhs), AffineExpr.constant(rhs))
            assert isinstance(folded, AffineConstantExpr)
            return folded.value
        if rhs == 1 and kind in (AffineBinaryOpKind.Mul, AffineBinaryOpKind.FloorDiv):
            return lhs
        if rhs == 1 and kind is AffineBinaryOpKind.Mod:
            return 0
        if rhs == 0 and kind is AffineBinaryOpKind.Add:
            return lhs
        operands: list[SSAValue] = []
        dims = 1 if dim and not isinstance(lhs, int) else 0

        def expr(term: _Term, as_dim: bool) -> AffineExpr:
            if isinstance(term, int):
                return AffineExpr.constant(term)
            operands.append(term)
            if as_dim:
                return AffineExpr.dimension(0)
            return AffineExpr.symbol(len(operands) - 1 - dims)

        left = expr(lhs, dims == 1)
        right = expr(rhs, False)
        # Semi-affine products and divisions by a symbol: xDSL's operators refuse them, so
        # the node is built directly (upstream builds the same expressions).
        result = AffineBinaryOpExpr(kind, left, right)
        map_ = AffineMap(dims, len(operands) - dims, (result,))
        return self.emit(ApplyOp(operands, AffineMapAttr(map_)))

    def value(self, term: _Term) -> SSAValue:
        return self.constant(term) if isinstance(term, int) else term


def _term(value: SSAValue) -> _Term:
    known = constant_int(value)
    return value if known is None else known


def _coalesce_band(loops: Sequence[_Loop]) -> bool:
    """Coalesce one band (upstream's `coalesceLoops`); False if it cannot."""
    if len(loops) < 2:
        return False
    outermost = loops[0]
    parent = outermost.parent_block()
    assert parent is not None
    above = _Emitter(parent, outermost)
    scf_loops = [loop for loop in loops if isinstance(loop, scf.ForOp)]
    affine_loops = [loop for loop in loops if isinstance(loop, affine.ForOp)]
    if len(scf_loops) == len(loops):
        if any(not isinstance(loop.body.block.args[0].type, IndexType) for loop in scf_loops):
            return False
        origins: list[tuple[_Term, _Term]] = [
            (_term(loop.lb), _term(loop.step)) for loop in scf_loops
        ]
        counts = [_scf_trip_count(above, loop) for loop in scf_loops]
    elif len(affine_loops) == len(loops):
        zero = (AffineExpr.constant(0),)
        if any(
            loop.step.value.data != 1 or loop.lowerBoundMap.data.results != zero or loop.inits
            for loop in affine_loops
        ):
            return False  # upstream works on normalized affine loops without iter_args only
        origins = [(0, 1) for _ in affine_loops]
        counts = [_affine_upper_bound(above, loop) for loop in affine_loops]
    else:
        return False
    total = counts[0]
    for count in counts[1:]:
        total = above.binary(AffineBinaryOpKind.Mul, total, count, dim=False)
    _set_normalized_bounds(outermost, above, above.value(total))
    body = outermost.body.block
    first = body.first_op
    assert first is not None
    inside = _Emitter(body, first)
    linear: _Term = body.args[0]
    uses = [use for use in body.args[0].uses]
    for index in range(len(loops) - 1, -1, -1):
        if index != len(loops) - 1:
            linear = inside.binary(AffineBinaryOpKind.FloorDiv, linear, counts[index + 1], dim=True)
        normalized = (
            linear
            if index == 0
            else inside.binary(AffineBinaryOpKind.Mod, linear, counts[index], dim=True)
        )
        lb, step = origins[index]
        scaled = inside.binary(AffineBinaryOpKind.Mul, normalized, step, dim=True)
        original = inside.value(inside.binary(AffineBinaryOpKind.Add, scaled, lb, dim=True))
        iv = loops[index].body.block.args[0]
        targets = uses if index == 0 else list(iv.uses)
        for use in targets:
            use.operation.operands[use.index] = original
    _inline_inner_bodies(loops)
    return True


def _scf_trip_count(above: _Emitter, loop: scf.ForOp) -> _Term:
    lb, ub, step = _term(loop.lb), _term(loop.ub), _term(loop.step)
    if lb == 0 and step == 1:
        return ub
    if isinstance(lb, int) and isinstance(ub, int) and isinstance(step, int):
        return max(0, -(-(ub - lb) // step))
    difference = _difference(above, ub, lb)
    return _clamp(above, above.binary(AffineBinaryOpKind.CeilDiv, difference, step, dim=False))


def _clamp(above: _Emitter, count: _Term) -> _Term:
    """`max(0, count)`: two empty loops with negative counts must not make a positive
    product (upstream leaves the counts unclamped)."""
    if isinstance(count, int):
        return max(0, count)
    map_ = AffineMap(0, 1, (AffineExpr.constant(0), AffineExpr.symbol(0)))
    return above.emit(MaxOp([count], AffineMapAttr(map_)))


def _difference(above: _Emitter, ub: _Term, lb: _Term) -> _Term:
    if isinstance(lb, int):
        return above.binary(AffineBinaryOpKind.Add, ub, -lb, dim=False)
    negated = above.binary(AffineBinaryOpKind.Mul, lb, -1, dim=False)
    return above.binary(AffineBinaryOpKind.Add, ub, negated, dim=False)


def _affine_upper_bound(above: _Emitter, loop: affine.ForOp) -> _Term:
    map_ = loop.upperBoundMap
    operands = list(loop.upperBoundOperands)
    if not operands and len(map_.data.results) == 1:
        return max(0, map_.data.eval([], [])[0])
    if len(map_.data.results) == 1:
        return _clamp(above, above.emit(ApplyOp(operands, map_)))
    return _clamp(above, above.emit(MinOp(operands, map_)))


def _set_normalized_bounds(loop: _Loop, above: _Emitter, upper: SSAValue) -> None:
    if isinstance(loop, scf.ForOp):
        loop.operands = [above.constant(0), upper, above.constant(1), *loop.iter_args]
        return
    loop.upperBoundMap = AffineMapAttr(AffineMap(0, 1, (AffineExpr.symbol(0),)))
    lower = list(loop.lowerBoundOperands)
    inits = list(loop.inits)
    loop.operands = [*lower, upper, *inits]
    loop.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
        i32, [len(lower), 1, len(inits)]
    )


def _inline_inner_bodies(loops: Sequence[_Loop]) -> None:
    """Move each inner loop's body into its parent, innermost first (iteration arguments
    become the outer loop's, yields the inner loop's results)."""
    for index in range(len(loops) - 1, 0, -1):
        outer, inner = loops[index - 1], loops[index]
        inner_block = inner.body.block
        terminator = inner_block.last_op
        assert terminator is not None
        inner_args = list(inner_block.args[1:])
        outer_args = list(outer.body.block.args[1:])
        positions: dict[SSAValue, int] = {arg: k for k, arg in enumerate(inner_args)}
        yielded = [outer_args[positions[v]] if v in positions else v for v in terminator.operands]
        for inner_arg, outer_arg in zip(inner_args, outer_args, strict=True):
            inner_arg.replace_all_uses_with(outer_arg)
        inner_block.erase_op(terminator)
        outer_block = outer.body.block
        for op in list(inner_block.ops):
            op.detach()
            outer_block.insert_op_before(op, inner)
        for result, value in zip(inner.results, yielded, strict=True):
            result.replace_all_uses_with(value)
        outer_block.erase_op(inner)


__all__ = ["coalesce_perfect_nest", "perfectly_nested_loops"]
