"""scf canonicalization patterns (upstream SCF.cpp), and the dim patterns of
`scf.for_loop_canonicalization` (upstream SCF/Transforms/LoopCanonicalization.cpp, which
`driver` assembles with `affine_loops`).

* `scf.for`: zero-trip loops become their inits, one-trip loops are inlined, empty loops
  that only yield outside values become those values (SimplifyTrivialLoops); iter_args
  that are yielded unchanged, or unused and either forwarded or without result uses, are
  dropped (ForOpIterArgsFolder); a `tensor.cast` feeding an iter_arg moves inside
  (ForOpTensorCastFolder).
* `scf.if`: constant conditions select a branch, unused results are dropped, results
  both branches yield identically are forwarded, an empty else is removed, and an if that
  only yields outside values becomes `arith.select`.
* `scf.forall`: see `scf_forall`.
* `scf.execute_region` with one block and no results is inlined.
* loop canonicalization: `tensor.dim` / `memref.dim` of an iter_arg or result whose
  yielded value keeps the shape reads the init; min/max over induction variables
  (`affine_loops.simplify_min_max_in_loops`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, memref, scf, tensor, vector
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ShapedType, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint

from schedir.dialects.linalg.interface import dps_inits, is_structured
from schedir.dialects.utils import Mixed
from schedir.transform.rewrites.canonicalize.tensor import preserves_static_information
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter

# --- helpers ----------------------------------------------------------------------------------


def is_defined_outside(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined outside of (not nested in) `op`."""
    owner = value.owner
    node: Operation | None = owner.parent_op() if isinstance(owner, Block) else owner
    while node is not None:
        if node is op:
            return False
        node = node.parent_op()
    return True


def move_block_ops(
    rw: CanonRewriter,
    source: Block,
    point: InsertPoint,
    replacements: Sequence[SSAValue | None],
    *,
    stop: Operation | None = None,
) -> None:
    """Move `source`'s ops (up to `stop`, exclusive) to `point`, its arguments replaced."""
    for arg, new in zip(source.args, replacements, strict=False):
        if new is not None:
            arg.replace_all_uses_with(new)
    for op in list(source.ops):
        if op is stop:
            break
        rw.move_op(op, point)


