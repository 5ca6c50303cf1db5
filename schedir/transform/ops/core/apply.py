"""Apply functions of the core ops that rewrite the payload wholesale (upstream's
TransformOps.cpp): `apply_patterns`, `apply_cse`, `apply_dce`, `apply_licm`,
`apply_registered_pass`, and the pattern set of `apply_patterns.canonicalization`.

The payload algorithms live in `schedir.transform.rewrites` (the greedy driver and its
pattern sets, CSE, DCE, LICM); the passes come from the interpreter's pass registry.
Handles to rewritten ops are kept up to date by `schedir.transform.tracking`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from schedir.diagnostics import Note, SchedirError, TransformError
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.core.apply import (
    ApplyCanonicalizationPatternsOp,
    ApplyCommonSubexpressionEliminationOp,
    ApplyDeadCodeEliminationOp,
    ApplyLoopInvariantCodeMotionOp,
    ApplyPatternsOp,
    ApplyRegisteredPassOp,
    ParamOperandAttr,
)
from schedir.transform.interface import Interpreter, applies, populates
from schedir.transform.rewrites.canonicalize.driver import (
    apply_patterns_greedily,
    apply_patterns_to_ops,
    pattern_set,
)
from schedir.transform.rewrites.cse import eliminate_common_subexpressions
from schedir.transform.rewrites.dce import dead_code_elimination
from schedir.transform.rewrites.greedy import NO_LIMIT, GreedyConfig, PatternSet
from schedir.transform.rewrites.loops.licm import is_loop_like, move_loop_invariant_code
from schedir.transform.state import MultipleTransformErrors, definite, is_ancestor, silenceable
from schedir.transform.tracking import PayloadTracker

_MAX_CSE_ROUNDS = 50
"""Upstream's kNumMaxIterations of the patterns + CSE fixpoint."""


def _limit(attr: IntegerAttr) -> int:
    """A driver limit: i64 -1 means "no limit" (upstream compares against uint64_t(-1))."""
    value = attr.value.data
    return NO_LIMIT if value < 0 else value


def _ensure_separate(op: Operation, target: Operation) -> None:
    """Upstream's `ensurePayloadIsSeparateFromTransform`."""
    if is_ancestor(target, op):
        raise definite(
            op,
            "cannot apply transform to itself (or one of its ancestors)",
            notes=[Note("target payload op", op_location(target))],
        )


# --- apply_patterns -----------------------------------------------------------------------


@applies(ApplyPatternsOp)
def apply_patterns(op: ApplyPatternsOp, interp: Interpreter) -> None:
    """Greedy rewrite of each target's body with the descriptors' pattern sets."""
    block = op.patterns.blocks.first
    patterns = PatternSet()
    for descriptor in block.ops if block is not None else ():
        patterns.update(interp.populate_patterns(descriptor))
    config = GreedyConfig(
        max_iterations=_limit(op.max_iterations),
        max_num_rewrites=_limit(op.max_num_rewrites),
    )
    apply_cse = op.apply_cse is not None
    tracker = PayloadTracker(interp.state, op)
    listener = tracker.listener()
    failures: list[TransformError] = []
    for target in interp.state.payload_ops(op.target):
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
    op: ApplyPatternsOp,
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


@populates(ApplyCanonicalizationPatternsOp)
def canonicalization(op: ApplyCanonicalizationPatternsOp) -> PatternSet:
    """Every op's canonicalization patterns."""
    return pattern_set(["canonicalization"])


# --- apply_cse / apply_dce / apply_licm ---------------------------------------------------


@applies(ApplyCommonSubexpressionEliminationOp)
def apply_cse(op: ApplyCommonSubexpressionEliminationOp, interp: Interpreter) -> None:
    """CSE in each target's regions."""
    tracker = PayloadTracker(interp.state, op)
    for target in interp.state.payload_ops(op.target):
        _ensure_separate(op, target)
        eliminate_common_subexpressions(target, tracker.listener())
    tracker.check()


@applies(ApplyDeadCodeEliminationOp)
def apply_dce(op: ApplyDeadCodeEliminationOp, interp: Interpreter) -> None:
    """Erase the trivially dead ops nested in each target."""
    tracker = PayloadTracker(interp.state, op)
    for target in interp.state.payload_ops(op.target):
        _ensure_separate(op, target)
        dead_code_elimination(target, tracker.listener())


