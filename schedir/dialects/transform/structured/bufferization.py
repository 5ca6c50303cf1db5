"""`transform.structured.eliminate_empty_tensors` (upstream LinalgTransformOps.td): the
linalg-anchored `tensor.empty` elimination before bufferization.

Applied by `schedir.transform.ops.structured.bufferization`.
"""

from __future__ import annotations

from xdsl.dialects.transform import (
    TransformOpHandleType,
)
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
)

from schedir.dialects.transform._syntax import (
    irdl_transform_op,
)

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class StructuredEliminateEmptyTensorsOp(IRDLOperation):
    """Linalg-aware `tensor.empty` elimination in the target (uses of an empty tensor
    as a DPS init become slices of the final destination).

    ```mlir
    transform.structured.eliminate_empty_tensors %f : !transform.any_op
    ```

    Return modes: only reads the target (the payload is modified). Silenceable failure
    "failed to analyze op", at the target, if One-Shot analysis fails on it.
    """

    name = "transform.structured.eliminate_empty_tensors"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` type($target)"


OPS: tuple[type[IRDLOperation], ...] = (StructuredEliminateEmptyTensorsOp,)

__all__ = ["OPS", "StructuredEliminateEmptyTensorsOp"]
