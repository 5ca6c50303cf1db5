"""Apply functions of the GPU transform ops (upstream GPUTransformOps.cpp):
`gpu.map_forall_to_blocks`, `gpu.map_nested_forall_to_threads`,
`structured.gpu.map_copy_to_threads`.

Messages, handle effects and failure modes are upstream's; the payload algorithms are in
`schedir.transform.rewrites.gpu_mapping` and `gpu_copy`. The pattern descriptor
`apply_patterns.gpu.eliminate_barriers` is run by `apply_patterns` (see
`schedir.transform.rewrites.gpu_barriers`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform._syntax import dense_values
from schedir.dialects.transform.gpu import MapForallToBlocksOp, MapNestedForallToThreadsOp
from schedir.dialects.transform.structured_rewrite import MapCopyToThreadsOp
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.rewrites.gpu.copy import CopyMappingError, map_copy_to_threads
from schedir.transform.rewrites.gpu.mapping import (
    GpuMappingError,
    map_forall_to_blocks,
    map_nested_forall_to_threads,
)
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


def _int(op: Operation, name: str, default: int) -> int:
    attr = op.properties.get(name) or op.attributes.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else default


@applies(MapForallToBlocksOp)
def apply_map_forall_to_blocks(op: Operation, interp: Interpreter) -> None:
    """`transform.gpu.map_forall_to_blocks`: map the top-level `scf.forall` of each target
    to block ids, creating the `gpu.launch` with `generate_gpu_launch`.

    ```mlir
    %launch = transform.gpu.map_forall_to_blocks %func generate_gpu_launch
        : (!transform.any_op) -> !transform.any_op
    // scf.forall (%i, %j) in (4, 4) {...} {mapping = [#gpu.block<y>, #gpu.block<x>]}
    // -> gpu.launch blocks(...) in (%gx = %c4, %gy = %c4, %gz = %c1) ... {
    //      %bx = gpu.block_id x
    //      %by = gpu.block_id y
    //      ... (%i -> %by, %j -> %bx)
    //    }
    ```

    Return modes: consumes the target; returns the `gpu.launch` (per target). Silenceable
    failure (with a note at the payload) when the target is not a `gpu.launch` and
    `generate_gpu_launch` is not set, when it holds no unique top-level forall, or when the
    grid exceeds the GPU's limits; definite failure for an invalid mapping (missing,
    mixed, duplicate, not `#gpu.block`), a forall that is not normalized, static or
    bufferized, `grid_dims` not of size 3 without `generate_gpu_launch`, or a forall with
    more iterations than `grid_dims`.
    """
    grid = list(dense_values(op.properties.get("grid_dims")))
    generate = op.properties.get("generate_gpu_launch") is not None

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

    interp.apply_to_each(op, op.operands[0], one)


@applies(MapNestedForallToThreadsOp)
def apply_map_nested_forall_to_threads(op: Operation, interp: Interpreter) -> None:
    """`transform.gpu.map_nested_forall_to_threads`: map every `scf.forall` nested in each
    target `gpu.launch` to thread ids for `block_dims`.

    ```mlir
    %l = transform.gpu.map_nested_forall_to_threads %launch block_dims = [32, 8, 1]
        : (!transform.any_op) -> !transform.any_op
    // scf.forall (%i, %j) in (8, 32) {...} {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    // -> %tx = gpu.thread_id x
    //    %ty = gpu.thread_id y
    //    ... (%i -> %ty, %j -> %tx)
    //    gpu.barrier
    ```

    A forall smaller than `block_dims` runs under `scf.if` (only the first threads work);
    `#gpu.warp` ids are `thread_id x floordiv warp_size` (3-D) or the linear id divided by
    it; `linear_dim_N` ids delinearize `tx + ty*BX + tz*BX*BY`.

    Return modes: consumes the target; returns it. Silenceable failure when the target is
    not a `gpu.launch` or `block_dims` exceed the limits (with the note "block_dims is too
    large"); definite failure for an invalid mapping, a forall that is not normalized,
    static or bufferized, more iterations than threads ("the number of required parallel
    resources ... overflows ..."), or a warp mapping whose x size is not a multiple of the
    warp size.
    """
    block = list(dense_values(op.properties.get("block_dims")))
    warp_size = _int(op, "warp_size", 32)
    sync_attr = op.properties.get("sync_after_distribute")
    sync = bool(sync_attr.value.data) if isinstance(sync_attr, IntegerAttr) else True

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

    interp.apply_to_each(op, op.operands[0], one)


@applies(MapCopyToThreadsOp)
def apply_map_copy_to_threads(op: Operation, interp: Interpreter) -> None:
    """`transform.structured.gpu.map_copy_to_threads`: distribute each `linalg.copy` (or
    `tensor.pad`) over `total_num_threads` threads with accesses of at most
    `desired_bit_alignment` bits, as an `scf.forall` mapped to `#gpu.thread` (linear ids
    when more than 3 dimensions are needed).

    ```mlir
    %forall, %tiled = transform.structured.gpu.map_copy_to_threads %copy
        total_num_threads = 128 desired_bit_alignment = 128
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // linalg.copy ins(%a : tensor<16x64xf32>) outs(%b : tensor<16x64xf32>)
    // -> scf.forall (%i, %j) in (16, 8) shared_outs(%o = %b) {
    //      ... linalg.copy of a 1x8 slice ...
    //    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    ```

    Return modes: consumes the target; returns the forall and the tiled copy (per
    target). Silenceable failure when the op is not a copy or pad on statically shaped
    tensors, or no distribution over the threads exists ("too few threads ...").
    """
    threads = _int(op, "total_num_threads", 0)
    bits = _int(op, "desired_bit_alignment", 0)

    def one(payload: Operation) -> list[Mapped | None]:
        try:
            result = map_copy_to_threads(
                payload, threads, bits, listener=interp.state.tracking_listener()
            )
        except CopyMappingError as err:
            raise silenceable(
                op, err.message, notes=[Note("target op", payload_location(payload))]
            ) from None
        return [result.forall, result.tiled]

    interp.apply_to_each(op, op.operands[0], one)


__all__ = [
    "apply_map_copy_to_threads",
    "apply_map_forall_to_blocks",
    "apply_map_nested_forall_to_threads",
]