@applies(ApplyLoopInvariantCodeMotionOp)
def apply_licm(op: ApplyLoopInvariantCodeMotionOp, interp: Interpreter) -> None:
    """Hoist loop-invariant, side-effect free, speculatable ops out of each target loop."""
    errors: list[TransformError] = []
    for target in interp.state.payload_ops(op.target):
        if not is_loop_like(target):
            errors.append(silenceable(op, "transform applied to the wrong op kind", target))
            continue
        move_loop_invariant_code(target)
    if errors:
        raise errors[0]


# --- apply_registered_pass ----------------------------------------------------------------


def _option_text(value: Attribute, params: list[list[Attribute]]) -> str:
    """An option value as a pass spec writes it (upstream's appendValueAttr)."""
    if isinstance(value, ParamOperandAttr):
        return ",".join(_option_text(v, params) for v in params[value.index.data])
    if isinstance(value, ArrayAttr):
        return ",".join(_option_text(v, params) for v in value.data)
    if isinstance(value, StringAttr):
        return value.data
    if isinstance(value, IntegerAttr):
        if isinstance(value.type, IntegerType) and value.type.width.data == 1:
            return "true" if value.value.data else "false"
        return str(value.value.data)
    return str(value)


@applies(ApplyRegisteredPassOp)
def apply_registered_pass(op: ApplyRegisteredPassOp, interp: Interpreter) -> None:
    """Run the named pass, with its options, on each target."""
    name = op.pass_name.data
    params = [list(interp.state.params(v)) for v in op.dynamic_options]
    items = op.options.data.items()
    spec_text = name + (
        "{" + " ".join(f"{k}={_option_text(v, params)}" for k, v in items) + "}" if items else ""
    )
    factory = interp.passes.get(name)
    if factory is None:
        raise definite(op, f"unknown pass or pass pipeline: {name}")
    try:
        pass_ = factory().from_pass_spec(parse_spec(spec_text))
    except (ArgSpecParseError, ValueError, TypeError) as err:
        raise definite(
            op, f"failed to add pass or pass pipeline to pipeline: {name} ({err})"
        ) from None
    results: list[Operation] = []
    for target in interp.state.payload_ops(op.target):
        if not isinstance(target, ModuleOp) and not target.has_trait(IsolatedFromAbove):
            # As upstream: the pass manager reports at the payload op, the transform op
            # then fails silenceably.
            raise MultipleTransformErrors(
                [
                    TransformError(
                        f"'{target.name}' op trying to schedule a pass on an operation not marked "
                        "as 'IsolatedFromAbove'",
                        op_location(target),
                        silenceable=True,
                    ),
                    silenceable(op, "pass pipeline failed", notes=[op_note(target, "target op")]),
                ]
            )
        results.extend(_run_on(op, interp, pass_, target))
    interp.set_results(op, [results])


def _run_on(
    op: Operation, interp: Interpreter, pass_: ModulePass, target: Operation
) -> list[Operation]:
    """Run a module pass on `target`, moving a non-module target into a scratch module."""
    try:
        if isinstance(target, ModuleOp):
            pass_.apply(interp.ctx, target)
            return [target]
        anchor = target.next_op
        parent = target.parent_block()
        assert parent is not None
        target.detach()
        scratch = ModuleOp([target])
        try:
            pass_.apply(interp.ctx, scratch)
        finally:
            moved = list(scratch.ops)
            for moved_op in moved:
                moved_op.detach()
                Rewriter.insert_op(
                    moved_op,
                    InsertPoint.before(anchor)
                    if anchor is not None
                    else InsertPoint.at_end(parent),
                )
        return moved
    except SchedirError as err:
        raise silenceable(
            op, "pass pipeline failed", notes=[op_note(target, "target op"), *err.notes]
        ) from None
    except DiagnosticException as err:
        raise silenceable(
            op,
            f"pass pipeline failed: {str(err).splitlines()[0]}",
            notes=[op_note(target, "target op")],
        ) from None
