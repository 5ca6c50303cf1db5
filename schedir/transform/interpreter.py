"""The transform interpreter: runs a named sequence over a payload, as upstream does.

    interp = TransformInterpreter(ctx, payload_root, schedule_module)
    interp.run("__transform_main")

Each transform op is applied through `apply`: the operands are checked against
invalidated handles (upstream's expensive checks, always on), the apply function
registered on the op's class (`schedir.transform.ops.APPLY`) runs, a silenceable failure
leaves the op's results empty, and consumed handles are forgotten. A pattern descriptor's
set comes from `schedir.transform.ops.PATTERNS` (`populate_patterns`); an op class listed
in `schedir.transform.ops.PARSE_ONLY` fails definitely, saying it is not implemented yet. What the interpreter
needs to know about an op (which operands it consumes, whether it may see a payload
twice) it asks the op (`TransformOpInterface`); the ops that run regions (`sequence`,
`include`, `foreach`, ...) do so through `run_region`, like any other apply function.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from schedir.diagnostics import Diagnostic, Note, SchedirError, TransformError
from schedir.dialects.syntax import module_location, op_location
from schedir.dialects.transform.core import FailurePropagationMode, NamedSequenceOp, YieldOp
from schedir.dialects.transform.interfaces import TransformOpInterface
from schedir.transform import ops as transform_ops
from schedir.transform.interface import Interpreter, Mapped
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.state import (
    MultipleTransformErrors,
    TransformState,
    definite,
)

ApplyFn = Callable[[Any, Interpreter], None]
"""An apply function: `(op, interp) -> None` for ops of the class it is registered on."""

PopulateFn = Callable[[Any], PatternSet]
"""A descriptor's pattern set: `(descriptor) -> PatternSet`."""

MAX_DEPTH = 256
"""How deep sequences may nest or recurse (through `include`) before the run stops."""


@dataclass(frozen=True)
class InterpreterHooks:
    """Callbacks of a run: after each top-level transform op, for checking or dumping."""

    after_top_level_op: Callable[[Operation, Operation], None] | None = None
    """Called with (transform op, payload root) after each op of the entry sequence."""

    on_diagnostic: Callable[[Diagnostic], None] | None = None
    """Receives the remarks and warnings of the run (which go on); without it they are
    printed to stderr, as MLIR's default diagnostic handler does."""


def not_implemented(op: Operation) -> TransformError:
    """The definite failure of applying an op schedir parses but does not implement."""
    return definite(op, f"'{op.name}' is not implemented yet in schedir's transform interpreter")


def consumed_values(op: Operation) -> tuple[SSAValue, ...]:
    """The operands `op` consumes (upstream's `consumesHandle` effects)."""
    return op.consumed_values() if isinstance(op, TransformOpInterface) else ()


