"""Apply functions of the loop transform ops (upstream SCFTransformOps.cpp):
`loop.unroll`, `loop.peel`, `loop.forall_to_for`, `loop.hoist_loop_invariant_subsets`.

Messages, handle effects and failure modes are upstream's; the payload algorithms are in
`schedir.transform.rewrites.loops`, `loops_forall` and `loops_licm`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from schedir.diagnostics import Note
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.loop import (
    LoopForallToForOp,
    LoopHoistLoopInvariantSubsetsOp,
    LoopPeelOp,
    LoopUnrollOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.patterns import PayloadTracker
from schedir.transform.rewrites.loops.forall_to_for import SharedOutputsError, forall_to_for
from schedir.transform.rewrites.loops.licm import hoist_loop_invariant_subsets
from schedir.transform.rewrites.loops.unroll_and_peel import (
    peel_first_iteration,
    peel_last_iteration,
    unroll_by_factor,
)
from schedir.transform.state import silenceable


def _flag(op: Operation, name: str) -> bool:
    value = op.properties.get(name)
    if value is None:
        value = op.attributes.get(name)
    if isinstance(value, IntegerAttr):
        return bool(value.value.data)
    return value is not None


@applies(LoopUnrollOp)
def apply_unroll(op: Operation, interp: Interpreter) -> None:
    """`transform.loop.unroll`: unroll each `scf.for` by `factor`.

    Return modes: consumes the target, produces nothing. Silenceable failure ("failed to
    unroll, incorrect type of payload") for a payload that is not a loop schedir unrolls
    (`scf.for`; upstream also takes `affine.for`).
    """
    factor = op.properties["factor"]
    assert isinstance(factor, IntegerAttr)

    def one(payload: Operation) -> list[Mapped | None]:
        if payload.name != "scf.for":
            raise silenceable(op, "failed to unroll, incorrect type of payload")
        unroll_by_factor(payload, factor.value.data)
        return []

    interp.apply_to_each(op, op.operands[0], one)


@applies(LoopPeelOp)
def apply_peel(op: Operation, interp: Interpreter) -> None:
    """`transform.loop.peel`: peel the partial last (or, with `peel_front`, the first)
    iteration of each `scf.for`.

    Return modes: consumes the target; returns the main loop and the peeled loop (per
    target). Silenceable failure "failed to peel the last iteration" when the step already
    divides the iteration space or is at most 1 (whatever `fail_if_already_divisible`
    says, as upstream today), "failed to peel the first iteration" when the loop is known
    to run at most once.
    """
    front = _flag(op, "peel_front")

    def one(payload: Operation) -> list[Mapped | None]:
        if payload.name != "scf.for":
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

    interp.apply_to_each(op, op.operands[0], one)


@applies(LoopForallToForOp)
def apply_forall_to_for(op: Operation, interp: Interpreter) -> None:
    """`transform.loop.forall_to_for`: sequentialize one bufferized `scf.forall`.

    Return modes: consumes the target; returns one handle per loop, outermost first.
    Silenceable failure if the handle does not hold exactly one op ("expected a single
    payload op"), if it is not an `scf.forall`, if the forall has shared outputs
    ("unsupported shared outputs (didn't bufferize?)"), or if the number of results
    differs from its rank.
    """
    payloads = interp.state.payload_ops(op.operands[0])
    if len(payloads) != 1:
        raise silenceable(op, "expected a single payload op")
    target = payloads[0]
    if target.name != "scf.forall":
        raise silenceable(
            op,
            "expected the payload to be scf.forall",
            notes=[Note("payload op", op_location(target))],
        )
    if target.operands and target.results:
        raise silenceable(op, "unsupported shared outputs (didn't bufferize?)")
    rank = len(target.properties["staticLowerBound"].get_values())  # type: ignore[attr-defined]
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


@applies(LoopHoistLoopInvariantSubsetsOp)
def apply_hoist_loop_invariant_subsets(op: Operation, interp: Interpreter) -> None:
    """`transform.loop.hoist_loop_invariant_subsets`: hoist matching extraction/insertion
    pairs of loop-carried tensors out of each target loop.

    Return modes: only reads the target; handles to a loop that gains iter_args follow
    the new loop. Never fails (loops other than `scf.for` are left alone).
    """
    tracker = PayloadTracker(interp, op)
    for target in interp.state.payload_ops(op.operands[0]):
        hoist_loop_invariant_subsets(target, tracker.listener())
    tracker.check()


__all__ = [
    "apply_forall_to_for",
    "apply_hoist_loop_invariant_subsets",
    "apply_peel",
    "apply_unroll",
]
