"""scf.forall canonicalization patterns (upstream SCF.cpp).

Constant bounds become static (one operand list per rewrite, as upstream's
`ForallOpControlOperandsFolder`), zero-trip loops become their outputs, unmapped
single-iteration dimensions are dropped (all of them: the body is inlined with
`tensor.insert_slice` for its parallel inserts), shared outputs that are unused or never
written are dropped, a `tensor.cast` that erases static sizes of a shared output moves
into the body (upstream's FoldTensorCastOfOutputIntoForallOp), and `tensor.dim` of a
result reads the shared output:

    %r = scf.forall (%i) in (1) shared_outs(%o = %t) -> (tensor<8xf32>) {
      ...
      scf.forall.in_parallel { tensor.parallel_insert_slice %v into %o[0] [8] [1] ... }
    }
      => the body inlined with %i = 0, and %r = tensor.insert_slice %v into %t[0] [8] [1]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import tensor
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import DenseArrayBase, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint

from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import InsertSliceOp, ParallelInsertSliceOp
from schedir.dialects.utils import Mixed, split_mixed
from schedir.transform.rewrites.canonicalize.scf import (
    move_block_ops,
    replace_dropping_results,
    trip_count,
)
from schedir.transform.rewrites.canonicalize.tensor import can_fold_into_consumer
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.mixed import fold_mixed
from schedir.transform.rewrites.rewriter import CanonRewriter


def forall_control_operands(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ForallOpControlOperandsFolder: constant bounds become static."""
    assert isinstance(op, ForallOp)
    # One list per rewrite, as upstream's `failed(lb) && failed(ub) && failed(step)`.
    lbs, ubs, steps = list(op.lower_bounds), list(op.upper_bounds), list(op.steps)
    lbs, changed = fold_mixed(lbs)
    if not changed:
        ubs, changed = fold_mixed(ubs)
    if not changed:
        steps, changed = fold_mixed(steps)
    if not changed:
        return False
    static_lbs, dyn_lbs = split_mixed(lbs)
    static_ubs, dyn_ubs = split_mixed(ubs)
    static_steps, dyn_steps = split_mixed(steps)
    outputs = list(op.outputs)
    op.operands = [*dyn_lbs, *dyn_ubs, *dyn_steps, *outputs]
    op.properties["staticLowerBound"] = static_lbs
    op.properties["staticUpperBound"] = static_ubs
    op.properties["staticStep"] = static_steps
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
        i32, [len(dyn_lbs), len(dyn_ubs), len(dyn_steps), len(outputs)]
    )
    rw.modified(op)
    return True


def combining_ops(op: ForallOp, arg: SSAValue) -> list[Operation]:
    return [
        o
        for o in op.terminator.region.block.ops
        if isinstance(o, ParallelInsertSliceOp) and o.operands[1] is arg
    ]


