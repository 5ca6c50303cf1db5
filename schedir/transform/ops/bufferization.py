"""Apply functions of the bufferization transform ops (upstream BufferizationTransformOps.cpp).

`one_shot_bufferize` runs schedir's `one-shot-bufferize` pass (from the interpreter's pass
registry: this layer may not import `schedir.lowering`) with the op's options;
`eliminate_empty_tensors` asks the same pass for its in-place decisions
(`test-analysis-only` on the payload itself, the annotations removed afterwards) and
rewrites with `rewrites.empty_tensor_elimination`; `empty_tensor_to_alloc_tensor` and
`buffer_loop_hoisting` are local rewrites. Messages and failure modes are upstream's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.dialects import bufferization, func
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from schedir.diagnostics import Note, SchedirError, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.bufferization import (
    BufferLoopHoistingOp,
    EliminateEmptyTensorsOp,
    EmptyTensorToAllocTensorOp,
    OneShotBufferizeOp,
)
from schedir.dialects.transform.structured_rewrite import StructuredEliminateEmptyTensorsOp
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.core import flag, int_prop, operand, str_prop
from schedir.transform.rewrites.bufferization.empty_tensor_elimination import (
    eliminate_empty_tensors,
    eliminate_linalg_anchored_empty_tensors,
)
from schedir.transform.rewrites.bufferization.loop_hoisting import hoist_buffers_from_loops
from schedir.transform.rewrites.bufferization.results import (
    ResultLayout,
    tensor_result_positions,
    upstream_results,
)
from schedir.transform.state import MultipleTransformErrors, definite, silenceable

_PASS = "one-shot-bufferize"
_LAYOUTS: dict[int, tuple[str, ResultLayout]] = {
    0: ("infer-layout-map", "infer"),
    1: ("identity-layout-map", "identity"),
    2: ("fully-dynamic-layout-map", "fully-dynamic"),
}
"""Upstream's `LayoutMapOption` (stored value) -> the pass option, the result layout."""
_INPLACE = "__inplace_operands_attr__"


def _one_shot(interp: Interpreter, op: Operation, **options: object) -> ModulePass:
    """An instance of the registered `one-shot-bufferize` pass with these options."""
    factory = interp.passes.get(_PASS)
    if factory is None:
        raise definite(op, f"unknown pass or pass pipeline: {_PASS}")
    return factory()(**options)  # type: ignore[call-arg]


def _not_bufferized(op: Operation, err: SchedirError, message: str) -> MultipleTransformErrors:
    """Upstream's pair of diagnostics: the error at the payload op, then `message` (a
    silenceable failure) at the transform op."""
    return MultipleTransformErrors(
        [
            TransformError(
                f"op was not bufferized: {err.message}",
                err.location,
                err.notes,
                silenceable=True,
            ),
            silenceable(op, message),
        ]
    )


# --- one_shot_bufferize ---------------------------------------------------------------


@applies(OneShotBufferizeOp)
def apply_one_shot_bufferize(op: Operation, interp: Interpreter) -> None:
    """One-Shot Bufferize each target: a module (with `bufferize_function_boundaries`,
    whose function signatures become memrefs) or a function.

    Return modes: consumes the target (handles to ops nested in it are invalidated) and
    returns the same ops, modified in place. Silenceable failure "expected module or
    function target" / "expected module target" (function boundaries on a function), and
    "bufferization failed" (after an error at the payload op schedir cannot bufferize).
    Definite failure for `print_conflicts` / `dump_alias_sets`, which schedir's analysis
    does not report.
    """
    target = operand(op, "target")
    assert target is not None
    boundaries = flag(op, "bufferize_function_boundaries")
    analysis_only = flag(op, "test_analysis_only")
    for option in ("print_conflicts", "dump_alias_sets"):
        if flag(op, option):
            raise definite(op, f"'{option}' is not supported by schedir's One-Shot analysis")
    layout_value = int_prop(op, "function_boundary_type_conversion")
    # Without layout{...} upstream keeps OneShotBufferizationOptions' default: fully
    # dynamic argument layouts, inferred result layouts.
    pass_layout, result_layout = _LAYOUTS.get(
        layout_value if layout_value is not None else 0, _LAYOUTS[0]
    )
    # check_parallel_regions is not forwarded: upstream's apply never reads it (the
    # option keeps its default, true).
    one_shot = _one_shot(
        interp,
        op,
        bufferize_function_boundaries=boundaries,
        function_boundary_type_conversion=pass_layout,
        allow_return_allocs_from_loops=flag(op, "allow_return_allocs_from_loops"),
        allow_unknown_ops=flag(op, "allow_unknown_ops"),
        memcpy_op=str_prop(op, "memcpy_op") or "memref.copy",
        test_analysis_only=analysis_only,
    )
    payloads = list(interp.state.payload_ops(target))
    for payload in payloads:
        if not isinstance(payload, ModuleOp | func.FuncOp):
            raise silenceable(op, "expected module or function target")
        if boundaries and not isinstance(payload, ModuleOp):
            raise silenceable(op, "expected module target")
        results = tensor_result_positions(payload) if isinstance(payload, ModuleOp) else {}
        try:
            one_shot.bufferize(payload)  # type: ignore[attr-defined]
        except SchedirError as err:
            raise _not_bufferized(op, err, "bufferization failed") from None
        if boundaries and not analysis_only:
            assert isinstance(payload, ModuleOp)
            upstream_results(payload, result_layout, results)
    interp.set_results(op, [payloads])


