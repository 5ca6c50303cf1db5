"""Full unrolling and unroll-and-jam of `scf.for` (upstream SCF/Utils/Utils.cpp
`loopUnrollFull` and `loopUnrollJamByFactor`).

Unroll-and-jam by `f` multiplies the loop's step by `f` and, instead of repeating the
whole body (as unrolling does), repeats each maximal run of non-loop ops ("sub-block")
in place, in the loop's body and in the bodies of the `scf.for` nests directly inside it;
copy `i` uses `iv + i * step`. Inner loops that carry values get `f - 1` more sets of
iter_args, one per copy, so that the copies stay independent:

    scf.for %i = %c0 to %c4 step %c1 {          // unroll_and_jam by 2 ->
      "a"(%i)                                    scf.for %i = %c0 to %c4 step %c2 {
      scf.for %j = %c0 to %n step %c1 {            "a"(%i)  "a"(%i + 1)
        "b"(%i, %j)                                scf.for %j = %c0 to %n step %c1 {
      }                                              "b"(%i, %j)  "b"(%i + 1, %j)
    }                                              }
                                                 }

As upstream, unroll-and-jam needs a constant trip count that the factor divides (a larger
factor is clamped to the trip count), a loop without results, and inner loop bounds
defined outside the loop; otherwise it fails and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.transform.rewrites.canonicalize.scf import trip_count
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.loops.unroll_and_peel import (
    promote_if_single_iteration,
    unroll_by_factor,
)
from schedir.transform.rewrites.rewriter import CanonRewriter


class UnrollAndJamFailure(ValueError):
    """The loop does not meet unroll-and-jam's preconditions (nothing was changed)."""


class UnrollFullFailure(ValueError):
    """The loop's trip count is not a constant (nothing was changed)."""


def unroll_full(loop: scf.ForOp, listener: PatternRewriterListener | None = None) -> None:
    """Upstream's `loopUnrollFull`: unroll by the constant trip count, inline one iteration."""
    count = trip_count(loop.lb, loop.ub, loop.step)
    if count is None:
        raise UnrollFullFailure("the trip count is not a constant")
    if count == 0:
        return
    if count == 1:
        promote_if_single_iteration(CanonRewriter(InsertPoint.before(loop), listener), loop)
        return
    unroll_by_factor(loop, count, listener)


@dataclass
class _Gathered:
    """The sub-blocks (first and last op of each run) and the loops the walk went into."""

    sub_blocks: list[tuple[Operation, Operation]]
    loops: list[scf.ForOp]


def _gather(loop: scf.ForOp, into: _Gathered) -> None:
    """Upstream's `JamBlockGatherer`: runs of non-`scf.for` ops, recursing into the loops."""
    into.loops.append(loop)
    ops = list(loop.body.block.ops)[:-1]
    start: Operation | None = None
    previous: Operation | None = None
    for op in ops:
        if isinstance(op, scf.ForOp):
            if start is not None and previous is not None:
                into.sub_blocks.append((start, previous))
            start = None
            _gather(op, into)
        elif start is None:
            start = op
        previous = op
    if start is not None and previous is not None:
        into.sub_blocks.append((start, previous))


