"""Apply functions of the structured ops that stage data in memory:
`bufferize_to_allocation`, `promote` and `insert_slice_to_copy` (upstream's
LinalgTransformOps.cpp).

Each one reads its handles, calls the payload algorithm from `schedir.transform.rewrites`
(`bufferization.to_allocation`, `promotion`, `insert_slice_to_copy`) and sets its
results, with upstream's messages and failure modes.
"""

from __future__ import annotations

from xdsl.ir import Attribute, Operation

from schedir.dialects.gpu.attributes import MemorySpaceMappingAttr
from schedir.dialects.linalg.interface import is_structured
from schedir.dialects.syntax import op_note
from schedir.dialects.tensor import InsertSliceOp, ParallelInsertSliceOp
from schedir.dialects.transform.structured.memory import (
    BufferizeToAllocationOp,
    InsertSliceToCopyOp,
    PromoteOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.rewrites.bufferization.to_allocation import (
    AllocationFailure,
    AllocationOptions,
    bufferize_to_allocation,
)
from schedir.transform.rewrites.insert_slice_to_copy import insert_slice_to_copy
from schedir.transform.rewrites.promotion import (
    PromotionFailure,
    PromotionOptions,
    promote_subviews,
)
from schedir.transform.state import definite, handle_kind, silenceable

# --- bufferize_to_allocation ----------------------------------------------------------


@applies(BufferizeToAllocationOp)
def apply_bufferize_to_allocation(op: BufferizeToAllocationOp, interp: Interpreter) -> None:
    """Bufferize each target into one new allocation."""
    target = op.target
    if handle_kind(target) != "op":
        raise definite(
            op, "expected an operation handle (upstream: invalid kind of type specified)"
        )
    options = AllocationOptions(
        memory_space=op.memory_space,
        memcpy_op=op.memcpy_op.data or "bufferization.materialize_in_destination",
        alloc_op=op.alloc_op.data or "memref.alloc",
        destination_only=op.bufferize_destination_only is not None,
        emit_dealloc=op.emit_dealloc is not None,
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


def _promotion_options(op: PromoteOp) -> PromotionOptions | None:
    """The op's options; None if its `mapping` is not a single GPU memory space upstream
    can promote into (workgroup, private)."""
    operands = [a.value.data for a in op.operands_to_promote.data]
    full_flags = tuple(bool(a.value.data) for a in op.use_full_tile_buffers.data)
    gpu_space: str | None = None
    mapping = op.mapping
    if mapping is not None:
        if len(mapping.data) > 1:
            return None
        space = _gpu_memory_space(mapping.data[0]) if mapping.data else None
        if space not in ("workgroup", "private"):
            return None
        gpu_space = space
    return PromotionOptions(
        operands_to_promote=tuple(operands) if operands else None,
        use_full_tile_buffers=full_flags or None,
        use_full_tiles_by_default=op.use_full_tiles_by_default is not None,
        use_original_subview_size=op.use_original_subview_size is not None,
        use_alloca=op.use_alloca is not None,
        alignment=op.alignment.value.data if op.alignment is not None else None,
        memory_space=op.memory_space,
        gpu_space=gpu_space,
    )


def _gpu_memory_space(attr: Attribute) -> str | None:
    """The memory level a `#gpu.memory_space<...>` mapping names."""
    return str(attr.data) if isinstance(attr, MemorySpaceMappingAttr) else None


@applies(PromoteOp)
def apply_promote(op: PromoteOp, interp: Interpreter) -> None:
    """Copy the listed subview operands of structured ops into local buffers."""
    options = _promotion_options(op)

    def one(payload: Operation) -> list[Mapped]:
        if not is_structured(payload):
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

    interp.apply_to_each(op, op.target, one)


# --- insert_slice_to_copy -----------------------------------------------------------------


@applies(InsertSliceToCopyOp)
def apply_insert_slice_to_copy(op: InsertSliceToCopyOp, interp: Interpreter) -> None:
    """Insert a `linalg.copy` of the source before each slice insertion."""

    def one(payload: Operation) -> list[Mapped]:
        if not isinstance(payload, InsertSliceOp | ParallelInsertSliceOp):
            raise silenceable(
                op,
                "only InsertSliceOp and ParallelInsertSliceOp ops are supported",
                notes=[op_note(payload, "target op")],
            )
        return [insert_slice_to_copy(interp.state.rewriter(payload), payload).copy]

    interp.apply_to_each(op, op.target, one)
