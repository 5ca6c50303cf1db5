"""`scf.forall` to `scf.parallel` and `scf.parallel` to an `scf.for` nest (upstream
SCF/Utils/Utils.cpp `forallToParallelLoop` and `parallelForToNestedFors`).

A bufferized forall (no `shared_outs`) becomes one `scf.parallel` with its bounds and steps
(constants materialized before it) and its body, ending in an empty `scf.reduce`; a
`mapping` attribute is kept. A parallel loop without reductions becomes one `scf.for` per
dimension, outermost first:

    scf.forall (%i, %j) = (0, 1) to (10, 7) step (3, 2) { ... }
    // forall_to_parallel ->
    scf.parallel (%i, %j) = (%c0, %c1) to (%c10, %c7) step (%c3, %c2) { ... scf.reduce }
    // parallel_for_to_nested_fors ->
    scf.for %i = %c0 to %c10 step %c3 { scf.for %j = %c1 to %c7 step %c2 { ... } }
"""

from __future__ import annotations

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects.scf import ForallOp, ParallelOp, ReduceOp
from schedir.transform.rewrites.rewriter import CanonRewriter


class LoopConversionFailure(ValueError):
    """The loop cannot be converted (the message says why)."""


def forall_to_parallel(
    forall: ForallOp, listener: PatternRewriterListener | None = None
) -> ParallelOp:
    """Replace a bufferized `forall` by an `scf.parallel` and return it."""
    if forall.outputs:
        raise LoopConversionFailure(
            "only fully bufferized scf.forall ops can be lowered to scf.parallel"
        )
    rw = CanonRewriter(InsertPoint.before(forall), listener)
    lbs = [rw.mixed_value(v, forall) for v in forall.lower_bounds]
    ubs = [rw.mixed_value(v, forall) for v in forall.upper_bounds]
    steps = [rw.mixed_value(v, forall) for v in forall.steps]
    body = forall.body.block
    block = Block(arg_types=[IndexType()] * len(lbs))
    parallel = ParallelOp(lbs, ubs, steps, Region(block))
    rw.create(parallel, forall)
    for arg, iv in zip(body.args, block.args, strict=True):
        arg.replace_all_uses_with(iv)
    terminator = forall.terminator
    for op in list(body.ops):
        if op is terminator:
            break
        rw.move_op(op, InsertPoint.at_end(block))
    rw.insert(ReduceOp(), InsertPoint.at_end(block))
    mapping = forall.properties.get("mapping") or forall.attributes.get("mapping")
    if mapping is not None:
        parallel.attributes["mapping"] = mapping
    rw.replace_values(forall, [])
    return parallel


def parallel_to_nested_fors(
    parallel: xscf.ParallelOp, listener: PatternRewriterListener | None = None
) -> xscf.ForOp:
    """Replace an `scf.parallel` without reductions by an `scf.for` nest; returns the
    outermost loop."""
    if parallel.initVals:
        raise LoopConversionFailure("scf.parallel with reductions is not supported")
    if not parallel.lowerBound:
        raise LoopConversionFailure("scf.parallel without dimensions")
    rw = CanonRewriter(InsertPoint.before(parallel), listener)
    point = InsertPoint.before(parallel)
    loops: list[xscf.ForOp] = []
    for lb, ub, step in zip(parallel.lowerBound, parallel.upperBound, parallel.step, strict=True):
        block = Block(arg_types=[IndexType()])
        loop = xscf.ForOp(lb, ub, step, [], Region(block))
        rw.insert(loop, point)
        loop.location = parallel.location
        if loops:
            rw.insert(xscf.YieldOp(), InsertPoint.at_end(loops[-1].body.block))
        loops.append(loop)
        point = InsertPoint.at_end(block)
    innermost = loops[-1].body.block
    body = parallel.body.block
    for arg, loop in zip(body.args, loops, strict=True):
        arg.replace_all_uses_with(loop.body.block.args[0])
    for op in list(body.ops):
        if isinstance(op, xscf.ReduceOp):
            break
        rw.move_op(op, InsertPoint.at_end(innermost))
    rw.insert(xscf.YieldOp(), InsertPoint.at_end(innermost))
    rw.replace_values(parallel, [])
    return loops[0]


__all__ = ["LoopConversionFailure", "forall_to_parallel", "parallel_to_nested_fors"]
