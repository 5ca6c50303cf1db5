"""Fusion of two independent sibling loops (upstream SCFTransformOps.cpp `isOpSibling`,
`isForWithIdenticalConfiguration`, `isForallWithIdenticalConfiguration`, and SCF/Utils
`fuseIndependentSiblingForLoops` / `fuseIndependentSiblingForallLoops`).

`target` is fused into `source`: both must be in the same block, moving `target` to where
`source` is must keep every value defined before its uses, and both must be `scf.for`
loops with the same SSA bounds and step, or `scf.forall` loops with the same bounds,
steps and mapping. The fused loop is built right after `source`, with `source`'s bounds
and location; its body is `target`'s body then `source`'s, its carried values (iter_args
or shared_outs) and results `target`'s then `source`'s:

    %a = scf.for %i = %c0 to %n step %c4 iter_args(%x = %t) -> (tensor<16xf32>) { A }
    %b = scf.for %i = %c0 to %n step %c4 iter_args(%y = %u) -> (tensor<16xf32>) { B }
    // fuse %a into %b ->
    %r:2 = scf.for %i = %c0 to %n step %c4 iter_args(%x = %t, %y = %u) -> (...) { A; B }

As upstream, nothing checks that the two bodies are independent (one may read what the
other writes through memory): that is the schedule author's promise. Other loop kinds
(`scf.parallel`, `scf.while`) are not fused, as in upstream's interpreter.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects.scf import ForallOp
from schedir.dialects.utils import Mixed
from schedir.transform.rewrites.rewriter import CanonRewriter


class FusionFailure(Exception):
    """Why two loops cannot be fused, and the payload op upstream reports it at."""

    def __init__(self, message: str, at: Operation) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


def _same_mixed(a: Sequence[Mixed], b: Sequence[Mixed]) -> bool:
    """Upstream's OpFoldResult equality: equal constants, or the same SSA value."""
    if len(a) != len(b):
        return False
    return all(
        (x is y) if isinstance(x, SSAValue) or isinstance(y, SSAValue) else x == y
        for x, y in zip(a, b, strict=True)
    )


def _identical_configuration(target: Operation, source: Operation) -> bool:
    """Upstream's `isForWithIdenticalConfiguration` / `isForallWithIdenticalConfiguration`:
    two `scf.for` with the same SSA bounds and step, or two `scf.forall` with the same
    mixed bounds, steps and mapping."""
    if isinstance(target, scf.ForOp) and isinstance(source, scf.ForOp):
        return target.lb is source.lb and target.ub is source.ub and target.step is source.step
    if isinstance(target, ForallOp) and isinstance(source, ForallOp):
        return (
            _same_mixed(target.lower_bounds, source.lower_bounds)
            and _same_mixed(target.upper_bounds, source.upper_bounds)
            and _same_mixed(target.steps, source.steps)
            and target.mapping == source.mapping
        )
    return False


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    """`op` or its ancestor that lies in `block` (None if `op` is not nested in it)."""
    current: Operation | None = op
    while current is not None and current.parent is not block:
        current = current.parent_op()
    return current


def _properly_dominates(a: Operation, b: Operation) -> bool:
    """Upstream's `DominanceInfo::properlyDominates(a, b, enclosingOpOk=false)` for ops of
    single-block regions: `a` comes before (an ancestor of) `b` in a block enclosing `b`."""
    block = a.parent
    if block is None:
        return False
    ancestor = _ancestor_in(b, block)
    if ancestor is None or ancestor is a:
        return False
    return block.get_operation_index(a) < block.get_operation_index(ancestor)


def _values_used_from_above(op: Operation) -> list[tuple[SSAValue, Operation]]:
    """(value, user) for each operand inside `op`'s regions defined outside `op`
    (upstream's `visitUsedValuesDefinedAbove` on its regions)."""
    found: list[tuple[SSAValue, Operation]] = []
    for region in op.regions:
        for inner in region.walk():
            for operand in inner.operands:
                owner = operand.owner
                defining = owner if isinstance(owner, Operation) else owner.parent_op()
                if defining is None or not op.is_ancestor(defining):
                    found.append((operand, inner))
    return found


def _check_siblings(target: Operation, source: Operation) -> None:
    """Upstream's `isOpSibling`: both in one block, and moving `target` to `source`'s
    place keeps every value defined before its uses."""
    if target is source:
        raise FusionFailure("target and source need to be different loops", source)
    block = source.parent
    if block is None or target.parent is not block:
        raise FusionFailure("target and source are not in the same block", source)
    if block.get_operation_index(target) < block.get_operation_index(source):
        # `target` moves down to `source`: its users must all come after `source`.
        for result in target.results:
            for use in result.uses:
                if not _properly_dominates(source, use.operation):
                    raise FusionFailure(
                        "user of results of target should be properly dominated by source",
                        target,
                    )
        return
    # `target` moves up to `source`: what it uses must be defined before `source` (block
    # arguments of enclosing blocks are).
    for operand in target.operands:
        defining = operand.owner
        if isinstance(defining, Operation) and not _properly_dominates(defining, source):
            raise FusionFailure("operands of target should be properly dominated by source", target)
    for value, user in _values_used_from_above(target):
        defining = value.owner
        if isinstance(defining, Operation) and not _properly_dominates(defining, source):
            raise FusionFailure(
                "values used inside regions of target should be properly dominated by source",
                user,
            )


