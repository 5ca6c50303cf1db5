"""Apply functions of the memory transform ops: `structured.bufferize_to_allocation`,
`structured.promote`, `structured.insert_slice_to_copy` (upstream
LinalgTransformOps.cpp) and `memref.multibuffer` (MemRefTransformOps.cpp).

Each one reads its handles, calls the payload algorithm from `schedir.transform.rewrites`
(`bufferize_to_allocation`, `promotion`, `insert_slice_to_copy`, `multibuffer`) and sets
its results, with upstream's messages and failure modes.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Attribute, Operation

from schedir.diagnostics import TransformError
from schedir.dialects import linalg
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.tensor import InsertSliceOp, ParallelInsertSliceOp
from schedir.dialects.transform.memref import MemRefMultiBufferOp
from schedir.dialects.transform.structured_rewrite import (
    BufferizeToAllocationOp,
    InsertSliceToCopyOp,
    PromoteOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.core import flag, int_list_prop, int_prop, operand, prop, str_prop
from schedir.transform.rewrites.bufferization.to_allocation import (
    AllocationFailure,
    AllocationOptions,
    bufferize_to_allocation,
)
from schedir.transform.rewrites.insert_slice_to_copy import insert_slice_to_copy
from schedir.transform.rewrites.multibuffer import MultiBufferFailure, multi_buffer, used_in_loops
from schedir.transform.rewrites.promotion import (
    PromotionFailure,
    PromotionOptions,
    promote_subviews,
)
from schedir.transform.state import definite, handle_kind, silenceable

# --- bufferize_to_allocation ----------------------------------------------------------


@applies(BufferizeToAllocationOp)
def apply_bufferize_to_allocation(op: Operation, interp: Interpreter) -> None:
    """Bufferize each target op into one new allocation (optionally in `memory_space`).

    Return modes: consumes the target, unless `bufferize_destination_only` (then the op
    stays and the handle is only read); returns a value handle to the new buffers and a
    handle to every op the rewrite created. Silenceable failure "failed to bufferize
    operation" (note: "target payload op") where upstream cannot bufferize the op.
    """
    target = operand(op, "target")
    assert target is not None
    if handle_kind(target) != "op":
        raise definite(
            op, "expected an operation handle (upstream: invalid kind of type specified)"
        )
    options = AllocationOptions(
        memory_space=prop(op, "memory_space"),
        memcpy_op=str_prop(op, "memcpy_op") or "bufferization.materialize_in_destination",
        alloc_op=str_prop(op, "alloc_op") or "memref.alloc",
        destination_only=flag(op, "bufferize_destination_only"),
        emit_dealloc=flag(op, "emit_dealloc"),
    )
    buffers: list[Mapped] = []
    new_ops: list[Mapped] = []
    for payload in interp.state.payload_ops(target):
        try:
            result = bufferize_to_allocation(interp.state.rewriter(payload), payload, options)
        except AllocationFailure:
            raise silenceable(
                op, "failed to bufferize operation", notes=[op_note(payload, "target payload op")]
            ) from None
        buffers.append(result.buffer)
        new_ops.extend(result.new_ops)
    # Ops a later payload's rewrite erased are no longer new ops.
    interp.set_results(
        op, [buffers, [o for o in new_ops if isinstance(o, Operation) and o.parent is not None]]
    )


# --- promote ---------------------------------------------------------------------------


def _promotion_options(op: Operation) -> PromotionOptions | None:
    """The op's options; None if its `mapping` is not a single GPU memory space upstream
    can promote into (workgroup, private)."""
    operands = int_list_prop(op, "operands_to_promote")
    full = prop(op, "use_full_tile_buffers")
    full_flags = (
        tuple(bool(a.value.data) for a in full.data if isinstance(a, IntegerAttr))
        if isinstance(full, ArrayAttr)
        else ()
    )
    gpu_space: str | None = None
    mapping = prop(op, "mapping")
    if isinstance(mapping, ArrayAttr):
        if len(mapping.data) > 1:
            return None
        space = _gpu_memory_space(mapping.data[0]) if mapping.data else None
        if space not in ("workgroup", "private"):
            return None
        gpu_space = space
    return PromotionOptions(
        operands_to_promote=tuple(operands) if operands else None,
        use_full_tile_buffers=full_flags or None,
        use_full_tiles_by_default=flag(op, "use_full_tiles_by_default"),
        use_original_subview_size=flag(op, "use_original_subview_size"),
        use_alloca=flag(op, "use_alloca"),
        alignment=int_prop(op, "alignment"),
        memory_space=prop(op, "memory_space"),
        gpu_space=gpu_space,
    )


def _gpu_memory_space(attr: Attribute) -> str | None:
    if attr.name != "gpu.memory_space":  # type: ignore[attr-defined]
        return None
    return str(getattr(attr, "data", ""))


@applies(PromoteOp)
def apply_promote(op: Operation, interp: Interpreter) -> None:
    """Copy the listed subview operands of structured ops on buffers into local buffers
    (upstream's `promoteSubViews`), optionally in workgroup/private GPU memory.

    Return modes: consumes the target; returns the promoted ops (the same ops, with new
    operands). Silenceable failure "transform applied to the wrong op kind" on ops that
    are not structured; definite failure "failed to apply" (note: "attempted to apply to
    this op") when the op is not on buffers, has no subview to promote, or the mapping or
    allocation is unsupported.
    """
    target = operand(op, "target")
    assert target is not None
    options = _promotion_options(op)

    def one(payload: Operation) -> list[Mapped]:
        if not linalg.is_structured(payload):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        failed = definite(
            op, "failed to apply", notes=[op_note(payload, "attempted to apply to this op")]
        )
        if options is None:
            raise failed
        try:
            result = promote_subviews(interp.state.rewriter(payload), payload, options)
        except PromotionFailure:
            raise failed from None
        return [result.op]

    interp.apply_to_each(op, target, one)


# --- insert_slice_to_copy -----------------------------------------------------------------


@applies(InsertSliceToCopyOp)
def apply_insert_slice_to_copy(op: Operation, interp: Interpreter) -> None:
    """Insert a `linalg.copy` of the source before each slice insertion.

    Return modes: consumes the target; returns the copies (an existing `linalg.copy`
    source is returned as is). Silenceable failure "only InsertSliceOp and
    ParallelInsertSliceOp ops are supported" (note: "target op") on other ops.
    """
    target = operand(op, "target")
    assert target is not None

    def one(payload: Operation) -> list[Mapped]:
        if not isinstance(payload, InsertSliceOp | ParallelInsertSliceOp):
            raise silenceable(
                op,
                "only InsertSliceOp and ParallelInsertSliceOp ops are supported",
                notes=[op_note(payload, "target op")],
            )
        return [insert_slice_to_copy(interp.state.rewriter(payload), payload).copy]

    interp.apply_to_each(op, target, one)


# --- memref.multibuffer ----------------------------------------------------------------


@applies(MemRefMultiBufferOp)
def apply_multibuffer(op: Operation, interp: Interpreter) -> None:
    """Multi-buffer each `memref.alloc` used in a loop (`factor` copies rotated by the
    iteration).

    Return modes: consumes the target; returns the new allocations (an allocation not used
    in a loop is skipped and not returned). Silenceable failure "op failed to multibuffer"
    at an allocation that cannot be multi-buffered.
    """
    target = operand(op, "target")
    assert target is not None
    factor = int_prop(op, "factor") or 1
    skip = flag(op, "skip_analysis")
    results: list[Mapped] = []
    for payload in interp.state.payload_ops(target):
        if not used_in_loops(payload):
            continue
        try:
            result = multi_buffer(interp.state.rewriter(payload), payload, factor, skip)
        except MultiBufferFailure:
            interp.set_results(op, [results])
            raise TransformError(
                "op failed to multibuffer", op_location(payload), silenceable=True
            ) from None
        results.append(result.alloc)
    interp.set_results(op, [results])
