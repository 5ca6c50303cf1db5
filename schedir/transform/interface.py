"""The contract between the transform interpreter and the apply functions of the ops.

An apply function is registered on the op class it applies and receives the op, with its
typed fields, and the interpreter running it:

    @applies(TileUsingForallOp)
    def apply_tile_using_forall(op: TileUsingForallOp, interp: Interpreter) -> None: ...

A pattern descriptor (`transform.apply_patterns.<dialect>.<set>`) instead names the
pattern set it stands for, which `transform.apply_patterns` collects:

    @populates(ApplyLowerContractionPatternsOp)
    def lower_contraction(op: ApplyLowerContractionPatternsOp) -> PatternSet: ...

`Interpreter` is what an apply function may ask of the interpreter. It lives here, below
both `schedir.transform.ops` (the apply functions) and `schedir.transform.interpreter`
(which runs them and imports `ops` to find them), so that no apply module imports the
interpreter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from xdsl.context import Context
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from schedir.diagnostics import Diagnostic
from schedir.dialects.transform.core import FailurePropagationMode
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.state import TransformState

Mapped = Operation | SSAValue | Attribute
"""What a handle maps to: payload ops, payload values or parameters."""

OpT = TypeVar("OpT", bound=Operation)


class Interpreter(Protocol):
    """What an apply function may ask of the interpreter running it."""

    @property
    def ctx(self) -> Context:
        """The context the payload was parsed in (for passes run on it)."""
        ...

    @property
    def state(self) -> TransformState:
        """The handles of the run: what they map to, and which are invalidated."""
        ...

    @property
    def passes(self) -> Mapping[str, Callable[[], type[ModulePass]]]:
        """The registered passes, by name (`apply_registered_pass`, one-shot bufferize)."""
        ...

    def emit(self, diagnostic: Diagnostic) -> None:
        """Report a remark or warning; the run goes on."""
        ...

    def apply(self, op: Operation) -> None:
        """Apply one transform op (checks, dispatch and handle bookkeeping)."""
        ...

    def populate_patterns(self, descriptor: Operation) -> PatternSet:
        """The pattern set a pattern descriptor op stands for."""
        ...

    def run_region(
        self, region: Region, bindings: Sequence[Sequence[Mapped]], mode: FailurePropagationMode
    ) -> list[list[Mapped]]:
        """Bind the arguments of `region`'s block, apply its ops in order with failure mode
        `mode`, and return what its terminator yields."""
        ...

    def set_results(self, op: Operation, values: Sequence[Sequence[Mapped | None]]) -> None:
        """Map the results of `op`, in order; a `None` item is a definite failure."""
        ...

    def apply_to_each(
        self,
        op: Operation,
        target: SSAValue,
        fn: Callable[[Operation], Sequence[Mapped | None]],
    ) -> None:
        """Upstream's TransformEachOpTrait: `fn` on each payload op of `target`."""
        ...


@dataclass(frozen=True)
class Apply(Generic[OpT]):
    """An apply function and the op class it applies."""

    op_class: type[OpT]
    fn: Callable[[OpT, Interpreter], None]

    def __call__(self, op: OpT, interp: Interpreter) -> None:
        self.fn(op, interp)


@dataclass(frozen=True)
class Populate(Generic[OpT]):
    """The pattern set of a pattern descriptor class."""

    op_class: type[OpT]
    fn: Callable[[OpT], PatternSet]

    def __call__(self, op: OpT) -> PatternSet:
        return self.fn(op)


def applies(op_class: type[OpT]) -> Callable[[Callable[[OpT, Interpreter], None]], Apply[OpT]]:
    """Register the decorated function as the apply function of `op_class`."""

    def register(fn: Callable[[OpT, Interpreter], None]) -> Apply[OpT]:
        return Apply(op_class, fn)

    return register


def populates(op_class: type[OpT]) -> Callable[[Callable[[OpT], PatternSet]], Populate[OpT]]:
    """Register the decorated function as the pattern set of descriptor `op_class`."""

    def register(fn: Callable[[OpT], PatternSet]) -> Populate[OpT]:
        return Populate(op_class, fn)

    return register


__all__ = [
    "Apply",
    "Interpreter",
    "Mapped",
    "Populate",
    "applies",
    "populates",
]