def check_fusion_legality(target: Operation, source: Operation) -> None:
    """Raise FusionFailure if `target` cannot be fused into `source`: upstream's sibling
    and dominance checks, then the same loop kind and iteration space."""
    _check_siblings(target, source)
    if not _identical_configuration(target, source):
        raise FusionFailure("operations cannot be fused", target)


def _clone_body(
    rw: CanonRewriter, block: Block, mapping: dict[SSAValue, SSAValue], point: InsertPoint
) -> None:
    """Clone `block`'s ops but its terminator at `point`, extending `mapping`."""
    for op in list(block.ops)[:-1]:
        clone = op.clone(value_mapper=mapping)
        rw.insert(clone, point)
        mapping.update(zip(op.results, clone.results, strict=True))


def _name_args(fused: Block, target: Block, source: Block, num_ivs: int) -> None:
    """Name the fused loop's arguments as the loops' own: induction variables as the
    source's, carried values as their loop's."""
    olds = [*source.args[:num_ivs], *target.args[num_ivs:], *source.args[num_ivs:]]
    for new, old in zip(fused.args, olds, strict=True):
        new.name_hint = old.name_hint


def _fuse_for(rw: CanonRewriter, target: scf.ForOp, source: scf.ForOp) -> Operation:
    inits = [*target.iter_args, *source.iter_args]
    block = Block(arg_types=[IndexType(), *(v.type for v in inits)])
    fused = scf.ForOp(source.lb, source.ub, source.step, inits, Region(block))
    rw.create(fused, source)
    _name_args(block, target.body.block, source.body.block, 1)
    iv, *carried = block.args
    n_target = len(target.iter_args)
    mapping: dict[SSAValue, SSAValue] = {}
    for loop, args in ((target, carried[:n_target]), (source, carried[n_target:])):
        loop_block = loop.body.block
        mapping[loop_block.args[0]] = iv
        mapping.update(zip(loop_block.args[1:], args, strict=True))
    yielded: list[SSAValue] = []
    for loop in (target, source):
        _clone_body(rw, loop.body.block, mapping, InsertPoint.at_end(block))
        terminator = loop.body.block.last_op
        assert terminator is not None
        yielded += [mapping.get(v, v) for v in terminator.operands]
    rw.insert(scf.YieldOp(*yielded), InsertPoint.at_end(block))
    return fused


def _fuse_forall(rw: CanonRewriter, target: ForallOp, source: ForallOp) -> Operation:
    fused = ForallOp(
        source.lower_bounds,
        source.upper_bounds,
        source.steps,
        [*target.outputs, *source.outputs],
        source.mapping,
    )
    rw.create(fused, source)
    block = fused.body.block
    _name_args(block, target.body.block, source.body.block, source.rank)
    n_target = len(target.outputs)
    mapping: dict[SSAValue, SSAValue] = {}
    for loop, outs in (
        (target, fused.region_iter_args[:n_target]),
        (source, fused.region_iter_args[n_target:]),
    ):
        mapping.update(zip(loop.induction_vars, fused.induction_vars, strict=True))
        mapping.update(zip(loop.region_iter_args, outs, strict=True))
    for loop in (target, source):
        _clone_body(rw, loop.body.block, mapping, InsertPoint.before(fused.terminator))
    terminator_block = fused.terminator.region.block
    for loop in (target, source):
        for op in loop.terminator.yielding_ops:
            clone = op.clone(value_mapper=mapping)
            rw.insert(clone, InsertPoint.at_end(terminator_block))
    return fused


def fuse_sibling_loops(
    target: Operation, source: Operation, listener: PatternRewriterListener | None = None
) -> Operation:
    """Fuse `target` into `source` (checked with `check_fusion_legality` first); returns
    the fused loop, which replaces both."""
    check_fusion_legality(target, source)
    rw = CanonRewriter(InsertPoint.after(source), listener)
    if isinstance(target, scf.ForOp) and isinstance(source, scf.ForOp):
        fused = _fuse_for(rw, target, source)
    else:
        assert isinstance(target, ForallOp) and isinstance(source, ForallOp)
        fused = _fuse_forall(rw, target, source)
    n_target = len(target.results)
    rw.replace_values(target, list(fused.results[:n_target]))
    rw.replace_values(source, list(fused.results[n_target:]))
    # One op's results print as one group (`%0:2`), as upstream's printer does; the
    # replaced loops' names would print them one by one.
    for result in fused.results:
        result.name_hint = None
    return fused


__all__ = ["FusionFailure", "check_fusion_legality", "fuse_sibling_loops"]