def allows_repeated_handles(op: Operation) -> bool:
    """Upstream's `allowsRepeatedHandleOperands`."""
    return isinstance(op, TransformOpInterface) and op.allows_repeated_handles()


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
        pattern_table: Mapping[type[Operation], PopulateFn] | None = None,
    ) -> None:
        self.ctx = ctx
        self.state = TransformState(payload_root)
        self.schedule = schedule
        self.passes = passes or {}
        self.hooks = hooks
        self._apply_table = apply_table if apply_table is not None else transform_ops.APPLY
        self._pattern_table = pattern_table if pattern_table is not None else transform_ops.PATTERNS
        self._depth = 0

    # --- entry --------------------------------------------------------------------------

    def find_named_sequence(self, name: str) -> NamedSequenceOp | None:
        """The first named sequence called `name` in the schedule."""
        for op in self.schedule.walk():
            if isinstance(op, NamedSequenceOp) and op.sym_name.data == name:
                return op
        return None

    def _missing_entry_point(self, entry_point: str) -> TransformError:
        """Upstream's error, at the module that holds the named sequences (the schedule's
        first op when none does), with a note naming the sequences there are."""
        holders = [
            op
            for op in self.schedule.walk()
            if "transform.with_named_sequence" in op.attributes and op_location(op) is not None
        ]
        names = [
            f"@{op.sym_name.data}" for op in self.schedule.walk() if isinstance(op, NamedSequenceOp)
        ]
        note = (
            f"the named sequences in the schedule: {', '.join(names)}"
            if names
            else "the schedule has no named sequence"
        )
        return TransformError(
            f"could not find a nested named sequence with name: {entry_point}",
            op_location(holders[0]) if holders else module_location(self.schedule),
            notes=(Note(note),),
        )

    def run(self, entry_point: str = "__transform_main") -> None:
        """Run `entry_point` with its first argument bound to the payload root.

        A silenceable failure that reaches the entry point is reported as an error, as
        upstream's transform-interpreter pass does.
        """
        entry = self.find_named_sequence(entry_point)
        if entry is None:
            raise self._missing_entry_point(entry_point)
        block = entry.body.blocks.first
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
        with self.state.region_scope(entry.body):
            self.state.set_payload_ops(args[0], [self.state.root])
            try:
                self._run_block(block, FailurePropagationMode.PROPAGATE, top_level=True)
            except TransformError as err:
                err.escalated = err.escalated or err.silenceable
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
        consumed = consumed_values(op)
        self.state.check_operands(op, consumed, allows_repeated=allows_repeated_handles(op))
        fn = self._apply_table.get(type(op))
        if fn is None:
            if type(op) in transform_ops.PARSE_ONLY:
                raise not_implemented(op)
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
            if not self.state.is_mapped(result):
                self.state.set_mapped(result, [])
        for value in consumed:
            self.state.forget(value)
        if failure is not None:
            raise failure

    def populate_patterns(self, descriptor: Operation) -> PatternSet:
        """The pattern set a descriptor of `apply_patterns` stands for."""
        fn = self._pattern_table.get(type(descriptor))
        if fn is None:
            if type(descriptor) in transform_ops.PARSE_ONLY:
                raise not_implemented(descriptor)
            raise definite(
                descriptor, f"'{descriptor.name}' is not supported by schedir's pattern driver"
            )
        return fn(descriptor)

    def _run_block(
        self, block: Block, mode: FailurePropagationMode, *, top_level: bool = False
    ) -> list[list[Mapped]]:
        """Apply the ops of a sequence block in order; return what its yield forwards.

        `mode` is the failure propagation mode: with `propagate` a silenceable failure stops
        the block and is passed up (after the yielded handles are set empty); with
        `suppress` it is dropped and the next op runs.
        """
        ops = list(block.ops)
        terminator = ops[-1] if ops and isinstance(ops[-1], YieldOp) else None
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

    def run_region(
        self, region: Region, bindings: Sequence[Sequence[Mapped]], mode: FailurePropagationMode
    ) -> list[list[Mapped]]:
        """Bind the block arguments of a region, run it, and return its yielded handles."""
        owner = region.parent_op()
        block = region.blocks.first
        assert owner is not None and block is not None
        with self.state.region_scope(region):
            for arg, items in zip(block.args, bindings, strict=False):
                self.state.set_mapped(arg, items)
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise definite(
                    owner, "transform sequences nest or recurse more than 256 levels deep"
                )
            try:
                return self._run_block(block, mode)
            finally:
                self._depth -= 1

    def set_results(self, op: Operation, values: Sequence[Sequence[Mapped | None]]) -> None:
        """Map the results of `op`, in order; a `None` item fails definitely at its result
        (upstream: "attempting to assign a null payload op to this transform value")."""
        for result, items in zip(op.results, values, strict=False):
            self.state.set_mapped(result, items)

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


__all__ = [
    "ApplyFn",
    "InterpreterHooks",
    "PopulateFn",
    "TransformInterpreter",
    "allows_repeated_handles",
    "consumed_values",
    "not_implemented",
]
