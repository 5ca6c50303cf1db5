"""Apply functions of the GPU transform ops (upstream GPUTransformOps.cpp):
`gpu.map_forall_to_blocks`, `gpu.map_nested_forall_to_threads`, and the pattern set of
the `apply_patterns.gpu.eliminate_barriers` descriptor.

Messages, handle effects and failure modes are upstream's; the payload algorithms are in
`schedir.transform.rewrites.gpu.mapping` and `gpu.barriers`.
"""

from __future__ import annotations

from xdsl.ir import Operation

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.descriptors import Descriptor
from schedir.dialects.transform.gpu import (
    ApplyGpuEliminateBarriersOp,
    MapForallToBlocksOp,
    MapNestedForallToThreadsOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies, populates
from schedir.transform.rewrites.canonicalize.driver import pattern_set
from schedir.transform.rewrites.gpu.mapping import (
    GpuMappingError,
    map_forall_to_blocks,
    map_nested_forall_to_threads,
)
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.state import definite, payload_location, silenceable


def _error(op: Operation, err: GpuMappingError) -> TransformError:
    """The transform error of a mapping failure, with upstream's notes."""
    notes: list[Note] = []
    if err.payload is not None:
        notes.append(Note("when applied to this payload op", payload_location(err.payload)))
    if err.note is not None:
        notes.append(Note(err.note, op_location(op)))
    if err.definite:
        return definite(op, err.message, notes=notes)
    return silenceable(op, err.message, notes=notes)


@applies(MapForallToBlocksOp)
def apply_map_forall_to_blocks(op: MapForallToBlocksOp, interp: Interpreter) -> None:
    """Map the top-level `scf.forall` of each target to GPU block ids."""
    grid = [int(v) for v in op.grid_dims.get_values()]
    generate = op.generate_gpu_launch is not None

    def one(payload: Operation) -> list[Mapped | None]:
        try:
            result = map_forall_to_blocks(
                payload,
                grid_dims=grid,
                generate_gpu_launch=generate,
                listener=interp.state.tracking_listener(),
            )
        except GpuMappingError as err:
            raise _error(op, err) from None
        return [result.launch]

    interp.apply_to_each(op, op.target, one)


@applies(MapNestedForallToThreadsOp)
def apply_map_nested_forall_to_threads(op: MapNestedForallToThreadsOp, interp: Interpreter) -> None:
    """Map the `scf.forall` ops nested in each `gpu.launch` to thread ids."""
    block = [int(v) for v in op.block_dims.get_values()]
    warp_size = op.warp_size.value.data
    sync = bool(op.sync_after_distribute.value.data)

    def one(payload: Operation) -> list[Mapped | None]:
        try:
            map_nested_forall_to_threads(
                payload,
                block_dims=block,
                warp_size=warp_size,
                sync_after_distribute=sync,
                listener=interp.state.tracking_listener(),
            )
        except GpuMappingError as err:
            raise _error(op, err) from None
        return [payload]

    interp.apply_to_each(op, op.target, one)


@populates(ApplyGpuEliminateBarriersOp)
def eliminate_barriers(op: Descriptor) -> PatternSet:
    """Remove gpu.barrier ops that order no conflicting memory accesses."""
    return pattern_set(["gpu.eliminate_barriers"])