# --- eliminate_empty_tensors ----------------------------------------------------------


def _rewriter(interp: Interpreter, target: Operation) -> PatternRewriter | None:
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
    analysis = _one_shot(
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
        analysis.bufferize(root)  # type: ignore[attr-defined]
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


@applies(EliminateEmptyTensorsOp)
def apply_eliminate_empty_tensors(op: Operation, interp: Interpreter) -> None:
    """Replace `tensor.empty` ops whose contents end up inserted into a destination by
    the slice of that destination (so bufferization writes there directly).

    Return modes: only reads the target (the payload is modified). Silenceable failure
    "empty tensor elimination failed", at the target, if One-Shot analysis fails on it.
    """
    target = operand(op, "target")
    assert target is not None
    for payload in interp.state.payload_ops(target):
        try:
            decisions = in_place_decisions(interp, op, payload, loops_may_allocate=True)
        except SchedirError as err:
            raise TransformError(
                "empty tensor elimination failed",
                op_location(payload),
                (Note(err.message, err.location),),
                silenceable=True,
            ) from None
        rewriter = _rewriter(interp, payload)
        if rewriter is not None:
            eliminate_empty_tensors(rewriter, payload, decisions)


@applies(StructuredEliminateEmptyTensorsOp)
def apply_structured_eliminate_empty_tensors(op: Operation, interp: Interpreter) -> None:
    """Let all-parallel structured ops compute in place over an input that comes from a
    `tensor.empty`-initialized computation (linalg-anchored elimination).

    Return modes: only reads the target (the payload is modified). Silenceable failure
    "failed to analyze op", at the target, if One-Shot analysis fails on it.
    """
    target = operand(op, "target")
    assert target is not None
    for payload in interp.state.payload_ops(target):
        try:
            in_place_decisions(interp, op, payload, loops_may_allocate=True)
        except SchedirError as err:
            raise TransformError(
                "failed to analyze op",
                op_location(payload),
                (Note(err.message, err.location),),
                silenceable=True,
            ) from None
        rewriter = _rewriter(interp, payload)
        if rewriter is not None:
            eliminate_linalg_anchored_empty_tensors(rewriter, payload)


# --- empty_tensor_to_alloc_tensor / buffer_loop_hoisting -------------------------------


@applies(EmptyTensorToAllocTensorOp)
def apply_empty_tensor_to_alloc_tensor(op: Operation, interp: Interpreter) -> None:
    """Replace each `tensor.empty` by a `bufferization.alloc_tensor` of its type.

    Return modes: consumes the target; returns the new alloc_tensor ops. Never fails (the
    handle type guarantees `tensor.empty` payloads).
    """
    target = operand(op, "target")
    assert target is not None

    def one(payload: Operation) -> list[Mapped]:
        assert isinstance(payload, xtensor.EmptyOp)
        alloc = bufferization.AllocTensorOp(payload.tensor.type, list(payload.dynamic_sizes))
        alloc.location = payload.location
        rewriter = interp.state.rewriter(payload)
        rewriter.replace(payload, alloc)
        return [alloc]

    interp.apply_to_each(op, target, one)


@applies(BufferLoopHoistingOp)
def apply_buffer_loop_hoisting(op: Operation, interp: Interpreter) -> None:
    """Hoist allocations out of the sequential loops nested in each target.

    Return modes: only reads the target (the payload is modified); never fails.
    """
    target = operand(op, "target")
    assert target is not None
    for payload in interp.state.payload_ops(target):
        hoist_buffers_from_loops(payload)


__all__ = ["InPlaceDecisions", "in_place_decisions"]
