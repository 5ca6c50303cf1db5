"""Apply functions of the bufferization transform ops (upstream BufferizationTransformOps.cpp).

`one_shot_bufferize` runs schedir's `one-shot-bufferize` pass (from the interpreter's pass
registry: this layer may not import `schedir.lowering`) with the op's options;
`eliminate_empty_tensors` asks the same pass for its in-place decisions
(`test-analysis-only` on the payload itself, the annotations removed afterwards, see
`_one_shot`) and rewrites with `rewrites.bufferization.empty_tensor_elimination`;
`empty_tensor_to_alloc_tensor` and `buffer_loop_hoisting` are local rewrites. Messages
and failure modes are upstream's.
"""

from __future__ import annotations

from xdsl.dialects import bufferization, func
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from schedir.diagnostics import Note, SchedirError, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.bufferization import (
    BufferLoopHoistingOp,
    EliminateEmptyTensorsOp,
    EmptyTensorToAllocTensorOp,
    OneShotBufferizeOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops._one_shot import in_place_decisions, one_shot_pass, payload_rewriter
from schedir.transform.rewrites.bufferization.empty_tensor_elimination import (
    eliminate_empty_tensors,
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
def apply_one_shot_bufferize(op: OneShotBufferizeOp, interp: Interpreter) -> None:
    """One-Shot Bufferize each target module or function."""
    boundaries = bool(op.bufferize_function_boundaries.value.data)
    analysis_only = bool(op.test_analysis_only.value.data)
    for option, value in (
        ("print_conflicts", op.print_conflicts),
        ("dump_alias_sets", op.dump_alias_sets),
    ):
        if value.value.data:
            raise definite(op, f"'{option}' is not supported by schedir's One-Shot analysis")
    layout = op.function_boundary_type_conversion
    layout_value = layout.value.data if layout is not None else None
    # Without layout{...} upstream keeps OneShotBufferizationOptions' default: fully
    # dynamic argument layouts, inferred result layouts.
    pass_layout, result_layout = _LAYOUTS.get(
        layout_value if layout_value is not None else 0, _LAYOUTS[0]
    )
    # check_parallel_regions is not forwarded: upstream's apply never reads it (the
    # option keeps its default, true).
    one_shot = one_shot_pass(
        interp,
        op,
        bufferize_function_boundaries=boundaries,
        function_boundary_type_conversion=pass_layout,
        allow_return_allocs_from_loops=bool(op.allow_return_allocs_from_loops.value.data),
        allow_unknown_ops=bool(op.allow_unknown_ops.value.data),
        memcpy_op=op.memcpy_op.data or "memref.copy",
        test_analysis_only=analysis_only,
    )
    payloads = list(interp.state.payload_ops(op.target))
    for payload in payloads:
        if not isinstance(payload, ModuleOp | func.FuncOp):
            raise silenceable(op, "expected module or function target")
        if boundaries and not isinstance(payload, ModuleOp):
            raise silenceable(op, "expected module target")
        results = tensor_result_positions(payload) if isinstance(payload, ModuleOp) else {}
        try:
            one_shot.bufferize(payload)  # type: ignore[attr-defined]  # the registered pass is schedir's OneShotBufferize
        except SchedirError as err:
            raise _not_bufferized(op, err, "bufferization failed") from None
        if boundaries and not analysis_only:
            assert isinstance(payload, ModuleOp)
            upstream_results(payload, result_layout, results)
    interp.set_results(op, [payloads])


@applies(EliminateEmptyTensorsOp)
def apply_eliminate_empty_tensors(op: EliminateEmptyTensorsOp, interp: Interpreter) -> None:
    """Rewrite `tensor.empty` ops whose contents end up inserted into a destination."""
    for payload in interp.state.payload_ops(op.target):
        try:
            decisions = in_place_decisions(interp, op, payload, loops_may_allocate=True)
        except SchedirError as err:
            raise TransformError(
                "empty tensor elimination failed",
                op_location(payload),
                (Note(err.message, err.location),),
                silenceable=True,
            ) from None
        rewriter = payload_rewriter(interp, payload)
        if rewriter is not None:
            eliminate_empty_tensors(rewriter, payload, decisions)


# --- empty_tensor_to_alloc_tensor / buffer_loop_hoisting -------------------------------


@applies(EmptyTensorToAllocTensorOp)
def apply_empty_tensor_to_alloc_tensor(op: EmptyTensorToAllocTensorOp, interp: Interpreter) -> None:
    """Replace each `tensor.empty` by a `bufferization.alloc_tensor`."""

    def one(payload: Operation) -> list[Mapped]:
        assert isinstance(payload, xtensor.EmptyOp)
        alloc = bufferization.AllocTensorOp(payload.tensor.type, list(payload.dynamic_sizes))
        alloc.location = payload.location
        rewriter = interp.state.rewriter(payload)
        rewriter.replace(payload, alloc)
        return [alloc]

    interp.apply_to_each(op, op.target, one)


@applies(BufferLoopHoistingOp)
def apply_buffer_loop_hoisting(op: BufferLoopHoistingOp, interp: Interpreter) -> None:
    """Hoist allocations out of the sequential loops nested in each target."""
    for payload in interp.state.payload_ops(op.target):
        hoist_buffers_from_loops(payload)
