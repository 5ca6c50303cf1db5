"""Apply functions of the core ops that call or repeat transform IR: `include`,
`foreach`, `alternatives`, `foreach_match` and `collect_matching` (upstream's
TransformOps.cpp).

Each binds the arguments of a region (its own or a named sequence's) and has the
interpreter run it, with the failure propagation mode the op asks for.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.core import FailurePropagationMode, NamedSequenceOp
from schedir.dialects.transform.core.control import (
    AlternativesOp,
    CollectMatchingOp,
    ForeachMatchOp,
    ForeachOp,
    IncludeOp,
)
from schedir.dialects.transform.interfaces import is_match_op
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.state import definite, is_ancestor, silenceable


@applies(IncludeOp)
def apply_include(op: IncludeOp, interp: Interpreter) -> None:
    """Run the included named sequence on the operands."""
    callee = op.callee()
    if callee is None:
        raise definite(op, f"unknown named sequence '@{op.target.root_reference.data}'")
    args = [list(interp.state.mapped(v)) for v in op.operands]
    results = interp.run_region(callee.body, args, op.mode)
    interp.set_results(op, results)


@applies(ForeachOp)
def apply_foreach(op: ForeachOp, interp: Interpreter) -> None:
    """Run the body once per payload of the targets, concatenating what it yields."""
    # Payloads are read before the body runs: the body may change the handles.
    targets = [list(interp.state.mapped(v)) for v in op.targets]
    count = len(targets[0]) if targets else 0
    if op.with_zip_shortest is not None:
        count = min((len(t) for t in targets), default=0)
    else:
        for index, target in enumerate(targets[1:], start=1):
            if len(target) != count:
                raise silenceable(
                    op,
                    f"prior targets' payload size ({count}) differs from payload size "
                    f"({len(target)}) of target #{index}",
                )
    collected: list[list[Mapped]] = [[] for _ in op.results]
    for index in range(count):
        yielded = interp.run_region(
            op.body, [[t[index]] for t in targets], FailurePropagationMode.PROPAGATE
        )
        for bucket, items in zip(collected, yielded, strict=False):
            bucket.extend(items)
    interp.set_results(op, collected)


@applies(AlternativesOp)
def apply_alternatives(op: AlternativesOp, interp: Interpreter) -> None:
    """Run the regions on clones of the scope until one succeeds; keep its changes."""
    originals = (
        list(interp.state.payload_ops(op.scope)) if op.scope is not None else [interp.state.root]
    )
    for original in originals:
        if is_ancestor(original, op):
            raise definite(
                op,
                "scope must not contain the transforms being applied",
                notes=[op_note(original, "scope")],
            )
        if not original.has_trait(IsolatedFromAbove):
            raise definite(
                op,
                "only isolated-from-above ops can be alternative scopes",
                notes=[op_note(original, "scope")],
            )
    for region in op.alternatives:
        # Each alternative runs on detached clones of the scope; the first one that
        # succeeds replaces the originals, the others are dropped (upstream's rollback).
        clones = [original.clone() for original in originals]
        try:
            results = interp.run_region(
                region, [clones] if region.block.args else [], FailurePropagationMode.PROPAGATE
            )
        except TransformError as err:
            for clone in clones:
                clone.erase(safe_erase=False)
            if not err.silenceable:
                raise
            continue
        for original, clone in zip(originals, clones, strict=True):
            rewriter = interp.state.rewriter(original)
            rewriter.insert(clone, InsertPoint.before(original))
            rewriter.replace(original, [], list(clone.results))
        interp.set_results(op, results)
        return
    raise silenceable(op, "all alternatives failed")


def _match_block(
    interp: Interpreter, matcher: NamedSequenceOp, bindings: Sequence[Sequence[Mapped]]
) -> list[list[Mapped]] | None:
    """Run a matcher sequence (upstream's `matchBlock`); None on a silenceable failure (no
    match). Only match ops may run there: any other op is a definite failure when reached.
    """
    region = matcher.body
    block = region.block
    with interp.state.region_scope(region):
        for arg, items in zip(block.args, bindings, strict=False):
            interp.state.set_mapped(arg, items)
        ops = list(block.ops)
        for match in ops[:-1]:
            if not is_match_op(match):
                raise TransformError(
                    "expected operations in the match part to implement MatchOpInterface",
                    op_location(match),
                )
            try:
                interp.apply(match)
            except TransformError as err:
                if not err.silenceable:
                    raise
                return None
        return [list(interp.state.mapped(v)) for v in ops[-1].operands] if ops else []


def _matcher_action_pairs(op: ForeachMatchOp) -> list[tuple[NamedSequenceOp, NamedSequenceOp]]:
    pairs: list[tuple[NamedSequenceOp, NamedSequenceOp]] = []
    for matcher_ref, action_ref in zip(op.matchers.data, op.actions.data, strict=True):
        matcher = op.lookup(matcher_ref)
        action = op.lookup(action_ref)
        if matcher is None:
            raise definite(op, f"unresolved matcher symbol @{matcher_ref.root_reference.data}")
        if action is None:
            raise definite(op, f"unresolved action symbol @{action_ref.root_reference.data}")
        pairs.append((matcher, action))
    return pairs


@applies(ForeachMatchOp)
def apply_foreach_match(op: ForeachMatchOp, interp: Interpreter) -> None:
    """Walk the payload post-order; on each op run the first matching action."""
    pairs = _matcher_action_pairs(op)
    restrict_root = op.restrict_root is not None
    flatten = op.flatten_results is not None
    forwarded = [list(interp.state.mapped(v)) for v in op.forwarded_inputs]
    collected: list[list[Mapped]] = [[] for _ in op.forwarded_outputs]
    failures: list[Note] = []
    roots = list(interp.state.payload_ops(op.root))
    for root in roots:
        # Post-order, as MLIR's walk; ops erased by an earlier action are skipped.
        for payload in list(root.walk(region_first=True)):
            if payload is root and not restrict_root:
                continue
            if not is_ancestor(root, payload):
                continue
            for matcher, action in pairs:
                matched = _match_block(interp, matcher, [[payload], *forwarded])
                if matched is None:
                    continue
                action_block = action.body.block
                with interp.state.region_scope(action.body):
                    for arg, items in zip(action_block.args, matched, strict=False):
                        interp.state.set_mapped(arg, items)
                    ops = list(action_block.ops)
                    for transform in ops[:-1]:
                        try:
                            interp.apply(transform)
                        except TransformError as err:
                            if not err.silenceable:
                                raise
                            failures.append(
                                Note(f"failed action: {err.message}", op_location(action))
                            )
                            failures.append(
                                op_note(payload, "when applied to this matching payload")
                            )
                    yielded = (
                        [list(interp.state.mapped(v)) for v in ops[-1].operands] if ops else []
                    )
                for bucket, items in zip(collected, yielded, strict=False):
                    if len(items) != 1 and not flatten:
                        raise definite(
                            op,
                            f"action @{action.sym_name.data} has results associated with "
                            "multiple payload entities, but flattening was not requested",
                        )
                    bucket.extend(items)
                break
    interp.set_results(op, [roots, *collected])
    if failures:
        raise silenceable(op, "actions failed", notes=failures)


@applies(CollectMatchingOp)
def apply_collect_matching(op: CollectMatchingOp, interp: Interpreter) -> None:
    """Run the matcher on every payload op nested in the root; collect what it yields."""
    matcher = op.matcher_sequence()
    if matcher is None:
        raise definite(op, f"unresolved matcher symbol {op.matcher}")
    collected: list[list[Mapped]] = [[] for _ in op.results]
    for root in interp.state.payload_ops(op.root):
        for payload in list(root.walk(region_first=True)):
            matched = _match_block(interp, matcher, [[payload]])
            if matched is None:
                continue
            for index, (bucket, items) in enumerate(zip(collected, matched, strict=False)):
                if len(items) != 1:
                    raise silenceable(
                        op,
                        f"result #{index}, associated with {len(items)} payload objects, expected 1",
                    )
                bucket.extend(items)
    interp.set_results(op, collected)
