"""Apply functions of the nvgpu transform ops (`schedir.dialects.transform.nvgpu`): thin
adapters over `schedir.transform.rewrites.gpu.tma`, `.wgmma`, `.tma_ring`,
`.warp_specialize`, `.raster`, `.persistent` and `.staged_store`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from schedir.dialects.transform.nvgpu import (
    PersistentTilesOp,
    PipelineTmaRingOp,
    RasterBlocksOp,
    RewriteCopyAsTmaOp,
    RewriteMatmulAsWgmmaOp,
    StageAccumulatorStoreOp,
    WarpSpecializeTmaRingOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.rewrites.gpu.persistent import persistent_tiles
from schedir.transform.rewrites.gpu.raster import raster_blocks
from schedir.transform.rewrites.gpu.staged_store import stage_accumulator_store
from schedir.transform.rewrites.gpu.tma import rewrite_copies_as_tma
from schedir.transform.rewrites.gpu.tma_ring import pipeline_tma_ring
from schedir.transform.rewrites.gpu.warp_specialize import warp_specialize_tma_ring
from schedir.transform.rewrites.gpu.wgmma import rewrite_matmul_as_wgmma
from schedir.transform.rewrites.rewriter import PayloadRewriteError
from schedir.transform.state import definite, rewrite_failure


@contextmanager
def _silenceable(op: Operation, failure: str) -> Iterator[None]:
    """A rewrite's error inside as a silenceable failure of `op`: the reason at the payload
    op it names, then `failure` at the transform op."""
    try:
        yield
    except PayloadRewriteError as error:
        raise rewrite_failure(op, error.op, error.message, failure) from None


def _one_int(op: Operation, interp: Interpreter, param: SSAValue, what: str) -> int:
    """The one integer a param handle holds (a definite failure otherwise)."""
    values = interp.state.params(param)
    if len(values) != 1 or not isinstance(values[0], IntegerAttr):
        raise definite(op, f"expected {what} to be one integer param, got {len(values)} values")
    return values[0].value.data


@applies(RewriteCopyAsTmaOp)
def apply_rewrite_copy_as_tma(op: RewriteCopyAsTmaOp, interp: Interpreter) -> None:
    """Rewrite the target copies (of one launch) into TMA loads on one mbarrier."""
    copies = interp.state.payload_ops(op.target)
    if not copies:
        return
    swizzle = op.swizzle.data if op.swizzle is not None else "none"
    with _silenceable(op, "could not rewrite the copies as TMA loads"):
        rewrite_copies_as_tma(interp.state.rewriter(copies[0]), copies, swizzle)


@applies(RewriteMatmulAsWgmmaOp)
def apply_rewrite_matmul_as_wgmma(op: RewriteMatmulAsWgmmaOp, interp: Interpreter) -> None:
    """Rewrite each target matmul into warpgroup MMAs with a register accumulator."""
    warpgroups = 1 if op.warpgroups is None else _one_int(op, interp, op.warpgroups, "warpgroups")
    if warpgroups < 1:
        raise definite(op, f"expected warpgroups to be positive, got {warpgroups}")
    pingpong = 0 if op.pingpong is None else _one_int(op, interp, op.pingpong, "pingpong")
    if pingpong not in (0, 1):
        raise definite(op, f"expected pingpong to be 0 or 1, got {pingpong}")
    if pingpong:
        warpgroups = 1  # each consumer's accumulator is a whole tile

    def one(payload: Operation) -> list[Mapped]:
        with _silenceable(op, "could not rewrite the matmul as wgmma"):
            result = rewrite_matmul_as_wgmma(interp.state.rewriter(payload), payload, warpgroups)
        return [result.mma]

    interp.apply_to_each(op, op.target, one)


@applies(PipelineTmaRingOp)
def apply_pipeline_tma_ring(op: PipelineTmaRingOp, interp: Interpreter) -> None:
    """Pipeline each target MMA's loop into a TMA ring of `stages` buffers."""
    stages = _one_int(op, interp, op.stages, "stages")

    def one(payload: Operation) -> list[Mapped]:
        with _silenceable(op, "could not pipeline the loop into a TMA ring"):
            result = pipeline_tma_ring(interp.state.rewriter(payload), payload, stages)
        if result is None:  # in no loop: the op whose body holds the MMA
            parent = payload.parent_op()
            assert parent is not None
            return [parent]
        return [result.loop]

    interp.apply_to_each(op, op.target, one)