def forall_iter_args(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ForallOpIterArgsFolder."""
    assert isinstance(op, ForallOp)
    outs = list(op.region_iter_args)
    delete = [
        not r.uses or not combining_ops(op, arg) for r, arg in zip(op.results, outs, strict=True)
    ]
    if not any(delete):
        return False
    for arg, d in zip(outs, delete, strict=True):
        if d:
            for combining in combining_ops(op, arg):
                rw.erase(combining)
    new_outputs = [v for v, d in zip(op.outputs, delete, strict=True) if not d]
    new = _new_forall(rw, op, op.lower_bounds, op.upper_bounds, op.steps, new_outputs)
    block = new.body.block
    replacements: list[SSAValue | None] = list(block.args[: op.rank])
    kept = 0
    for value, d in zip(op.outputs, delete, strict=True):
        if d:
            replacements.append(value)
        else:
            replacements.append(block.args[new.rank + kept])
            kept += 1
    _merge_forall_body(rw, op, new, replacements)
    results: list[SSAValue | None] = []
    forwarded: list[SSAValue | None] = []
    kept = 0
    for value, d in zip(op.outputs, delete, strict=True):
        if d:
            results.append(None)
            forwarded.append(value)
        else:
            results.append(new.results[kept])
            forwarded.append(None)
            kept += 1
    replace_dropping_results(rw, op, results, forwarded)
    return True


def _new_forall(
    rw: CanonRewriter,
    op: ForallOp,
    lbs: Sequence[Mixed],
    ubs: Sequence[Mixed],
    steps: Sequence[Mixed],
    outputs: Sequence[SSAValue],
) -> ForallOp:
    """A new forall with an empty body block (ivs and outputs as arguments)."""
    block = Block(arg_types=[op.body.block.args[0].type] * len(lbs) + [v.type for v in outputs])
    new = ForallOp(lbs, ubs, steps, outputs, op.mapping, Region(block))
    new.attributes.update(op.attributes)
    rw.create(new, op)
    return new


def _merge_forall_body(
    rw: CanonRewriter, old: ForallOp, new: ForallOp, replacements: Sequence[SSAValue | None]
) -> None:
    block = old.body.block
    move_block_ops(rw, block, InsertPoint.at_end(new.body.block), replacements)


def forall_single_iteration_dims(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ForallOpSingleOrZeroIterationDimsFolder (unmapped loops only)."""
    assert isinstance(op, ForallOp)
    if op.mapping is not None:
        return False
    lbs: list[Mixed] = []
    ubs: list[Mixed] = []
    steps: list[Mixed] = []
    iv_values: dict[int, Mixed] = {}
    for i, (lb, ub, step) in enumerate(
        zip(op.lower_bounds, op.upper_bounds, op.steps, strict=True)
    ):
        count = trip_count(lb, ub, step)
        if count == 0:
            rw.replace_values(op, list(op.outputs))
            return True
        if count == 1:
            iv_values[i] = lb
            continue
        lbs.append(lb)
        ubs.append(ub)
        steps.append(step)
    if not iv_values:
        return False
    rw.set_insertion_point(op)
    if not lbs:
        promote_forall(rw, op)
        return True
    new = _new_forall(rw, op, lbs, ubs, steps, list(op.outputs))
    block = new.body.block
    rw.set_insertion_point(op)
    replacements: list[SSAValue | None] = []
    kept = 0
    for i in range(op.rank):
        if i in iv_values:
            replacements.append(rw.mixed_value(iv_values[i], op))
        else:
            replacements.append(block.args[kept])
            kept += 1
    replacements.extend(block.args[len(lbs) :])
    _merge_forall_body(rw, op, new, replacements)
    rw.replace_values(op, list(new.results))
    return True


def promote_forall(rw: CanonRewriter, op: ForallOp) -> None:
    """Upstream's `scf::promote(ForallOp)`: inline a single-iteration forall; its
    parallel inserts become `tensor.insert_slice` after it."""
    rw.set_insertion_point(op)
    lbs = [rw.mixed_value(v, op) for v in op.lower_bounds]
    terminator = op.terminator
    block = op.body.block
    move_block_ops(rw, block, InsertPoint.before(op), [*lbs, *op.outputs], stop=terminator)
    rw.set_insertion_point(InsertPoint.after(op))
    results: list[SSAValue] = []
    for yielding in list(terminator.region.block.ops):
        assert isinstance(yielding, ParallelInsertSliceOp)
        insert = InsertSliceOp.build(
            operands=[
                yielding.source,
                yielding.dest,
                yielding.offsets,
                yielding.sizes,
                yielding.strides,
            ],
            result_types=[yielding.dest.type],
            properties={
                "static_offsets": yielding.static_offsets,
                "static_sizes": yielding.static_sizes,
                "static_strides": yielding.static_strides,
            },
        )
        results.append(rw.create(insert, op).results[0])
    for old, new in zip(op.results, results, strict=False):
        rw.replace_all_uses_with(old, new)
    rw.erase(op, safe_erase=False)


def forall_output_casts(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldTensorCastOfOutputIntoForallOp: a shared output that is a
    `tensor.cast` erasing static sizes takes the cast's source; the body sees the old type
    through a cast of the new block argument, its parallel inserts write the new argument,
    and the result is cast back for the users."""
    assert isinstance(op, ForallOp)
    outputs = list(op.outputs)
    casts: dict[int, TensorType[Attribute]] = {}
    for index, value in enumerate(outputs):
        owner = value.owner
        if (
            isinstance(owner, Operation)
            and can_fold_into_consumer(owner)
            and isinstance(value.type, TensorType)
        ):
            casts[index] = cast(TensorType[Attribute], value.type)
            outputs[index] = owner.operands[0]
    if not casts:
        return False
    new = _new_forall(rw, op, op.lower_bounds, op.upper_bounds, op.steps, outputs)
    block = new.body.block
    new_args = list(block.args[new.rank :])
    replacements: list[SSAValue | None] = list(block.args[: new.rank])
    cast_args: dict[SSAValue, SSAValue] = {}
    for index, arg in enumerate(new_args):
        if index in casts:
            cast_op = xtensor.CastOp(arg, casts[index])
            rw.insert(cast_op, InsertPoint.at_end(block))
            cast_args[cast_op.results[0]] = arg
            replacements.append(cast_op.results[0])
        else:
            replacements.append(arg)
    _merge_forall_body(rw, op, new, replacements)
    # The parallel inserts write the new (more static) arguments, as upstream's.
    for combining in new.terminator.region.block.ops:
        dest = combining.operands[1] if isinstance(combining, ParallelInsertSliceOp) else None
        if dest is not None and dest in cast_args:
            combining.operands = [combining.operands[0], cast_args[dest], *combining.operands[2:]]
            rw.modified(combining)
    results: list[SSAValue | None] = []
    point = InsertPoint.after(new)
    for index, result in enumerate(new.results):
        if index in casts:
            back = xtensor.CastOp(result, casts[index])
            rw.insert(back, point)
            point = InsertPoint.after(back)
            results.append(back.results[0])
        else:
            results.append(result)
    rw.replace(op, [], results)
    return True


def dim_of_forall(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's DimOfForallOp: tensor.dim of a forall result reads its shared output."""
    source = op.operands[0]
    owner = source.owner
    if not isinstance(owner, ForallOp) or not isinstance(source, OpResult):
        return False
    op.operands = [owner.outputs[source.index], op.operands[1]]
    rw.modified(op)
    return True


def patterns() -> PatternSet:
    """scf.forall's canonicalization patterns, and tensor.dim of a forall result."""
    return (
        PatternSet()
        .add(
            ForallOp,
            forall_control_operands,
            forall_iter_args,
            forall_single_iteration_dims,
            forall_output_casts,
        )
        .add(tensor.DimOp, dim_of_forall)
    )


__all__ = [
    "combining_ops",
    "dim_of_forall",
    "forall_control_operands",
    "forall_iter_args",
    "forall_output_casts",
    "forall_single_iteration_dims",
    "patterns",
    "promote_forall",
]