def _defined_inside(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    return op is not None and loop.is_ancestor(op)


def _inner_bounds_invariant(loop: scf.ForOp) -> bool:
    """Whether every `scf.for` nested in `loop` has its bounds and step defined outside it."""
    return not any(
        _defined_inside(value, loop)
        for inner in loop.body.walk()
        if isinstance(inner, scf.ForOp)
        for value in (inner.lb, inner.ub, inner.step)
    )


def _check(loop: scf.ForOp, factor: int) -> int:
    """Upstream's preconditions, in its order; returns the (clamped) factor."""
    if not _inner_bounds_invariant(loop):
        raise UnrollAndJamFailure("inner bounds are not invariant")
    if loop.results:
        raise UnrollAndJamFailure("unsupported loop with results")
    count = trip_count(loop.lb, loop.ub, loop.step)
    if count is None or constant_int(loop.step) is None:
        raise UnrollAndJamFailure("trip count could not be determined")
    if factor > count:
        return count
    if count % factor != 0:
        raise UnrollAndJamFailure(
            "unsupported trip count that is not a multiple of unroll jam factor"
        )
    return factor


def _widen_iter_args(
    rw: CanonRewriter, inner: scf.ForOp, factor: int, maps: list[dict[SSAValue, SSAValue]]
) -> scf.ForOp:
    """Replace `inner` by a loop with `factor` sets of its iter_args; the copies' sets start
    as set 0's inits and yields until `_fix_copy` remaps them."""
    count = len(inner.iter_args)
    block = inner.body.block
    terminator = block.last_op
    assert terminator is not None
    yielded = list(terminator.operands)
    inits = list(inner.iter_args) * factor
    new_block = Block(arg_types=[block.args[0].type, *[v.type for v in inits]])
    new = scf.ForOp(inner.lb, inner.ub, inner.step, inits, Region(new_block))
    rw.insert(new, InsertPoint.before(inner))
    for old_arg, new_arg in zip(block.args, new_block.args, strict=False):
        new_arg.name_hint = old_arg.name_hint
        old_arg.replace_all_uses_with(new_arg)
    for op in list(block.ops):
        op.detach()
        new_block.add_op(op)
    terminator.operands = yielded * factor
    rw.replace_values(inner, list(new.results[:count]))
    for i in range(1, factor):
        for j in range(count):
            maps[i - 1][new_block.args[1 + j]] = new_block.args[1 + i * count + j]
            maps[i - 1][new.results[j]] = new.results[i * count + j]
    return new


def _fix_copy(loop: scf.ForOp, count: int, i: int, mapping: dict[SSAValue, SSAValue]) -> None:
    """Point copy `i`'s inits and yields of a widened loop at copy `i`'s values."""
    inits = list(loop.iter_args)
    terminator = loop.body.block.last_op
    assert terminator is not None
    yielded = list(terminator.operands)
    for j in range(count):
        inits[i * count + j] = mapping.get(inits[j], inits[j])
        yielded[i * count + j] = mapping.get(yielded[j], yielded[j])
    loop.operands = [loop.lb, loop.ub, loop.step, *inits]
    terminator.operands = yielded


def unroll_and_jam(
    loop: scf.ForOp, factor: int, listener: PatternRewriterListener | None = None
) -> None:
    """Upstream's `loopUnrollJamByFactor` for `scf.for`; raises `UnrollAndJamFailure` (before
    any change) when a precondition does not hold."""
    assert factor > 0
    if factor == 1:
        return
    factor = _check(loop, factor)
    if factor <= 1:
        # A loop of zero or one iteration: upstream's clamp to the trip count leaves nothing
        # to jam (zero copies would not be a loop).
        return
    if len(loop.body.block.ops) == 1:
        return
    rw = CanonRewriter(InsertPoint.before(loop), listener)
    gathered = _Gathered([], [])
    _gather(loop, gathered)
    maps: list[dict[SSAValue, SSAValue]] = [{} for _ in range(factor - 1)]
    widened = [
        (_widen_iter_args(rw, inner, factor, maps), len(inner.iter_args))
        for inner in gathered.loops
        if inner.iter_args
    ]
    step = constant_int(loop.step)
    assert step is not None
    rw.set_insertion_point(loop)
    new_step = rw.constant_index(step * factor, loop)
    loop.operands = [loop.lb, loop.ub, new_step, *loop.iter_args]
    iv = loop.body.block.args[0]
    for i in range(factor - 1, 0, -1):
        mapping = maps[i - 1]
        for first, last in gathered.sub_blocks:
            run: list[Operation] = []
            op: Operation | None = first
            while op is not None:
                run.append(op)
                if op is last:
                    break
                op = op.next_op
            rw.set_insertion_point(InsertPoint.after(last))
            if iv.uses:
                offset = rw.constant_index(step * i, loop)
                mapping[iv] = rw.create(arith.AddiOp(iv, offset), loop).results[0]
            for original in run:
                rw.insert(original.clone(value_mapper=mapping))
        for widened_loop, count in widened:
            _fix_copy(widened_loop, count, i, mapping)
    promote_if_single_iteration(rw, loop)
