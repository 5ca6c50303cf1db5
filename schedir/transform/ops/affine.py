"""Apply functions of the affine transform ops (upstream AffineTransformOps.cpp):
`affine.simplify_bounded_affine_ops` and `affine.super_vectorize`.

Messages and failure modes are upstream's; the payload algorithms are
`schedir.transform.rewrites.bounded_min_max` and `schedir.transform.rewrites.affine_vectorize`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation, SSAValue

from schedir.diagnostics import Note
from schedir.dialects.affine import MaxOp, MinOp
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.affine import SimplifyBoundedAffineOpsOp, SuperVectorizeOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.rewrites.affine_vectorize import vectorize_affine_loops
from schedir.transform.rewrites.bounded_min_max import Interval, simplify_bounded_min_max
from schedir.transform.state import definite


@applies(SimplifyBoundedAffineOpsOp)
def apply_simplify_bounded_affine_ops(op: SimplifyBoundedAffineOpsOp, interp: Interpreter) -> None:
    """Simplify the target min/max ops under the bounds of the bounded values."""
    bounds: dict[SSAValue, Interval] = {}
    bounded_ops: set[Operation] = set()
    for handle, (lower, upper) in zip(op.bounded_values, op.bounds(), strict=True):
        for payload in interp.state.payload_ops(handle):
            if len(payload.results) != 1 or not isinstance(payload.results[0].type, IndexType):
                raise definite(
                    op,
                    "expected bounded value handle to point to one or multiple "
                    "single-result index-typed ops",
                    notes=[Note("multiple/non-index result", op_location(payload))],
                )
            value = payload.results[0]
            # Upper bounds are exclusive; a value bounded twice lies in both ranges.
            lo, hi = lower, upper - 1
            if value in bounds:
                old_lo, old_hi = bounds[value]
                lo = max(lo, old_lo) if old_lo is not None else lo
                hi = min(hi, old_hi) if old_hi is not None else hi
            bounds[value] = (lo, hi)
            bounded_ops.add(payload)
    targets: list[MinOp | MaxOp] = []
    for target in interp.state.payload_ops(op.target):
        if not isinstance(target, MinOp | MaxOp):
            raise definite(
                op,
                "target must be affine.min or affine.max",
                notes=[Note("target op", op_location(target))],
            )
        if target in bounded_ops:
            raise definite(
                op,
                "target op result must not be constrainted",
                notes=[Note("target/constrained op", op_location(target))],
            )
        targets.append(target)
    simplify_bounded_min_max(targets, bounds, interp.state.tracking_listener())


@applies(SuperVectorizeOp)
def apply_super_vectorize(op: SuperVectorizeOp, interp: Interpreter) -> None:
    """Vectorize the affine loop nests under each target still in the payload (a nest
    vectorized from an outer target erases the loops inner targets pointed to)."""
    for target in interp.state.payload_ops(op.target):
        if not _attached(target):
            continue
        vectorize_affine_loops(target, op.sizes(), op.pattern(), op.reductions())


def _attached(op: Operation) -> bool:
    top = op
    while (parent := top.parent_op()) is not None:
        top = parent
    return isinstance(top, ModuleOp)
