"""The transform interpreter: runs a named sequence over a payload, as upstream does.

    interp = TransformInterpreter(ctx, payload_root, schedule_module)
    interp.run("__transform_main")

Each transform op is applied through `apply`: the operands are checked against
invalidated handles (upstream's expensive checks, always on), the op's apply function
(from `schedir.transform.ops.APPLY`, by op name) runs, a silenceable failure leaves the
op's results empty, and consumed handles are forgotten. The ops that run regions
(`sequence`, `include`, `foreach`, `alternatives`, `foreach_match`, `collect_matching`)
are implemented here because they drive the interpreter itself.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from schedir.diagnostics import Diagnostic, Note, SchedirError, TransformError
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.control import (
    AlternativesOp,
    CollectMatchingOp,
    ForeachMatchOp,
    ForeachOp,
    IncludeOp,
)
from schedir.dialects.transform.core import FailurePropagationMode, SequenceOp
from schedir.dialects.transform.interfaces import TransformOpInterface, is_match_op
from schedir.transform import ops as transform_ops
from schedir.transform.interface import Interpreter, Mapped
from schedir.transform.state import (
    MultipleTransformErrors,
    TransformState,
    definite,
    is_ancestor,
    silenceable,
)

ApplyFn = Callable[[Any, Interpreter], None]
"""An apply function: `(op, interp) -> None` for ops of the class it is registered on."""


@dataclass(frozen=True)
class InterpreterHooks:
    """Callbacks of a run: after each top-level transform op, for checking or dumping."""

    after_top_level_op: Callable[[Operation, Operation], None] | None = None
    """Called with (transform op, payload root) after each op of the entry sequence."""

    on_diagnostic: Callable[[Diagnostic], None] | None = None
    """Receives the remarks and warnings of the run (which go on); without it they are
    printed to stderr, as MLIR's default diagnostic handler does."""


