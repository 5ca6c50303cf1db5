"""Apply functions of the clean-up ops: `apply_patterns`, `apply_cse`, `apply_dce`,
`apply_licm` (upstream TransformOps.cpp).

The payload algorithms live in `schedir.transform.rewrites` (the greedy driver and its
pattern sets, CSE, LICM); this module adapts them to handles. Handles to rewritten ops
are kept up to date by `PayloadTracker`, upstream's `TrackingListener`:

* a replaced op's handles move to the single op defining all replacement values, when it
  has the replaced op's name or is a constant; casts (`tensor.cast`, `memref.cast`,
  `arith.index_cast`, ...) are looked through, as upstream's `CastOpInterface`;
* if no such op exists and a handle to the replaced op is still used after this transform
  op, `apply_patterns` fails silenceably ("tracking listener failed to find replacement
  op during application of this transform op", with upstream's notes), unless the op
  carries `transform.silence_tracking_failures`; dead or consumed handles just drop it;
* erased ops (and the ops nested in them) silently leave their handles.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence

from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.traits import IsolatedFromAbove

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.apply import (
    ApplyCommonSubexpressionEliminationOp,
    ApplyDeadCodeEliminationOp,
    ApplyLoopInvariantCodeMotionOp,
    ApplyPatternsOp,
)
from schedir.dialects.transform.interfaces import TransformOpInterface
from schedir.transform.interface import Interpreter, applies
from schedir.transform.rewrites.canonicalize.driver import (
    NO_LIMIT,
    GreedyConfig,
    PatternSet,
    apply_patterns_greedily,
    apply_patterns_to_ops,
    pattern_set,
)
from schedir.transform.rewrites.cse import eliminate_common_subexpressions
from schedir.transform.rewrites.dce import dead_code_elimination
from schedir.transform.rewrites.loops.licm import is_loop_like, move_loop_invariant_code
from schedir.transform.state import (
    definite,
    is_ancestor,
    payload_location,
    silenceable,
    value_location,
)

_PREFIX = "transform.apply_patterns."
_MAX_CSE_ROUNDS = 50
"""Upstream's kNumMaxIterations of the patterns + CSE fixpoint."""

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


# --- handle tracking ----------------------------------------------------------------------


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

    def __init__(self, interp: Interpreter, transform_op: Operation) -> None:
        self.state = interp.state
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


def _same_tree(a: Operation, b: Operation) -> bool:
    root_a, root_b = a, b
    while root_a.parent_op() is not None:
        root_a = root_a.parent_op()  # type: ignore[assignment]
    while root_b.parent_op() is not None:
        root_b = root_b.parent_op()  # type: ignore[assignment]
    return root_a is root_b


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
        if defining.name == op.name or defining.name == "arith.constant":
            return defining, []
        current = []
    notes.append(Note("ran out of suitable replacement values", None))
    return None, notes


# --- apply_patterns -----------------------------------------------------------------------------


def _int_prop(op: Operation, name: str) -> int:
    value = op.properties.get(name)
    if value is None:
        value = op.attributes.get(name)
    data = getattr(getattr(value, "value", None), "data", None)
    if data is None:
        return NO_LIMIT
    # i64 -1 means "no limit" (upstream compares against uint64_t(-1)).
    return NO_LIMIT if data < 0 else int(data)


def descriptor_patterns(descriptor: Operation) -> PatternSet:
    """The pattern set a descriptor names; definite failure if schedir has none.

    schedir's own sets live in `rewrites.canonicalize`; a descriptor
    `transform.apply_patterns.<dialect>.<name>` of another dialect is looked up in the
    module `schedir.transform.rewrites.<dialect>_patterns`, in its
    `DESCRIPTOR_PATTERNS: {"<dialect>.<name>": () -> PatternSet}`.
    """
    name = descriptor.name.removeprefix(_PREFIX)
    try:
        return pattern_set([name])
    except KeyError:
        pass
    dialect = name.split(".", 1)[0]
    try:
        module = importlib.import_module(f"schedir.transform.rewrites.patterns.{dialect}")
    except ModuleNotFoundError:
        module = None
    # Sets whose options the descriptor carries are built from it (`lowering_strategy`).
    with_options: Mapping[str, Callable[[Operation], PatternSet]] = getattr(
        module, "DESCRIPTOR_PATTERN_BUILDERS", {}
    )
    if name in with_options:
        return with_options[name](descriptor)
    table: Mapping[str, Callable[[], PatternSet]] = getattr(module, "DESCRIPTOR_PATTERNS", {})
    build = table.get(name)
    if build is None:
        raise definite(
            descriptor, f"'{descriptor.name}' is not supported by schedir's pattern driver"
        )
    return build()