def trip_count(lb: Mixed, ub: Mixed, step: Mixed) -> int | None:
    """Upstream's `constantTripCount` (None when not constant)."""
    lo, hi, st = constant_int(lb), constant_int(ub), constant_int(step)
    if lo is None or hi is None:
        return None
    if hi <= lo:
        return 0
    if st is None or st <= 0:
        return None
    return -(-(hi - lo) // st)


def const_diff(lb: SSAValue, ub: SSAValue) -> int | None:
    """Upstream's `computeConstDiff`: ub - lb for constants or `ub = lb + c`."""
    lo, hi = constant_int(lb), constant_int(ub)
    if lo is not None and hi is not None:
        return hi - lo
    owner = ub.owner
    if isinstance(owner, arith.AddiOp):
        a, b = owner.operands
        if a is lb and constant_int(b) is not None:
            return constant_int(b)
        if b is lb and constant_int(a) is not None:
            return constant_int(a)
    return None


def replace_dropping_results(
    rw: CanonRewriter,
    op: Operation,
    results: Sequence[SSAValue | None],
    forwarded: Sequence[SSAValue | None],
) -> None:
    """Replace `op` by a copy with fewer results, as upstream's `eraseOpResults`:
    results forwarded to an outside value (`forwarded[i]`) are rewired first, and the
    listener sees those as null replacements, so handles follow the new op."""
    for old, value in zip(op.results, forwarded, strict=True):
        if value is not None:
            rw.replace_all_uses_with(old, value)
    rw.replace_values(op, list(results))


def _yield(block: Block) -> Operation:
    last = block.last_op
    assert last is not None
    return last


def new_for(
    rw: CanonRewriter,
    like: Operation,
    lb: SSAValue,
    ub: SSAValue,
    step: SSAValue,
    inits: Sequence[SSAValue],
) -> scf.ForOp:
    """An empty `scf.for` (block arguments, no terminator) before the insertion point."""
    block = Block(arg_types=[lb.type, *(v.type for v in inits)])
    loop = scf.ForOp(lb, ub, step, list(inits), Region(block))
    loop.attributes.update(like.attributes)
    rw.create(loop, like)
    return loop


# --- scf.for ----------------------------------------------------------------------------------


def simplify_trivial_loops(op: Operation, rw: CanonRewriter) -> bool:
    assert isinstance(op, scf.ForOp)
    inits = list(op.iter_args)
    if op.lb is op.ub:
        rw.replace_values(op, inits)
        return True
    diff = const_diff(op.lb, op.ub)
    if diff is None:
        return False
    if diff <= 0:
        rw.replace_values(op, inits)
        return True
    step = constant_int(op.step)
    if step is None:
        return False
    block = op.body.block
    if step >= diff:
        terminator = _yield(block)
        yielded = list(terminator.operands)
        move_block_ops(rw, block, InsertPoint.before(op), [op.lb, *inits], stop=terminator)
        rw.replace_values(op, yielded)
        return True
    ops = list(block.ops)
    if len(ops) != 1:
        return False
    yielded = list(_yield(block).operands)
    if any(not is_defined_outside(v, op) for v in yielded):
        return False
    rw.replace_values(op, yielded)
    return True


def fold_iter_args(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ForOpIterArgsFolder."""
    assert isinstance(op, scf.ForOp)
    block = op.body.block
    terminator = _yield(block)
    keep: list[bool] = []
    for init, arg, result, yielded in zip(
        op.iter_args, block.args[1:], op.results, terminator.operands, strict=True
    ):
        is_forwarded = yielded is arg or (not arg.uses and (init is yielded or not result.uses))
        keep.append(not is_forwarded)
    if all(keep):
        return False
    inits = [v for v, k in zip(op.iter_args, keep, strict=True) if k]
    loop = new_for(rw, op, op.lb, op.ub, op.step, inits)
    new_block = loop.body.block
    replacements: list[SSAValue | None] = [new_block.args[0]]
    results: list[SSAValue | None] = []
    forwarded: list[SSAValue | None] = []
    kept = 0
    for init, k in zip(op.iter_args, keep, strict=True):
        if k:
            replacements.append(new_block.args[1 + kept])
            results.append(loop.results[kept])
            forwarded.append(None)
            kept += 1
        else:
            replacements.append(init)
            results.append(None)
            forwarded.append(init)
    move_block_ops(rw, block, InsertPoint.at_end(new_block), replacements, stop=terminator)
    filtered = [v for v, k in zip(terminator.operands, keep, strict=True) if k]
    rw.insert(scf.YieldOp(*filtered), InsertPoint.at_end(new_block))
    new_yield = new_block.last_op
    assert new_yield is not None
    new_yield.location = terminator.location
    replace_dropping_results(rw, op, results, forwarded)
    return True


def fold_tensor_cast_into_for(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ForOpTensorCastFolder."""
    assert isinstance(op, scf.ForOp)
    for index, (init, result) in enumerate(zip(op.iter_args, op.results, strict=True)):
        cast = init.owner
        if not isinstance(cast, tensor.CastOp):
            continue
        source = cast.operands[0]
        if source.type == cast.results[0].type:
            continue
        if not preserves_static_information(cast.results[0].type, source.type):
            continue
        if not result.has_one_use():
            continue
        old_type, source_type = init.type, source.type
        # Both are ranked tensors: preserves_static_information checked them.
        assert isinstance(old_type, TensorType) and isinstance(source_type, TensorType)
        inits = list(op.iter_args)
        inits[index] = source
        loop = new_for(rw, op, op.lb, op.ub, op.step, inits)
        block = loop.body.block
        rw.set_insertion_point(InsertPoint.at_start(block))
        cast_in = rw.create(tensor.CastOp(block.args[1 + index], old_type), op).results[0]
        replacements: list[SSAValue | None] = list(block.args)
        replacements[1 + index] = cast_in
        old_block = op.body.block
        terminator = _yield(old_block)
        move_block_ops(rw, old_block, InsertPoint.at_end(block), replacements, stop=terminator)
        rw.set_insertion_point(InsertPoint.at_end(block))
        yielded = list(terminator.operands)
        yielded[index] = rw.create(tensor.CastOp(yielded[index], source_type), op).results[0]
        rw.create(scf.YieldOp(*yielded), terminator)
        rw.set_insertion_point(InsertPoint.after(loop))
        results = list(loop.results)
        results[index] = rw.create(tensor.CastOp(results[index], old_type), op).results[0]
        rw.replace_values(op, results)
        return True
    return False


# --- scf.if -----------------------------------------------------------------------------------


def _inline_region(rw: CanonRewriter, region: Region, op: Operation) -> list[SSAValue]:
    """Move a single-block region's ops before `op`; returns the yielded values."""
    block = region.block
    terminator = _yield(block)
    values = list(terminator.operands)
    move_block_ops(rw, block, InsertPoint.before(op), [], stop=terminator)
    return values


def if_static_condition(op: Operation, rw: CanonRewriter) -> bool:
    assert isinstance(op, scf.IfOp)
    c = constant_int(op.cond)
    if c is None:
        return False
    region = op.true_region if c & 1 else op.false_region
    if not region.blocks:
        rw.replace_values(op, [])
        return True
    values = _inline_region(rw, region, op)
    rw.replace_values(op, values)
    return True


def _new_if(rw: CanonRewriter, op: scf.IfOp, result_types: Sequence[Attribute]) -> scf.IfOp:
    new = scf.IfOp(op.cond, list(result_types), Region(), Region())
    new.attributes.update(op.attributes)
    rw.create(new, op)
    return new


def if_remove_unused_results(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's RemoveUnusedResults (and ReplaceIfYieldWithConditionOrValue's forward of
    identical yields)."""
    assert isinstance(op, scf.IfOp)
    if not op.results or not op.false_region.blocks:
        return False
    then_yield = _yield(op.true_region.block)
    else_yield = _yield(op.false_region.block)
    forwarded: dict[int, SSAValue] = {}
    for i, (a, b) in enumerate(zip(then_yield.operands, else_yield.operands, strict=True)):
        if a is b and is_defined_outside(a, op):
            forwarded[i] = a
    used = [i for i, r in enumerate(op.results) if r.uses and i not in forwarded]
    if len(used) == len(op.results):
        return False
    new = _new_if(rw, op, [op.results[i].type for i in used])
    for old_region, new_region in (
        (op.true_region, new.true_region),
        (op.false_region, new.false_region),
    ):
        block = old_region.block
        old_region.detach_block(block)
        new_region.add_block(block)
        terminator = _yield(block)
        rw.set_insertion_point(terminator)
        rw.create(scf.YieldOp(*(terminator.operands[i] for i in used)), terminator)
        rw.erase(terminator)
    results = [new.results[used.index(i)] if i in used else None for i in range(len(op.results))]
    outside = [forwarded.get(i) for i in range(len(op.results))]
    replace_dropping_results(rw, op, results, outside)
    return True


def if_remove_empty_else(op: Operation, rw: CanonRewriter) -> bool:
    assert isinstance(op, scf.IfOp)
    if op.results or not op.false_region.blocks:
        return False
    block = op.false_region.block
    if len(list(block.ops)) != 1:
        return False
    rw.erase(_yield(block))
    op.false_region.detach_block(block)
    block.erase()
    rw.modified(op)
    return True


def if_to_select(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ConvertTrivialIfToSelect (both branches only yield) and the i1
    true/false yield to the condition."""
    assert isinstance(op, scf.IfOp)
    if not op.results or not op.false_region.blocks:
        return False
    then_block, else_block = op.true_region.block, op.false_region.block
    if len(list(then_block.ops)) != 1 or len(list(else_block.ops)) != 1:
        return False
    then_values = _yield(then_block).operands
    else_values = _yield(else_block).operands
    rw.set_insertion_point(op)
    results: list[SSAValue] = []
    for a, b, r in zip(then_values, else_values, op.results, strict=True):
        if a is b:
            results.append(a)
            continue
        ca, cb = constant_int(a), constant_int(b)
        if (
            isinstance(r.type, IntegerType)
            and r.type.width.data == 1
            and ca is not None
            and cb is not None
        ):
            if ca & 1 and not cb & 1:
                results.append(op.cond)
                continue
            if not ca & 1 and cb & 1:
                one = rw.create(arith.ConstantOp(IntegerAttr(-1, r.type)), op).results[0]
                results.append(rw.create(arith.XOrIOp(op.cond, one), op).results[0])
                continue
        results.append(rw.create(arith.SelectOp(op.cond, a, b), op).results[0])
    rw.replace_values(op, results)
    return True


# --- scf.execute_region -----------------------------------------------------------------------


def inline_execute_region(op: Operation, rw: CanonRewriter) -> bool:
    """A single-block `scf.execute_region` is inlined (upstream's SingleBlockExecuteInliner)."""
    region = op.regions[0]
    if len(region.blocks) != 1:
        return False
    values = _inline_region(rw, region, op)
    rw.replace_values(op, values)
    return True


# --- loop canonicalization (scf.for_loop_canonicalization) ----------------------------------


def _same_shape_through_loop(arg: BlockArgument, loop: scf.ForOp) -> bool:
    """Upstream's `isShapePreserving`: the yielded value for `arg` has its shape (it is
    `arg` or built from it by destination-style ops / insert_slice / a nested loop)."""
    yielded = _yield(loop.body.block).operands[arg.index - 1]
    value: SSAValue = yielded
    seen = 0
    while value is not arg and seen < 256:
        seen += 1
        owner = value.owner
        if not isinstance(owner, Operation):
            return False
        if isinstance(owner, tensor.InsertSliceOp | tensor.InsertOp):
            value = owner.operands[1]
            continue
        if isinstance(owner, scf.ForOp) and isinstance(value, OpResult):
            value = owner.operands[3 + value.index]
            continue
        if is_structured(owner) and isinstance(value, OpResult):
            value = dps_inits(owner)[value.index]
            continue
        if isinstance(owner, vector.TransferWriteOp) and owner.results:
            value = owner.operands[1]
            continue
        return False
    return value is arg


def dim_of_iter_arg(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's DimOfIterArgFolder / DimOfLoopResultFolder."""
    source = op.operands[0]
    loop: Operation | None = None
    index: int | None = None
    if isinstance(source, BlockArgument):
        owner = source.block.parent_op()
        if isinstance(owner, scf.ForOp) and source.index > 0:
            loop, index = owner, source.index - 1
    elif isinstance(source, OpResult) and isinstance(source.op, scf.ForOp):
        loop, index = source.op, source.index
    if loop is None or index is None:
        return False
    assert isinstance(loop, scf.ForOp)
    arg = loop.body.block.args[1 + index]
    if not isinstance(arg.type, ShapedType) or not _same_shape_through_loop(arg, loop):
        return False
    op.operands = [loop.iter_args[index], op.operands[1]]
    rw.modified(op)
    return True


def for_patterns() -> PatternSet:
    """scf.for's canonicalization patterns."""
    return PatternSet().add(
        scf.ForOp, fold_iter_args, simplify_trivial_loops, fold_tensor_cast_into_for
    )


def patterns() -> PatternSet:
    """The canonicalization patterns of scf.for, scf.if and scf.execute_region (those of
    scf.forall are in `scf_forall`)."""
    return (
        for_patterns()
        .add(
            scf.IfOp,
            if_static_condition,
            if_remove_unused_results,
            if_to_select,
            if_remove_empty_else,
        )
        .add(scf.ExecuteRegionOp, inline_execute_region)
    )


def dim_patterns() -> PatternSet:
    """The dims of loop-carried values (part of `scf.for_loop_canonicalization`)."""
    return PatternSet().add(tensor.DimOp, dim_of_iter_arg).add(memref.DimOp, dim_of_iter_arg)


__all__ = [
    "dim_patterns",
    "for_patterns",
    "is_defined_outside",
    "move_block_ops",
    "new_for",
    "patterns",
    "replace_dropping_results",
    "trip_count",
]
