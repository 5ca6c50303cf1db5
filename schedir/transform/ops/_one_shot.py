"""One-Shot Bufferize as the bufferization transform ops use it: the registered
`one-shot-bufferize` pass (from the interpreter's pass registry: this layer may not import
`schedir.lowering`), and its in-place decisions, which the two `eliminate_empty_tensors`
ops (`bufferization.` and `structured.`) rewrite by.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from schedir.diagnostics import SchedirError
from schedir.dialects.syntax import op_location
from schedir.transform.interface import Interpreter
from schedir.transform.state import definite

_PASS = "one-shot-bufferize"
_INPLACE = "__inplace_operands_attr__"


def one_shot_pass(interp: Interpreter, op: Operation, **options: object) -> ModulePass:
    """An instance of the registered `one-shot-bufferize` pass with these options."""
    factory = interp.passes.get(_PASS)
    if factory is None:
        raise definite(op, f"unknown pass or pass pipeline: {_PASS}")
    return factory()(**options)  # type: ignore[call-arg]  # pass classes are dataclasses of their options


def payload_rewriter(interp: Interpreter, target: Operation) -> PatternRewriter | None:
    """A handle-tracking rewriter for changes inside `target` (which may be the top-level
    module, with no block to position at); None if `target` holds no op."""
    for op in target.walk():
        if op.parent_block() is not None:
            return interp.state.rewriter(op)
    return None


@dataclass(frozen=True)
class InPlaceDecisions:
    """One-Shot analysis' in-place decision for each tensor operand it analyzed."""

    marks: Mapping[Operation, tuple[str, ...]]

    def __call__(self, op: Operation, index: int) -> bool:
        marks = self.marks.get(op)
        return marks is not None and index < len(marks) and marks[index] == "true"


def _analysis_root(target: Operation) -> Operation | None:
    """What One-Shot analysis runs on for `target`: a module or a function (the closest
    enclosing function for an op inside one)."""
    if isinstance(target, ModuleOp | func.FuncOp):
        return target
    parent = target.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def in_place_decisions(
    interp: Interpreter, op: Operation, target: Operation, *, loops_may_allocate: bool
) -> InPlaceDecisions:
    """Run One-Shot analysis over `target` and read its decisions.

    The pass annotates the payload (`test-analysis-only`); the annotations it added are
    removed again, so the payload is left as it was. Raises `SchedirError` if the
    analysis fails.
    """
    root = _analysis_root(target)
    if root is None:
        raise SchedirError("One-Shot analysis needs a function or a module", op_location(target))
    annotated_before = {o for o in root.walk() if _INPLACE in o.attributes}
    analysis = one_shot_pass(
        interp,
        op,
        bufferize_function_boundaries=isinstance(root, ModuleOp),
        allow_return_allocs_from_loops=loops_may_allocate,
        # Ops the pass does not model are analysed conservatively rather than rejected:
        # only the decisions about subset insertions are needed here.
        allow_unknown_ops=True,
        test_analysis_only=True,
    )
    try:
        analysis.bufferize(root)  # type: ignore[attr-defined]  # the registered pass is schedir's OneShotBufferize
    finally:
        marks: dict[Operation, tuple[str, ...]] = {}
        for payload in root.walk():
            attr = payload.attributes.get(_INPLACE)
            if not isinstance(attr, ArrayAttr):
                continue
            marks[payload] = tuple(a.data if isinstance(a, StringAttr) else "" for a in attr.data)
            if payload not in annotated_before:
                del payload.attributes[_INPLACE]
    return InPlaceDecisions(marks)


__all__ = ["InPlaceDecisions", "in_place_decisions", "one_shot_pass", "payload_rewriter"]
