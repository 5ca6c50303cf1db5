"""`transform.structured.gpu.map_copy_to_threads` (upstream LinalgTransformOps.td):
distributing a copy over GPU threads.

Applied by `schedir.transform.ops.structured.gpu`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I64,
    IntegerAttr,
)
from xdsl.dialects.transform import (
    TransformOpHandleType,
)
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    prop_def,
    result_def,
)

from schedir.dialects.transform._syntax import (
    irdl_transform_op,
)

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class MapCopyToThreadsOp(IRDLOperation):
    """Distributes a `linalg.copy`/`tensor.pad` over `total_num_threads` threads with
    `desired_bit_alignment`-bit accesses (an `scf.forall` with thread mapping).

    ```mlir
    %forall, %tiled = transform.structured.gpu.map_copy_to_threads %copy
        total_num_threads = 128 desired_bit_alignment = 128
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // linalg.copy ins(%a : tensor<16x64xf32>) outs(%b : tensor<16x64xf32>)
    // -> scf.forall (%i, %j) in (16, 8) shared_outs(%o = %b) {
    //      ... linalg.copy of a 1x8 slice ...
    //    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    ```

    Linear thread ids are used when more than 3 dimensions are needed.

    Return modes: consumes the target; returns the forall and the tiled copy (per target).
    Silenceable failure when the op is not a copy or pad on statically shaped tensors, or no
    distribution over the threads exists ("too few threads ...").
    """

    name = "transform.structured.gpu.map_copy_to_threads"

    target = operand_def(TransformOpHandleType)
    total_num_threads = prop_def(IntegerAttr[I64])
    desired_bit_alignment = prop_def(IntegerAttr[I64])
    forall_op = result_def(TransformOpHandleType)
    tiled_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `total_num_threads` `=` $total_num_threads "
        "`desired_bit_alignment` `=` $desired_bit_alignment " + _FUNCTIONAL
    )


OPS: tuple[type[IRDLOperation], ...] = (MapCopyToThreadsOp,)

__all__ = ["OPS", "MapCopyToThreadsOp"]