@applies(WarpSpecializeTmaRingOp)
def apply_warp_specialize_tma_ring(op: WarpSpecializeTmaRingOp, interp: Interpreter) -> None:
    """Warp-specialize each target MMA's loop into producer and consumer warpgroups."""
    stages = _one_int(op, interp, op.stages, "stages")
    consumers = _one_int(op, interp, op.consumers, "consumers")
    producer = _one_int(op, interp, op.producer_registers, "producer_registers")
    consumer = _one_int(op, interp, op.consumer_registers, "consumer_registers")
    pingpong = 0 if op.pingpong is None else _one_int(op, interp, op.pingpong, "pingpong")
    if pingpong not in (0, 1):
        raise definite(op, f"expected pingpong to be 0 or 1, got {pingpong}")
    stagger = 0 if op.stagger is None else _one_int(op, interp, op.stagger, "stagger")

    def one(payload: Operation) -> list[Mapped]:
        with _silenceable(op, "could not warp-specialize the TMA ring"):
            result = warp_specialize_tma_ring(
                interp.state.rewriter(payload),
                payload,
                stages,
                consumers,
                producer,
                consumer,
                pingpong == 1,
                stagger,
            )
        return [result.loop]

    interp.apply_to_each(op, op.target, one)


@applies(RasterBlocksOp)
def apply_raster_blocks(op: RasterBlocksOp, interp: Interpreter) -> None:
    """Reorder each target launch's blocks in groups of `group` rows."""
    group = _one_int(op, interp, op.group, "group")
    for payload in interp.state.payload_ops(op.target):
        with _silenceable(op, "could not reorder the blocks"):
            raster_blocks(interp.state.rewriter(payload), payload, group)


@applies(PersistentTilesOp)
def apply_persistent_tiles(op: PersistentTilesOp, interp: Interpreter) -> None:
    """Make each target launch a persistent grid of `ctas` blocks over its tiles."""
    ctas = _one_int(op, interp, op.ctas, "ctas")
    group = _one_int(op, interp, op.group, "group")
    for payload in interp.state.payload_ops(op.target):
        with _silenceable(op, "could not make the tile loop persistent"):
            persistent_tiles(interp.state.rewriter(payload), payload, ctas, group)


@applies(StageAccumulatorStoreOp)
def apply_stage_accumulator_store(op: StageAccumulatorStoreOp, interp: Interpreter) -> None:
    """Make each target accumulator store go through shared memory in `columns` chunks
    (out by TMA through `tma_buffers` buffers where the destination allows it)."""
    columns = _one_int(op, interp, op.columns, "columns")
    buffers = 0
    if op.tma_buffers is not None:
        buffers = _one_int(op, interp, op.tma_buffers, "tma_buffers")
    box_rows = 0
    if op.tma_box_rows is not None:
        box_rows = _one_int(op, interp, op.tma_box_rows, "tma_box_rows")
    stmatrix = 0
    if op.stmatrix is not None:
        stmatrix = _one_int(op, interp, op.stmatrix, "stmatrix")
    if stmatrix not in (0, 1):
        raise definite(op, f"expected stmatrix to be 0 or 1, got {stmatrix}")
    for payload in interp.state.payload_ops(op.target):
        with _silenceable(op, "could not stage the accumulator store through shared memory"):
            stage_accumulator_store(
                interp.state.rewriter(payload), payload, columns, buffers, box_rows, stmatrix == 1
            )
