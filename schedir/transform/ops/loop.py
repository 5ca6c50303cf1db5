"""Apply functions of the loop transform ops (upstream SCFTransformOps.cpp):
`loop.unroll`, `loop.unroll_full`, `loop.unroll_and_jam`, `loop.peel`, `loop.forall_to_for`,
`loop.hoist_loop_invariant_subsets`, `loop.coalesce`, `loop.outline`, `loop.fuse_sibling`,
`scf.take_assumed_branch`, and the pattern set of the `apply_patterns.scf.for_loop_canonicalization` descriptor.

Messages, handle effects and failure modes are upstream's; the payload algorithms are in
`schedir.transform.rewrites.loops` (`unroll_and_peel`, `unroll_and_jam`, `forall_to_for`, `licm`,
`coalesce`, `outline`, `fuse_sibling`).
"""

from __future__ import annotations

from xdsl.dialects import affine, scf
from xdsl.ir import Operation

from schedir.diagnostics import Note, TransformError
from schedir.dialects.scf import ForallOp
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.descriptors import Descriptor
from schedir.dialects.transform.loop import (
    ApplyScfForLoopCanonicalizationOp,
    LoopCoalesceOp,
    LoopForallToForOp,
    LoopForallToParallelOp,
    LoopFuseSiblingOp,
    LoopHoistLoopInvariantSubsetsOp,
    LoopOutlineOp,
    LoopParallelForToNestedForsOp,
    LoopPeelOp,
    LoopUnrollAndJamOp,
    LoopUnrollFullOp,
    LoopUnrollOp,
    TakeAssumedBranchOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies, populates
from schedir.transform.rewrites.canonicalize.driver import pattern_set
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.loops.coalesce import coalesce_perfect_nest
from schedir.transform.rewrites.loops.forall_to_for import SharedOutputsError, forall_to_for
from schedir.transform.rewrites.loops.fuse_sibling import FusionFailure, fuse_sibling_loops
from schedir.transform.rewrites.loops.licm import hoist_loop_invariant_subsets
from schedir.transform.rewrites.loops.outline import OutlineFailure, outline_loop
from schedir.transform.rewrites.loops.parallel import (
    LoopConversionFailure,
    forall_to_parallel,
    parallel_to_nested_fors,
)
from schedir.transform.rewrites.loops.unroll_and_jam import (
    UnrollAndJamFailure,
    UnrollFullFailure,
    unroll_and_jam,
    unroll_full,
)
from schedir.transform.rewrites.loops.unroll_and_peel import (
    UnrollTooLarge,
    peel_first_iteration,
    peel_last_iteration,
    unroll_by_factor,
)
from schedir.transform.rewrites.take_branch import take_branch
from schedir.transform.state import definite, payload_location, silenceable
from schedir.transform.tracking import PayloadTracker


@applies(LoopUnrollOp)
def apply_unroll(op: LoopUnrollOp, interp: Interpreter) -> None:
    """Unroll each `scf.for` by `factor`."""
    factor = op.factor.value.data

    def one(payload: Operation) -> list[Mapped | None]:
        if not isinstance(payload, scf.ForOp):
            raise silenceable(op, "failed to unroll, incorrect type of payload")
        try:
            unroll_by_factor(payload, factor)
        except UnrollTooLarge as err:
            raise silenceable(op, str(err), payload) from None
        return []

    interp.apply_to_each(op, op.target, one)


@applies(LoopUnrollAndJamOp)
def apply_unroll_and_jam(op: LoopUnrollAndJamOp, interp: Interpreter) -> None:
    """Unroll each `scf.for` by `factor` and jam the copies into its inner loops."""
    factor = op.factor.value.data

    def one(payload: Operation) -> list[Mapped | None]:
        if not isinstance(payload, scf.ForOp):
            # Upstream also unrolls-and-jams `affine.for`; schedir's payloads have none.
            raise silenceable(op, "failed to unroll and jam, incorrect type of payload")
        try:
            unroll_and_jam(payload, factor, interp.state.tracking_listener())
        except UnrollAndJamFailure:
            raise silenceable(op, "failed to unroll and jam") from None
        return []

    interp.apply_to_each(op, op.target, one)


@applies(LoopUnrollFullOp)
def apply_unroll_full(op: LoopUnrollFullOp, interp: Interpreter) -> None:
    """Fully unroll each `scf.for` of constant trip count."""

    def one(payload: Operation) -> list[Mapped | None]:
        if not isinstance(payload, scf.ForOp):
            raise silenceable(op, "failed to fully unroll, incorrect type of payload")
        try:
            unroll_full(payload, interp.state.tracking_listener())
        except UnrollFullFailure:
            raise silenceable(op, "failed to fully unroll") from None
        except UnrollTooLarge as err:
            raise silenceable(op, str(err), payload) from None
        return []

    interp.apply_to_each(op, op.target, one)


@applies(LoopPeelOp)
def apply_peel(op: LoopPeelOp, interp: Interpreter) -> None:
    """Peel the partial last (or first) iteration of each `scf.for`."""
    front = bool(op.peel_front.value.data)

    def one(payload: Operation) -> list[Mapped | None]:
        if not isinstance(payload, scf.ForOp):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        if front:
            result = peel_first_iteration(payload)
            if result is None:
                raise silenceable(op, "failed to peel the first iteration")
        else:
            result = peel_last_iteration(payload)
            if result is None:
                raise silenceable(op, "failed to peel the last iteration")
        return [result.main, result.peeled]

    interp.apply_to_each(op, op.target, one)


@applies(TakeAssumedBranchOp)
def apply_take_assumed_branch(op: TakeAssumedBranchOp, interp: Interpreter) -> None:
    """Replace each `scf.if` by its then (or else) branch."""
    else_branch = op.take_else_branch is not None

    def one(payload: Operation) -> list[Mapped | None]:
        if not isinstance(payload, scf.IfOp):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        if not take_branch(interp.state.rewriter(payload), payload, else_branch=else_branch):
            branch = "`else`" if else_branch else "`then`"
            raise definite(op, f"requires an scf.if op with a single-block {branch} region")
        return []

    interp.apply_to_each(op, op.target, one)


@applies(LoopForallToForOp)
def apply_forall_to_for(op: LoopForallToForOp, interp: Interpreter) -> None:
    """Sequentialize one bufferized `scf.forall` into an `scf.for` nest."""
    payloads = interp.state.payload_ops(op.target)
    if len(payloads) != 1:
        raise silenceable(op, "expected a single payload op")
    target = payloads[0]
    if not isinstance(target, ForallOp):
        raise silenceable(
            op,
            "expected the payload to be scf.forall",
            notes=[Note("payload op", op_location(target))],
        )
    if target.operands and target.results:
        raise silenceable(op, "unsupported shared outputs (didn't bufferize?)")
    rank = target.rank
    if len(op.results) != rank:
        raise silenceable(
            op,
            f"op expects as many results ({len(op.results)}) as payload has induction variables ({rank})",
            notes=[Note("payload op", op_location(target))],
        )
    try:
        result = forall_to_for(target)
    except SharedOutputsError as err:
        raise silenceable(op, str(err)) from None
    interp.set_results(op, [[loop] for loop in result.loops])


def _single_loop(
    op: LoopForallToParallelOp | LoopParallelForToNestedForsOp,
    interp: Interpreter,
    kind: type[Operation],
    kind_name: str,
) -> Operation:
    """The one payload op of the target, of class `kind` (upstream's checks, in order)."""
    payload = list(interp.state.payload_ops(op.target))
    if len(payload) != 1:
        raise silenceable(op, "expected a single payload op")
    target = payload[0]
    if not isinstance(target, kind):
        raise silenceable(
            op,
            f"expected the payload to be {kind_name}",
            notes=[Note("payload op", op_location(target))],
        )
    if isinstance(target, ForallOp) and target.outputs:
        raise silenceable(op, "unsupported shared outputs (didn't bufferize?)")
    if len(op.results) != 1:
        raise silenceable(
            op,
            f"op expects one result, given {len(op.results)}",
            notes=[Note("payload op", op_location(target))],
        )
    return target


@applies(LoopForallToParallelOp)
def apply_forall_to_parallel(op: LoopForallToParallelOp, interp: Interpreter) -> None:
    """Convert one bufferized `scf.forall` into an `scf.parallel`."""
    target = _single_loop(op, interp, ForallOp, "scf.forall")
    assert isinstance(target, ForallOp)
    try:
        parallel = forall_to_parallel(target, interp.state.tracking_listener())
    except LoopConversionFailure:
        raise silenceable(op, "failed to convert forall into parallel") from None
    interp.set_results(op, [[parallel]])


@applies(LoopParallelForToNestedForsOp)
def apply_parallel_for_to_nested_fors(
    op: LoopParallelForToNestedForsOp, interp: Interpreter
) -> None:
    """Convert one `scf.parallel` into an `scf.for` nest."""
    target = _single_loop(op, interp, scf.ParallelOp, "scf.parallel")
    assert isinstance(target, scf.ParallelOp)
    try:
        outer = parallel_to_nested_fors(target, interp.state.tracking_listener())
    except LoopConversionFailure:
        raise silenceable(op, "failed to convert parallel into nested fors") from None
    interp.set_results(op, [[outer]])


@applies(LoopHoistLoopInvariantSubsetsOp)
def apply_hoist_loop_invariant_subsets(
    op: LoopHoistLoopInvariantSubsetsOp, interp: Interpreter
) -> None:
    """Hoist matching subset extraction/insertion pairs out of each loop."""
    tracker = PayloadTracker(interp.state, op)
    for target in interp.state.payload_ops(op.target):
        hoist_loop_invariant_subsets(target, tracker.listener())
    tracker.check()


@applies(LoopCoalesceOp)
def apply_coalesce(op: LoopCoalesceOp, interp: Interpreter) -> None:
    """Coalesce the perfect loop nest rooted at each `scf.for` / `affine.for`."""

    def one(payload: Operation) -> list[Mapped | None]:
        changed = isinstance(payload, scf.ForOp | affine.ForOp) and coalesce_perfect_nest(payload)
        if not changed:
            raise silenceable(op, "failed to coalesce")
        return [payload]

    interp.apply_to_each(op, op.target, one)


@applies(LoopOutlineOp)
def apply_outline(op: LoopOutlineOp, interp: Interpreter) -> None:
    """Outline each target loop into a function `func_name` and call it."""
    functions: list[Operation] = []
    calls: list[Operation] = []
    for target in interp.state.payload_ops(op.target):
        try:
            outlined = outline_loop(target, op.func_name.data)
        except OutlineFailure:
            raise silenceable(
                op, "failed to outline", notes=[Note("target op", op_location(target))]
            ) from None
        functions.append(outlined.function)
        calls.append(outlined.call)
    interp.set_results(op, [functions, calls])


@applies(LoopFuseSiblingOp)
def apply_fuse_sibling(op: LoopFuseSiblingOp, interp: Interpreter) -> None:
    """Fuse the one `target` loop into the one `source` loop (upstream's
    `LoopFuseSiblingOp::apply`); failures are reported at the payload op upstream names."""
    targets = interp.state.payload_ops(op.target)
    sources = interp.state.payload_ops(op.source)
    if len(targets) != 1 or len(sources) != 1:
        raise definite(
            op,
            f"requires exactly one target handle (got {len(targets)}) and exactly one "
            f"source handle (got {len(sources)})",
        )
    try:
        fused = fuse_sibling_loops(targets[0], sources[0], interp.state.tracking_listener())
    except FusionFailure as err:
        raise TransformError(err.message, payload_location(err.at), silenceable=True) from None
    interp.set_results(op, [[fused]])


@populates(ApplyScfForLoopCanonicalizationOp)
def for_loop_canonicalization(op: Descriptor) -> PatternSet:
    """Canonicalize scf.for: affine.min/max of induction variables, dim of iter_args."""
    return pattern_set(["scf.for_loop_canonicalization"])