def _ensure_separate(op: Operation, target: Operation) -> None:
    """Upstream's `ensurePayloadIsSeparateFromTransform`."""
    if is_ancestor(target, op):
        raise definite(
            op,
            "cannot apply transform to itself (or one of its ancestors)",
            notes=[Note("target payload op", op_location(target))],
        )


@applies(ApplyPatternsOp)
def apply_patterns(op: Operation, interp: Interpreter) -> None:
    """`transform.apply_patterns`: greedy rewrite of each target's body.

    Return modes: only reads the target. Definite failure if a descriptor names a pattern
    set schedir lacks, if the target contains this transform op, or if patterns and CSE
    do not reach a fixpoint in 50 rounds; silenceable failure (at the target) if the
    greedy rewrite does not converge within `max_iterations` / `max_num_rewrites`, or if
    a handle still in use loses its op to a replacement it cannot follow.
    """
    block = op.regions[0].blocks.first
    patterns = PatternSet()
    for descriptor in block.ops if block is not None else ():
        patterns.update(descriptor_patterns(descriptor))
    config = GreedyConfig(
        max_iterations=_int_prop(op, "max_iterations"),
        max_num_rewrites=_int_prop(op, "max_num_rewrites"),
    )
    apply_cse = op.properties.get("apply_cse") is not None or "apply_cse" in op.attributes
    tracker = PayloadTracker(interp, op)
    listener = tracker.listener()
    failures: list[TransformError] = []
    for target in interp.state.payload_ops(op.operands[0]):
        _ensure_separate(op, target)
        try:
            _apply_to_one(op, target, patterns, config, apply_cse, listener)
        except TransformError as err:
            if not err.silenceable:
                raise
            failures.append(err)
    if failures:
        raise failures[0]
    tracker.check()


def _apply_to_one(
    op: Operation,
    target: Operation,
    patterns: PatternSet,
    config: GreedyConfig,
    apply_cse: bool,
    listener: PatternRewriterListener,
) -> None:
    for _ in range(_MAX_CSE_ROUNDS):
        if target.has_trait(IsolatedFromAbove, value_if_unregistered=False):
            result = apply_patterns_greedily(target, patterns, config, listener)
        else:
            # Not isolated: one worklist pass over the nested ops, no region simplification.
            nested = [o for o in target.walk(region_first=True) if o is not target]
            result = apply_patterns_to_ops(nested, patterns, config, listener)
        if not result.converged:
            raise TransformError(
                "greedy pattern application failed", op_location(target), silenceable=True
            )
        if not apply_cse:
            return
        if not eliminate_common_subexpressions(target, listener).changed:
            return
    raise definite(op, "fixpoint iteration did not converge")


# --- apply_cse / apply_dce / apply_licm -------------------------------------------------------


@applies(ApplyCommonSubexpressionEliminationOp)
def apply_cse(op: Operation, interp: Interpreter) -> None:
    """`transform.apply_cse`: CSE in each target's regions.

    Return modes: only reads the target; handles to erased duplicates follow the op kept
    in their place; handles to ops erased as dead lose them. Definite failure if the
    target contains this transform op.
    """
    tracker = PayloadTracker(interp, op)
    for target in interp.state.payload_ops(op.operands[0]):
        _ensure_separate(op, target)
        eliminate_common_subexpressions(target, tracker.listener())
    tracker.check()


@applies(ApplyDeadCodeEliminationOp)
def apply_dce(op: Operation, interp: Interpreter) -> None:
    """`transform.apply_dce`: erase trivially dead ops nested in each target.

    Return modes: only reads the target; erased ops silently leave their handles.
    Definite failure if the target contains this transform op.
    """
    tracker = PayloadTracker(interp, op)
    for target in interp.state.payload_ops(op.operands[0]):
        _ensure_separate(op, target)
        dead_code_elimination(target, tracker.listener())


@applies(ApplyLoopInvariantCodeMotionOp)
def apply_licm(op: Operation, interp: Interpreter) -> None:
    """`transform.apply_licm`: hoist loop-invariant, side-effect free, speculatable ops
    out of each target loop.

    Return modes: only reads the target; ops keep their handles (they only move).
    Silenceable failure for a target that is not loop-like ("transform applied to the
    wrong op kind").
    """
    errors: list[TransformError] = []
    for target in interp.state.payload_ops(op.operands[0]):
        if not is_loop_like(target):
            errors.append(silenceable(op, "transform applied to the wrong op kind", target))
            continue
        move_loop_invariant_code(target)
    if errors:
        raise errors[0]


__all__ = [
    "CAST_OPS",
    "PayloadTracker",
    "apply_cse",
    "apply_dce",
    "apply_licm",
    "apply_patterns",
    "descriptor_patterns",
    "find_replacement_op",
    "happens_before",
]
