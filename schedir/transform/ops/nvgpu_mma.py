"""Apply functions of `transform.nvgpu.rewrite_matmul_as_mma_sync`, `create_async_groups`,
`pipeline_shared_memory_copies` and schedir's `pad_shared_rows`,
`nvgpu.pipeline_fragments` and `nvgpu.carry_ring_offsets`
(`schedir.dialects.transform.nvgpu_mma`): adapters over
`schedir.transform.rewrites.gpu.mma_sync`, `.async_groups`, `.pipeline_copies`,
`.pad_shared`, `.pipeline_fragments` and `.ring_offsets`."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from schedir.dialects.transform.nvgpu_mma import (
    CarryRingOffsetsOp,
    CreateAsyncGroupsOp,
    PadSharedRowsOp,
    PipelineFragmentsOp,
    PipelineSharedMemoryCopiesOp,
    RewriteMatmulAsMmaSyncOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.rewrites.gpu.async_groups import create_async_groups
from schedir.transform.rewrites.gpu.mma_sync import (
    MmaSyncRewriteError,
    rewrite_matmul_as_mma_sync,
)
from schedir.transform.rewrites.gpu.pad_shared import (
    PadSharedError,
    in_workgroup_memory,
    pad_shared_rows,
)
from schedir.transform.rewrites.gpu.pipeline_copies import (
    PipelineError,
    pipeline_shared_memory_copies,
)
from schedir.transform.rewrites.gpu.pipeline_fragments import (
    FragmentPipelineError,
    pipeline_fragments,
)
from schedir.transform.rewrites.gpu.ring_offsets import RingOffsetError, carry_ring_offsets
from schedir.transform.state import definite, rewrite_failure


@applies(RewriteMatmulAsMmaSyncOp)
def apply_rewrite_matmul_as_mma_sync(op: RewriteMatmulAsMmaSyncOp, interp: Interpreter) -> None:
    """Rewrite each target matmul into mma.sync on one warp's fragments."""

    def one(payload: Operation) -> list[Mapped]:
        try:
            rewrite_matmul_as_mma_sync(interp.state.rewriter(payload), payload)
        except MmaSyncRewriteError as error:
            raise rewrite_failure(op, error.op, error.message, "unsupported target op") from None
        return []

    interp.apply_to_each(op, op.target, one)


@applies(CreateAsyncGroupsOp)
def apply_create_async_groups(op: CreateAsyncGroupsOp, interp: Interpreter) -> None:
    """Rewrite the global -> shared copies under each target into cp.async groups."""
    targets = interp.state.payload_ops(op.target)
    for payload in targets:
        create_async_groups(interp.state.rewriter(payload), payload, op.bypass_l1 is not None)
    interp.set_results(op, [list(targets)])


@applies(PipelineSharedMemoryCopiesOp)
def apply_pipeline_shared_memory_copies(
    op: PipelineSharedMemoryCopiesOp, interp: Interpreter
) -> None:
    """Pipeline each target loop's asynchronous copies `depth` iterations deep."""
    depth = op.depth.value.data

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = pipeline_shared_memory_copies(interp.state.rewriter(payload), payload, depth)
        except PipelineError as error:
            if op.suppresses_failures:
                return [payload]
            raise rewrite_failure(
                op, error.op, error.message, "failed to pipeline the shared memory copies"
            ) from None
        return [result.loop]

    interp.apply_to_each(op, op.for_op, one)


@applies(PadSharedRowsOp)
def apply_pad_shared_rows(op: PadSharedRowsOp, interp: Interpreter) -> None:
    """Pad the rows of each target buffer's tiles by `pad` elements."""
    values = interp.state.params(op.pad)
    if len(values) != 1 or not isinstance(values[0], IntegerAttr) or values[0].value.data < 0:
        raise definite(op, "expected pad to be one non-negative integer param")
    pad = values[0].value.data

    def one(payload: Operation) -> list[Mapped]:
        if pad == 0 or not in_workgroup_memory(payload):
            return [payload]
        try:
            result = pad_shared_rows(interp.state.rewriter(payload), payload, pad)
        except PadSharedError as error:
            raise rewrite_failure(
                op, error.op, error.message, "could not pad the buffer's rows"
            ) from None
        return [result.alloc]

    interp.apply_to_each(op, op.target, one)


@applies(PipelineFragmentsOp)
def apply_pipeline_fragments(op: PipelineFragmentsOp, interp: Interpreter) -> None:
    """Pipeline each target loop's first k sub-step fragments across its barrier."""

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = pipeline_fragments(
                interp.state.rewriter(payload),
                payload,
                double_buffer=op.double_buffer is not None,
            )
        except FragmentPipelineError as error:
            if op.suppresses_failures:
                return [payload]
            raise rewrite_failure(
                op, error.op, error.message, "failed to pipeline the fragments"
            ) from None
        return [result.loop]

    interp.apply_to_each(op, op.for_op, one)


@applies(CarryRingOffsetsOp)
def apply_carry_ring_offsets(op: CarryRingOffsetsOp, interp: Interpreter) -> None:
    """Carry each target loop's ring offsets instead of recomputing them."""

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = carry_ring_offsets(interp.state.rewriter(payload), payload)
        except RingOffsetError as error:
            if op.suppresses_failures:
                return [payload]
            raise rewrite_failure(
                op, error.op, error.message, "failed to carry the ring offsets"
            ) from None
        return [result.loop]

    interp.apply_to_each(op, op.for_op, one)
