"""GPU transform extension (upstream GPUTransformOps.td): mapping `scf.forall` loops
to GPU blocks and threads, and the gpu pattern-set descriptors.

Mapping attributes (`#gpu.block<x>`, `#gpu.thread<y>`, `#gpu.warp<x>`, ...) live on
the payload foralls (`tile_using_forall ... (mapping = [...])`); these ops read them.

Applied by `schedir.transform.ops.gpu`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, BoolAttr, DenseArrayBase, IntegerAttr, UnitAttr, i1, i64
from xdsl.dialects.transform import TransformOpHandleType
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import dense_values, irdl_transform_op
from schedir.dialects.transform.descriptors import descriptor

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"

ApplyGpuEliminateBarriersOp = descriptor(
    "gpu.eliminate_barriers",
    "Remove gpu.barrier ops that order no conflicting memory accesses.",
)


@irdl_transform_op
class MapForallToBlocksOp(IRDLOperation):
    """Maps the top-level `scf.forall` with `#gpu.block<...>` mapping in the target to
    block ids of a `gpu.launch` (created with `generate_gpu_launch`); `grid_dims` is
    inferred from the trip counts unless given.

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
    grid exceeds the GPU's limits; definite failure for an invalid mapping (missing, mixed,
    duplicate, not `#gpu.block`), a forall that is not normalized, static or bufferized,
    `grid_dims` not of size 3 without `generate_gpu_launch`, or a forall with more
    iterations than `grid_dims`.
    """

    name = "transform.gpu.map_forall_to_blocks"

    target = operand_def(TransformOpHandleType)
    grid_dims = prop_def(
        DenseArrayBase.constr(i64), default_value=DenseArrayBase.from_list(i64, ())
    )
    generate_gpu_launch = opt_prop_def(UnitAttr)
    result = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target (`generate_gpu_launch` $generate_gpu_launch^)? "
        "(`grid_dims` `=` $grid_dims^)? " + _FUNCTIONAL
    )

    def verify_(self) -> None:
        if len(dense_values(self.grid_dims)) not in (0, 3):
            raise VerifyException("transform requires empty or size-3 grid_dims")


@irdl_transform_op
class MapNestedForallToThreadsOp(IRDLOperation):
    """Maps every `scf.forall` with thread/warp/warpgroup mapping nested in the target
    `gpu.launch` to thread ids for `block_dims`, predicating smaller foralls and
    (unless `sync_after_distribute = false`) adding a `gpu.barrier` after each.

    ```mlir
    %launch2 = transform.gpu.map_nested_forall_to_threads %launch block_dims = [32, 8, 1]
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

    name = "transform.gpu.map_nested_forall_to_threads"

    target = operand_def(TransformOpHandleType)
    block_dims = prop_def(
        DenseArrayBase.constr(i64), default_value=DenseArrayBase.from_list(i64, ())
    )
    sync_after_distribute = prop_def(BoolAttr, default_value=IntegerAttr(1, i1))
    warp_size = prop_def(IntegerAttr[I64], default_value=IntegerAttr(32, i64))
    result = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `block_dims` `=` $block_dims "
        "(`sync_after_distribute` `=` $sync_after_distribute^)? "
        "(`warp_size` `=` $warp_size^)? " + _FUNCTIONAL
    )

    def verify_(self) -> None:
        if len(dense_values(self.block_dims)) > 3:
            raise VerifyException("transform requires empty or size-3 block_dims")


OPS: tuple[type[IRDLOperation], ...] = (
    ApplyGpuEliminateBarriersOp,
    MapForallToBlocksOp,
    MapNestedForallToThreadsOp,
)

__all__ = ["OPS", "MapForallToBlocksOp", "MapNestedForallToThreadsOp"]
