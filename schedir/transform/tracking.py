"""Handles that follow the payload ops a transform op rewrites: upstream's
`ErrorCheckingTrackingListener` (TransformInterfaces.cpp), for the ops that rewrite with
patterns (`apply_patterns`, `apply_cse`, `vectorize_children_and_apply_patterns`, ...).

* a replaced op's handles move to the single op defining all replacement values, when it
  has the replaced op's name or is a constant; casts (`tensor.cast`, `memref.cast`,
  `arith.index_cast`, ...) are looked through, as upstream's `CastOpInterface`;
* if no such op exists and a handle to the replaced op is still used after the transform
  op, the transform op fails silenceably ("tracking listener failed to find replacement
  op during application of this transform op", with upstream's notes), unless it carries
  `transform.silence_tracking_failures`; dead or consumed handles just drop it;
* erased ops (and the ops nested in them) silently leave their handles.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.interfaces import TransformOpInterface
from schedir.transform.state import (
    TransformState,
    is_ancestor,
    payload_location,
    value_location,
)

CAST_OPS = frozenset(
    {
        "tensor.cast",
        "memref.cast",
        "memref.memory_space_cast",
        "arith.index_cast",
        "arith.index_castui",
        "arith.bitcast",
        "arith.extf",
        "arith.truncf",
        "arith.extsi",
        "arith.extui",
        "arith.trunci",
        "arith.sitofp",
        "arith.uitofp",
        "arith.fptosi",
        "arith.fptoui",
        "builtin.unrealized_conversion_cast",
    }
)
"""Ops implementing upstream's `CastOpInterface` (the tracking looks through them)."""


def happens_before(a: Operation, b: Operation) -> bool:
    """Upstream's `happensBefore`: `a` or one of its ancestors precedes `b`'s ancestor in
    one block, and `b` is not inside `a`."""
    current: Operation | None = a
    while current is not None:
        if current is not b and is_ancestor(current, b):
            return False
        block = current.parent_block()
        if block is not None:
            ancestor = _ancestor_in_block(block, b)
            if ancestor is not None:
                return _before(current, ancestor)
        current = current.parent_op()
    return False


def _ancestor_in_block(block: Block, op: Operation) -> Operation | None:
    node: Operation | None = op
    while node is not None:
        if node.parent_block() is block:
            return node
        node = node.parent_op()
    return None


def _before(a: Operation, b: Operation) -> bool:
    node = a.next_op
    while node is not None:
        if node is b:
            return True
        node = node.next_op
    return False


class PayloadTracker:
    """Upstream's `ErrorCheckingTrackingListener` for one transform op."""

    def __init__(self, state: TransformState, transform_op: Operation) -> None:
        self.state = state
        self.transform_op = transform_op
        self.consumed = set(
            transform_op.consumed_values() if isinstance(transform_op, TransformOpInterface) else ()
        )
        self.failure: TransformError | None = None
        self.notes: list[Note] = []
        self.errors = 0

    def listener(self) -> PatternRewriterListener:
        return PatternRewriterListener(
            operation_replacement_handler=[self.replaced],
            operation_removal_handler=[self.erased],
        )

    # -- notifications -------------------------------------------------------------------

    def erased(self, op: Operation) -> None:
        for nested in op.walk():
            for result in nested.results:
                self.state.replace_payload_value(result, None)
            self.state.replace_payload_op(nested, None)

    def replaced(self, op: Operation, new_values: Sequence[SSAValue | None]) -> None:
        for old, new in zip(op.results, new_values, strict=False):
            self.state.replace_payload_value(old, new)
        handles = self.state.handles_of(op)
        if not handles:
            return
        alive = next((h for h in handles if self._is_alive(h)), None)
        if alive is None or any(h in self.consumed for h in handles):
            self.state.replace_payload_op(op, None)
            return
        replacement, reasons = find_replacement_op(op, new_values)
        if replacement is None:
            self._report(op, new_values, alive, reasons)
            self.state.replace_payload_op(op, None)
            return
        self.state.replace_payload_op(op, replacement)

    def _is_alive(self, handle: SSAValue) -> bool:
        """A handle is alive if a transform op still to run uses it."""
        for use in handle.uses:
            user = use.operation
            if user is self.transform_op or is_ancestor(user, self.transform_op):
                continue
            if _same_tree(user, self.transform_op) and happens_before(user, self.transform_op):
                continue
            return True
        return False

    def _report(
        self,
        op: Operation,
        values: Sequence[SSAValue | None],
        handle: SSAValue,
        reasons: list[Note],
    ) -> None:
        counter = self.errors
        self.errors += 1
        # Notes without a location belong to the transform op, as upstream attaches them.
        here = op_location(self.transform_op)
        self.notes.extend(n if n.location is not None else Note(n.message, here) for n in reasons)
        self.notes.append(
            Note(
                "replacement is required because this handle must be updated",
                value_location(handle),
            )
        )
        self.notes.append(Note(f"[{counter}] replaced op", op_location(op)))
        for index, value in enumerate(values):
            if value is not None:
                self.notes.append(
                    Note(f"[{counter}] replacement value {index}", payload_location(value))
                )

    def check(self) -> None:
        """Raise the tracking failure (silenceable), unless silenced on the op."""
        if not self.errors:
            return
        if "transform.silence_tracking_failures" in self.transform_op.attributes:
            return
        raise TransformError(
            "tracking listener failed to find replacement op during application of this transform op",
            op_location(self.transform_op),
            tuple(self.notes),
            silenceable=True,
        )


def _root(op: Operation) -> Operation:
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


def _same_tree(a: Operation, b: Operation) -> bool:
    return _root(a) is _root(b)


def _common_defining_op(values: Sequence[SSAValue | None]) -> Operation | None:
    """Upstream's `getCommonDefiningOp` (a block argument leaves the op unknown)."""
    defining: Operation | None = None
    for value in values:
        if value is None:
            continue
        owner = value.op if isinstance(value, OpResult) else None
        if defining is None:
            defining = owner
            continue
        if defining is not owner:
            return None
    return defining


def find_replacement_op(
    op: Operation, values: Sequence[SSAValue | None]
) -> tuple[Operation | None, list[Note]]:
    """Upstream's `TrackingListener::findReplacementOp`; returns the op or the notes
    explaining why none was found."""
    notes: list[Note] = []
    current: list[SSAValue | None] = list(values)
    while current:
        defining = _common_defining_op(current)
        if defining is None:
            notes.append(Note("replacement values belong to different ops", None))
            return None, notes
        if defining.name in CAST_OPS:
            notes.append(Note("using output of 'CastOpInterface' op", op_location(defining)))
            current = list(defining.operands)
            continue
        if defining.name == op.name or isinstance(defining, arith.ConstantOp):
            return defining, []
        current = []
    notes.append(Note("ran out of suitable replacement values", None))
    return None, notes


__all__ = ["CAST_OPS", "PayloadTracker", "find_replacement_op", "happens_before"]
