"""Full unrolling and unroll-and-jam of `scf.for` (upstream SCF/Utils/Utils.cpp
`loopUnrollFull` and `loopUnrollJamByFactor`).

Full unrolling is unrolling by the constant trip count (the loop then runs once and is
inlined). Unroll-and-jam by `f` multiplies the step by `f` and, instead of repeating the
whole body, repeats each maximal run of ops that holds no `scf.for` ("sub-block") right
after itself, at every loop depth: the copies of the inner loops' bodies are jammed into
one inner loop.

    scf.for %i = 0 to 4 step 1 {              // unroll and jam by 2 ->
      "a"(%i)                                  scf.for %i = 0 to 4 step 2 {
      scf.for %j = 0 to 8 step 1 {               "a"(%i)  "a"(%i + 1)
        "b"(%i, %j)                              scf.for %j = 0 to 8 step 1 {
      }                                            "b"(%i, %j)  "b"(%i + 1, %j)
    }                                            }
                                               }

Upstream's preconditions hold: constant trip count divisible by the factor (a factor
above the trip count becomes the trip count), no results on the loop, inner loop
bounds defined outside it. Inner loops with iter_args (upstream duplicates them) are
not supported yet and fail with `UnrollJamFailure`, like the preconditions.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.transform.rewrites.canonicalize.scf import trip_count
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.loops.unroll_and_peel import (
    promote_if_single_iteration,
    unroll_by_factor,
)
from schedir.transform.rewrites.rewriter import CanonRewriter


class UnrollJamFailure(ValueError):
    """The loop does not meet a precondition (the message says which)."""


def unroll_full(loop: scf.ForOp, listener: PatternRewriterListener | None = None) -> None:
    """Unroll `loop` completely; raises `UnrollJamFailure` without a constant trip count."""
    count = trip_count(loop.lb, loop.ub, loop.step)
    if count is None:
        raise UnrollJamFailure("trip count could not be determined")
    if count == 0:
        return
    if count == 1:
        promote_if_single_iteration(CanonRewriter(InsertPoint.before(loop), listener), loop)
        return
    unroll_by_factor(loop, count, listener)


def _sub_blocks(block: Block) -> list[list[Operation]]:
    """Upstream's `JamBlockGatherer`: the maximal runs of ops without an `scf.for` (the
    terminator excluded), in this block and, recursively, in the inner loops' bodies."""
    runs: list[list[Operation]] = []
    current: list[Operation] = []
    terminator = block.last_op
    for op in block.ops:
        if op is terminator:
            break
        if isinstance(op, scf.ForOp):
            if current:
                runs.append(current)
                current = []
            runs.extend(_sub_blocks(op.body.block))
        else:
            current.append(op)
    if current:
        runs.append(current)
    return runs


def unroll_and_jam(
    loop: scf.ForOp, factor: int, listener: PatternRewriterListener | None = None
) -> None:
    """Unroll `loop` by `factor` and jam the copies; raises `UnrollJamFailure` (nothing
    changed) when a precondition does not hold."""
    assert factor > 0
    if factor == 1:
        return
    inner = [op for op in loop.walk() if isinstance(op, scf.ForOp)]
    for other in inner:
        for bound in (other.lb, other.ub, other.step):
            owner = bound.owner
            defining = owner if isinstance(owner, Operation) else owner.parent_op()
            if defining is not None and loop.is_ancestor(defining):
                raise UnrollJamFailure("inner bounds are not invariant")
    if loop.results:
        raise UnrollJamFailure("unsupported loop with results")
    count = trip_count(loop.lb, loop.ub, loop.step)
    if count is None:
        raise UnrollJamFailure("trip count could not be determined")
    if factor > count:
        factor = count
    elif count % factor != 0:
        raise UnrollJamFailure("unsupported trip count that is not a multiple of unroll jam factor")
    if any(other.iter_args for other in inner if other is not loop):
        raise UnrollJamFailure("inner loops with iter_args are not supported yet")
    block = loop.body.block
    if block.first_op is block.last_op or factor <= 1:
        return
    step = constant_int(loop.step)
    assert step is not None  # a constant trip count needs a constant step
    runs = _sub_blocks(block)
    rw = CanonRewriter(InsertPoint.before(loop), listener)
    index_type = cast(IndexType | IntegerType, loop.step.type)
    scaled = rw.create(arith.ConstantOp(IntegerAttr(step * factor, index_type)), loop)
    loop.operands = [loop.lb, loop.ub, scaled.results[0], *loop.iter_args]
    iv = block.args[0]
    mappers: list[dict[SSAValue, SSAValue]] = [{} for _ in range(factor - 1)]
    for i in range(factor - 1, 0, -1):
        mapper = mappers[i - 1]
        for run in runs:
            where = InsertPoint.after(run[-1])
            if iv.uses:
                offset = arith.ConstantOp(IntegerAttr(step * i, index_type))
                shifted = arith.AddiOp(iv, offset.results[0])
                rw.insert(offset, where)
                rw.insert(shifted, InsertPoint.after(offset))
                mapper[iv] = shifted.results[0]
                where = InsertPoint.after(shifted)
            anchor: Operation | None = None
            for op in run:
                clone = op.clone(value_mapper=mapper)
                rw.insert(clone, where if anchor is None else InsertPoint.after(anchor))
                anchor = clone
    promote_if_single_iteration(rw, loop)


__all__ = ["UnrollJamFailure", "unroll_and_jam", "unroll_full"]
