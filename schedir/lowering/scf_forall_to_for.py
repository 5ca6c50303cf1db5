"""`scf-forall-to-for`: parallel loops become nested sequential `scf.for` loops.

Upstream's pass of the same name, for bufferized `scf.forall` ops (no `shared_outs`, an
empty `scf.forall.in_parallel`): one `scf.for` per dimension, the first dimension
outermost, with the same bounds and steps; the mapping attribute is dropped. The CPU
pipeline runs this after bufferization, where a forall is just a loop nest.

`scf.parallel` is lowered the same way here (upstream does it inside convert-scf-to-cf,
which xDSL's version lacks): one `scf.for` per dimension; each reduction becomes an
iteration argument of every loop, combined in the innermost body by the inlined
`scf.reduce` region.

    scf.forall (%i, %j) in (4, %n) {
      "use"(%i, %j) : (index, index) -> ()
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    // ->
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        "use"(%i, %j) : (index, index) -> ()
      }
    }
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.diagnostics import LoweringError
from schedir.dialects.scf import ForallOp, InParallelOp
from schedir.dialects.syntax import op_location


def _nest(
    op: Operation,
    lbs: Sequence[SSAValue],
    ubs: Sequence[SSAValue],
    steps: Sequence[SSAValue],
    inits: Sequence[SSAValue],
) -> tuple[list[scf.ForOp], Block]:
    """Empty `scf.for` nest before `op` carrying `inits`; returns the loops and the innermost
    body (whose terminator is still to be added)."""
    loops: list[scf.ForOp] = []
    point = InsertPoint.before(op)
    carried = list(inits)
    innermost: Block | None = None
    for lb, ub, step in zip(lbs, ubs, steps, strict=True):
        body = Block(arg_types=[IndexType(), *(v.type for v in carried)])
        loop = scf.ForOp(lb, ub, step, carried, Region(body))
        Rewriter.insert_op(loop, point)
        loop.location = op.location
        if loops:
            parent_yield = scf.YieldOp(*loop.results)
            parent_yield.location = op.location
            Rewriter.insert_op(parent_yield, InsertPoint.after(loop))
        loops.append(loop)
        carried = list(body.args[1:])
        point = InsertPoint.at_end(body)
        innermost = body
    assert innermost is not None
    return loops, innermost


def _constant_or_value(value: int | SSAValue, op: Operation) -> SSAValue:
    if isinstance(value, SSAValue):
        return value
    constant = arith.ConstantOp.from_int_and_width(value, IndexType())
    Rewriter.insert_op(constant, InsertPoint.before(op))
    constant.location = op.location
    return constant.result


def _move_body(source: Block, target: Block, ivs: Sequence[SSAValue], stop: Operation) -> None:
    """Move `source`'s ops before `stop` to the end of `target`, its arguments -> `ivs`."""
    for arg, iv in zip(source.args, ivs, strict=False):
        arg.replace_all_uses_with(iv)
    for nested in list(source.ops):
        if nested is stop:
            break
        nested.detach()
        target.add_op(nested)


def lower_forall(op: ForallOp) -> None:
    """Replace a bufferized `scf.forall` by nested `scf.for` loops."""
    terminator = op.body.block.last_op
    if op.outputs or (isinstance(terminator, InParallelOp) and terminator.region.block.ops):
        raise LoweringError(
            "'scf.forall' with shared outputs cannot become scf.for: bufferize it first",
            op_location(op),
        )
    lbs = [_constant_or_value(v, op) for v in op.lower_bounds]
    ubs = [_constant_or_value(v, op) for v in op.upper_bounds]
    steps = [_constant_or_value(v, op) for v in op.steps]
    if not lbs:
        _move_into_parent(op, terminator)
        return
    loops, innermost = _nest(op, lbs, ubs, steps, [])
    assert terminator is not None
    _move_body(op.body.block, innermost, [loop.body.block.args[0] for loop in loops], terminator)
    end = scf.YieldOp()
    end.location = op.location
    innermost.add_op(end)
    Rewriter.erase_op(op)


def _move_into_parent(op: Operation, terminator: Operation | None) -> None:
    for nested in list(op.regions[0].block.ops):
        if nested is terminator:
            break
        nested.detach()
        Rewriter.insert_op(nested, InsertPoint.before(op))
    Rewriter.erase_op(op)


def lower_parallel(op: scf.ParallelOp) -> None:
    """Replace `scf.parallel` by nested `scf.for` loops carrying its reductions."""
    block = op.body.block
    reduce = block.last_op
    assert isinstance(reduce, scf.ReduceOp)
    inits = list(op.initVals)
    if not op.lowerBound:
        loops: list[scf.ForOp] = []
        point = InsertPoint.before(op)
        body_ops = [o for o in block.ops if o is not reduce]
        for nested in body_ops:
            nested.detach()
            Rewriter.insert_op(nested, point)
        combined = _combine(reduce, inits, point, op)
        for result, value in zip(op.results, combined, strict=True):
            result.replace_all_uses_with(value)
        Rewriter.erase_op(op)
        return
    loops, innermost = _nest(op, list(op.lowerBound), list(op.upperBound), list(op.step), inits)
    _move_body(block, innermost, [loop.body.block.args[0] for loop in loops], reduce)
    accumulators = list(innermost.args[1:])
    combined = _combine(reduce, accumulators, InsertPoint.at_end(innermost), op)
    end = scf.YieldOp(*combined)
    end.location = op.location
    innermost.add_op(end)
    for result, value in zip(op.results, loops[0].results, strict=True):
        result.replace_all_uses_with(value)
    Rewriter.erase_op(op)


def _combine(
    reduce: scf.ReduceOp, accumulators: Sequence[SSAValue], point: InsertPoint, op: Operation
) -> list[SSAValue]:
    """Inline each reduction region at `point` on (accumulator, reduced value)."""
    combined: list[SSAValue] = []
    for region, value, acc in zip(reduce.reductions, reduce.args, accumulators, strict=True):
        body = region.block
        ret = body.last_op
        assert ret is not None
        body.args[0].replace_all_uses_with(acc)
        body.args[1].replace_all_uses_with(value)
        for nested in list(body.ops):
            if nested is ret:
                break
            nested.detach()
            Rewriter.insert_op(nested, point)
        combined.append(ret.operands[0])
    del op
    return combined


@dataclass(frozen=True)
class ScfForallToFor(ModulePass):
    """Lower `scf.forall` and `scf.parallel` to nested `scf.for` (see the module docstring)."""

    name = "scf-forall-to-for"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Outer loops first: an inner loop moves with its parent's body, then is lowered.
        loops = [o for o in op.walk() if isinstance(o, ForallOp | scf.ParallelOp)]
        for loop in loops:
            if isinstance(loop, ForallOp):
                lower_forall(loop)
            else:
                lower_parallel(loop)


__all__ = ["ScfForallToFor", "lower_forall", "lower_parallel"]