class TransformInterpreter:
    """Applies transform IR to payload IR with upstream's handle and failure semantics."""

    def __init__(
        self,
        ctx: Context,
        payload_root: Operation,
        schedule: Operation,
        *,
        passes: Mapping[str, Callable[[], type[ModulePass]]] | None = None,
        hooks: InterpreterHooks = InterpreterHooks(),
        apply_table: Mapping[type[Operation], ApplyFn] | None = None,
    ) -> None:
        if apply_table is None:
            apply_table = {**transform_ops.APPLY, **CONTROL_FLOW}
        self.ctx = ctx
        self.state = TransformState(payload_root)
        self.schedule = schedule
        self.passes = passes or {}
        self.hooks = hooks
        self._apply_table = apply_table
        self._depth = 0

    # --- entry --------------------------------------------------------------------------

    def find_named_sequence(self, name: str) -> Operation | None:
        for op in self.schedule.walk():
            if op.name == "transform.named_sequence" and _sym_name(op) == name:
                return op
        return None

    def run(self, entry_point: str = "__transform_main") -> None:
        """Run `entry_point` with its first argument bound to the payload root.

        A silenceable failure that reaches the entry point is reported as an error, as
        upstream's transform-interpreter pass does.
        """
        entry = self.find_named_sequence(entry_point)
        if entry is None:
            raise TransformError(
                f"could not find a nested named sequence with name: {entry_point}",
                op_location(self.schedule),
            )
        block = entry.regions[0].blocks.first
        assert block is not None
        args = list(block.args)
        if not args:
            raise definite(
                entry, "the entry point must take the payload root as its first argument"
            )
        if len(args) > 1:
            raise definite(
                entry,
                f"the entry point takes {len(args)} arguments, but only the payload root can be bound",
            )
        with self.state.region_scope(entry.regions[0]):
            self.state.set_payload_ops(args[0], [self.state.root])
            try:
                self.run_block(block, FailurePropagationMode.PROPAGATE, top_level=True)
            except TransformError as err:
                err.silenceable = False
                raise

    def emit(self, diagnostic: Diagnostic) -> None:
        """Report a remark or warning (upstream's emitRemark/emitWarning): the run goes on."""
        if self.hooks.on_diagnostic is not None:
            self.hooks.on_diagnostic(diagnostic)
        else:
            print(diagnostic.render(), file=sys.stderr)

    # --- applying ops --------------------------------------------------------------------

    def apply(self, op: Operation) -> None:
        """Apply one transform op (checks, dispatch, result and consumption bookkeeping)."""
        consumed = self.consumed_values(op)
        self.state.check_operands(op, consumed, allows_repeated=allows_repeated_handles(op))
        fn = self._apply_table.get(type(op))
        if fn is None:
            raise definite(op, f"'{op.name}' is not supported by schedir's transform interpreter")
        failure: TransformError | None = None
        try:
            fn(op, self)
        except TransformError as err:
            if not err.silenceable:
                raise
            failure = err
        except SchedirError:
            raise
        for result in op.results:
            if not self._is_set(result):
                self.state.set_mapped(result, [])
        for value in consumed:
            self.state.forget(value)
        if failure is not None:
            raise failure

    def _is_set(self, handle: SSAValue) -> bool:
        state = self.state
        return handle in state._ops or handle in state._values or handle in state._params

    def consumed_values(self, op: Operation) -> tuple[SSAValue, ...]:
        """The operands `op` consumes (include and foreach ask their callee or body)."""
        if op.name == "transform.include":
            callee = self._callee(op)
            block = callee.regions[0].blocks.first
            assert block is not None
            return tuple(
                operand
                for operand, attrs in zip(
                    op.operands, _arg_attrs(callee, len(block.args)), strict=False
                )
                if "transform.consumed" in attrs
            )
        if op.name == "transform.foreach":
            block = op.regions[0].blocks.first
            assert block is not None
            return tuple(
                operand
                for operand, arg in zip(op.operands, block.args, strict=False)
                if any(self.consumed_by_use(use.operation, arg) for use in arg.uses)
            )
        if isinstance(op, TransformOpInterface):
            return op.consumed_values()
        return ()

    def consumed_by_use(self, user: Operation, value: SSAValue) -> bool:
        """True if `user` (or the op in a nested region that uses it) consumes `value`."""
        return value in self.consumed_values(user)

    def run_block(
        self, block: Block, mode: FailurePropagationMode, *, top_level: bool = False
    ) -> list[list[Mapped]]:
        """Apply the ops of a sequence block in order; return what its yield forwards.

        `mode` is the failure propagation mode: with `propagate` a silenceable failure stops
        the block and is passed up (after the yielded handles are set empty); with
        `suppress` it is dropped and the next op runs.
        """
        ops = list(block.ops)
        terminator = ops[-1] if ops and ops[-1].name == "transform.yield" else None
        body = ops[:-1] if terminator is not None else ops
        for op in body:
            try:
                self.apply(op)
            except TransformError as err:
                if not err.silenceable or mode == FailurePropagationMode.PROPAGATE:
                    raise
            if top_level and self.hooks.after_top_level_op is not None:
                self.hooks.after_top_level_op(op, self.state.root)
        if terminator is None:
            return []
        return [list(self.state.mapped(v)) for v in terminator.operands]

    def run_region_with_args(
        self,
        op: Operation,
        region_index: int,
        bindings: Sequence[Sequence[Mapped]],
        mode: FailurePropagationMode,
    ) -> list[list[Mapped]]:
        return self.run_region(op.regions[region_index], bindings, mode)

    def run_region(
        self, region: Region, bindings: Sequence[Sequence[Mapped]], mode: FailurePropagationMode
    ) -> list[list[Mapped]]:
        """Bind the block arguments of a region, run it, and return its yielded handles."""
        op = region.parent_op()
        block = region.blocks.first
        assert op is not None and block is not None
        with self.state.region_scope(region):
            for arg, items in zip(block.args, bindings, strict=False):
                self.state.set_mapped(arg, items)
            self._depth += 1
            if self._depth > 256:
                raise definite(op, "transform sequences nest or recurse more than 256 levels deep")
            try:
                return self.run_block(block, mode)
            finally:
                self._depth -= 1

    def set_results(self, op: Operation, values: Sequence[Sequence[Mapped]]) -> None:
        for result, items in zip(op.results, values, strict=False):
            self.state.set_mapped(result, items)

    def _callee(self, op: Operation) -> Operation:
        target = op.properties.get("target") or op.attributes.get("target")
        name = target.root_reference.data if isinstance(target, SymbolRefAttr) else str(target)
        callee = self.find_named_sequence(name)
        if callee is None:
            raise definite(op, f"unknown named sequence '@{name}'")
        return callee

    def call(
        self,
        op: Operation,
        callee: Operation,
        args: Sequence[Sequence[Mapped]],
        mode: FailurePropagationMode,
    ) -> list[list[Mapped]]:
        """Run a named sequence with `args` bound to its arguments."""
        return self.run_region_with_args(callee, 0, args, mode)

    def apply_to_each(
        self,
        op: Operation,
        target: SSAValue,
        fn: Callable[[Operation], Sequence[Mapped | None]],
    ) -> None:
        """Upstream's TransformEachOpTrait: apply `fn` to each payload op of `target`.

        `fn` returns one mapped item per result of `op` (or raises a silenceable failure for
        that payload op, which does not stop the other ones). Results are concatenated per
        position; silenceable failures are reported together at the end.
        """
        per_result: list[list[Mapped]] = [[] for _ in op.results]
        failures: list[TransformError] = []
        for payload in self.state.payload_ops(target):
            try:
                produced = fn(payload)
            except TransformError as err:
                if not err.silenceable:
                    raise
                failures.append(err)
                continue
            if len(produced) != len(op.results):
                raise definite(
                    op,
                    f"application of {op.name} expected to produce {len(op.results)} results "
                    f"(actually produced {len(produced)})",
                    payload,
                )
            if any(item is None for item in produced):
                continue
            for bucket, item in zip(per_result, produced, strict=True):
                assert item is not None
                bucket.append(item)
        self.set_results(op, per_result)
        if failures:
            raise failures[0] if len(failures) == 1 else MultipleTransformErrors(failures)


