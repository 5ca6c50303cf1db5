"""`scf.forall` to `scf.for` (upstream SCF/Utils/Utils.cpp `forallToForLoop`).

One `scf.for` per dimension, outermost first, with the forall's bounds and steps
(constants materialized before the nest); the body moves into the innermost loop. A
bufferized forall (no `shared_outs`) needs nothing else. With `shared_outs` (allowed with
`allow_shared_outs`; upstream's transform op rejects them), each shared output becomes an
iter_arg of every loop, and each `tensor.parallel_insert_slice` of the terminator becomes
a `tensor.insert_slice` whose result the innermost loop yields:

    %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<16xf32>) {
      ...
      scf.forall.in_parallel { tensor.parallel_insert_slice %s into %o[%i] [4] [1] ... }
    }
    // ->
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %t) -> (tensor<16xf32>) {
      ...
      %u = tensor.insert_slice %s into %o[%i] [4] [1] ...
      scf.yield %u : tensor<16xf32>
    }
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import InsertSliceOp, ParallelInsertSliceOp
from schedir.transform.rewrites.rewriter import CanonRewriter


@dataclass(frozen=True)
class ForallToForResult:
    """The loops, outermost first."""

    loops: tuple[Operation, ...]


class SharedOutputsError(ValueError):
    """The forall has shared outputs and the caller did not allow them."""


def forall_to_for(
    forall: Operation,
    listener: PatternRewriterListener | None = None,
    *,
    allow_shared_outs: bool = False,
) -> ForallToForResult:
    """Replace `forall` by an `scf.for` nest; returns the loops outermost first."""
    assert isinstance(forall, ForallOp)
    outputs = list(forall.outputs)
    if outputs and not allow_shared_outs:
        raise SharedOutputsError("unsupported shared outputs (didn't bufferize?)")
    rw = CanonRewriter(InsertPoint.before(forall), listener)
    lbs = [rw.mixed_value(v, forall) for v in forall.lower_bounds]
    ubs = [rw.mixed_value(v, forall) for v in forall.upper_bounds]
    steps = [rw.mixed_value(v, forall) for v in forall.steps]
    loops: list[scf.ForOp] = []
    carried: list[SSAValue] = outputs
    point = InsertPoint.before(forall)
    for lb, ub, step in zip(lbs, ubs, steps, strict=True):
        block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
        loop = scf.ForOp(lb, ub, step, carried, Region(block))
        rw.insert(loop, point)
        loop.location = forall.location
        if loops:
            rw.insert(scf.YieldOp(*loop.results), InsertPoint.at_end(loops[-1].body.block))
        loops.append(loop)
        carried = list(block.args[1:])
        point = InsertPoint.at_end(block)
    innermost = loops[-1].body.block
    body = forall.body.block
    terminator = forall.terminator
    replacements = [loop.body.block.args[0] for loop in loops] + list(innermost.args[1:])
    for arg, value in zip(body.args, replacements, strict=True):
        arg.replace_all_uses_with(value)
    for op in list(body.ops):
        if op is terminator:
            break
        rw.move_op(op, InsertPoint.at_end(innermost))
    yielded: list[SSAValue] = list(innermost.args[1:])
    for insert in list(terminator.region.block.ops):
        # scf.forall.in_parallel holds only parallel inserts (its verifier checks it).
        assert isinstance(insert, ParallelInsertSliceOp)
        dest = insert.operands[1]
        position = next(i for i, arg in enumerate(innermost.args[1:]) if arg is dest)
        new = InsertSliceOp.build(
            operands=[
                insert.operands[0],
                yielded[position],
                insert.offsets,
                insert.sizes,
                insert.strides,
            ],
            result_types=[dest.type],
            properties={
                "static_offsets": insert.static_offsets,
                "static_sizes": insert.static_sizes,
                "static_strides": insert.static_strides,
            },
        )
        rw.insert(new, InsertPoint.at_end(innermost))
        new.location = insert.location
        yielded[position] = new.results[0]
    rw.insert(scf.YieldOp(*yielded), InsertPoint.at_end(innermost))
    rw.replace_values(forall, list(loops[0].results))
    return ForallToForResult(tuple(loops))


__all__ = ["ForallToForResult", "SharedOutputsError", "forall_to_for"]