# --- control-flow ops ------------------------------------------------------------------


def allows_repeated_handles(op: Operation) -> bool:
    """Upstream's `allowsRepeatedHandleOperands`: ops that may see the same payload twice."""
    if op.name in ("transform.foreach_match", "transform.structured.fuse_into_containing_op"):
        return True
    return op.name == "transform.merge_handles" and _flag(op, "deduplicate")


def _sym_name(op: Operation) -> str | None:
    name = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


def _arg_attrs(op: Operation, count: int) -> list[dict[str, Attribute]]:
    attrs = op.properties.get("arg_attrs") or op.attributes.get("arg_attrs")
    if not isinstance(attrs, ArrayAttr):
        return [{} for _ in range(count)]
    return [dict(a.data) if isinstance(a, DictionaryAttr) else {} for a in attrs.data]


def _flag(op: Operation, name: str) -> bool:
    attr = op.properties.get(name) or op.attributes.get(name)
    if attr is None:
        return False
    if isinstance(attr, UnitAttr):
        return True
    value = getattr(attr, "value", None)
    return bool(getattr(value, "data", value)) if value is not None else True


def apply_sequence(op: SequenceOp, interp: TransformInterpreter) -> None:
    block = op.regions[0].blocks.first
    assert block is not None
    if op.operands:
        root = list(interp.state.mapped(op.operands[0]))
        extra = [list(interp.state.mapped(v)) for v in op.operands[1:]]
        bindings = [root, *extra]
    else:  # a top-level sequence without root binds the payload root
        bindings = [[interp.state.root]]
    results = interp.run_region_with_args(op, 0, bindings, op.mode)
    interp.set_results(op, results)


def apply_include(op: IncludeOp, interp: TransformInterpreter) -> None:
    callee = interp._callee(op)
    args = [list(interp.state.mapped(v)) for v in op.operands]
    results = interp.call(op, callee, args, op.mode)
    interp.set_results(op, results)


def apply_foreach(op: Operation, interp: TransformInterpreter) -> None:
    # Payloads are read before the body runs: the body may change the handles.
    targets = [list(interp.state.mapped(v)) for v in op.operands]
    count = len(targets[0]) if targets else 0
    if _flag(op, "with_zip_shortest"):
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
        yielded = interp.run_region_with_args(
            op, 0, [[t[index]] for t in targets], FailurePropagationMode.PROPAGATE
        )
        for bucket, items in zip(collected, yielded, strict=False):
            bucket.extend(items)
    interp.set_results(op, collected)


def apply_alternatives(op: Operation, interp: TransformInterpreter) -> None:
    from xdsl.traits import IsolatedFromAbove

    originals = (
        [o for o in interp.state.payload_ops(op.operands[0])]
        if op.operands
        else [interp.state.root]
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
    for index, region in enumerate(op.regions):
        # Each alternative runs on detached clones of the scope; the first one that
        # succeeds replaces the originals, the others are dropped (upstream's rollback).
        clones = [original.clone() for original in originals]
        block = region.blocks.first
        assert block is not None
        try:
            results = interp.run_region_with_args(
                op, index, [clones] if block.args else [], FailurePropagationMode.PROPAGATE
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
    interp: TransformInterpreter, matcher: Operation, bindings: Sequence[Sequence[Mapped]]
) -> list[list[Mapped]] | None:
    """Run a matcher sequence (upstream's `matchBlock`); None on a silenceable failure (no
    match). Only match ops may run there: any other op is a definite failure when reached.
    """
    region = matcher.regions[0]
    block = region.blocks.first
    assert block is not None
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


def _is_alive(op: Operation, root: Operation) -> bool:
    return is_ancestor(root, op)


def apply_foreach_match(op: Operation, interp: TransformInterpreter) -> None:
    pairs = _matcher_action_pairs(op, interp)
    restrict_root = _flag(op, "restrict_root")
    flatten = _flag(op, "flatten_results")
    forwarded = [list(interp.state.mapped(v)) for v in op.operands[1:]]
    collected: list[list[Mapped]] = [[] for _ in op.results[1:]]
    failures: list[Note] = []
    roots = list(interp.state.payload_ops(op.operands[0]))
    for root in roots:
        # Post-order, as MLIR's walk; ops erased by an earlier action are skipped.
        for payload in list(root.walk(region_first=True)):
            if payload is root and not restrict_root:
                continue
            if not _is_alive(payload, root):
                continue
            for matcher, action in pairs:
                matched = _match_block(interp, matcher, [[payload], *forwarded])
                if matched is None:
                    continue
                action_block = action.regions[0].blocks.first
                assert action_block is not None
                with interp.state.region_scope(action.regions[0]):
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
                            f"action @{_sym_name(action)} has results associated with multiple "
                            "payload entities, but flattening was not requested",
                        )
                    bucket.extend(items)
                break
    interp.set_results(op, [roots, *collected])
    if failures:
        raise silenceable(op, "actions failed", notes=failures)


def _matcher_action_pairs(
    op: Operation, interp: TransformInterpreter
) -> list[tuple[Operation, Operation]]:
    matchers = op.properties.get("matchers") or op.attributes.get("matchers")
    actions = op.properties.get("actions") or op.attributes.get("actions")
    assert isinstance(matchers, ArrayAttr) and isinstance(actions, ArrayAttr)
    pairs = []
    for matcher_ref, action_ref in zip(matchers.data, actions.data, strict=True):
        matcher = interp.find_named_sequence(_ref_name(matcher_ref))
        action = interp.find_named_sequence(_ref_name(action_ref))
        if matcher is None:
            raise definite(op, f"unresolved matcher symbol @{_ref_name(matcher_ref)}")
        if action is None:
            raise definite(op, f"unresolved action symbol @{_ref_name(action_ref)}")
        pairs.append((matcher, action))
    return pairs


def _ref_name(ref: Attribute) -> str:
    if isinstance(ref, SymbolRefAttr):
        return ref.root_reference.data
    return str(ref)


def apply_collect_matching(op: Operation, interp: TransformInterpreter) -> None:
    ref = op.properties.get("matcher") or op.attributes.get("matcher")
    matcher = interp.find_named_sequence(_ref_name(ref)) if ref is not None else None
    if matcher is None:
        raise definite(op, f"unresolved matcher symbol {ref}")
    collected: list[list[Mapped]] = [[] for _ in op.results]
    for root in interp.state.payload_ops(op.operands[0]):
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


CONTROL_FLOW: Mapping[type[Operation], ApplyFn] = {
    SequenceOp: apply_sequence,
    IncludeOp: apply_include,
    ForeachOp: apply_foreach,
    AlternativesOp: apply_alternatives,
    ForeachMatchOp: apply_foreach_match,
    CollectMatchingOp: apply_collect_matching,
}


__all__ = [
    "CONTROL_FLOW",
    "InterpreterHooks",
    "TransformInterpreter",
]
