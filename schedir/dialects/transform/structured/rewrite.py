"""Structured (linalg) rewrites that neither tile nor vectorize (upstream
LinalgTransformOps.td): `generalize`, `specialize`, `interchange`, `decompose`,
`decompose_interface`, `convert_to_loops`, `rewrite_in_destination_passing_style` and
`flatten_elementwise`.

Applied by `schedir.transform.ops.structured.rewrite`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    i1,
    i64,
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
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import (
    dense_values,
    irdl_transform_op,
)

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class GeneralizeOp(IRDLOperation):
    """Rewrites named structured ops (`linalg.matmul`, ...) to `linalg.generic`.

    ```mlir
    %g = transform.structured.generalize %op : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns one generic per payload op (ops already
    generic are returned as they are). Silenceable failure on ops that are not structured
    ("transform applied to the wrong op kind") and on ops that cannot be generalized.
    """

    name = "transform.structured.generalize"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class SpecializeOp(IRDLOperation):
    """Rewrites `linalg.generic` ops that match a named op (or, with `emit_category`, a
    category op such as `linalg.elementwise`) into it.

    ```mlir
    %s = transform.structured.specialize %g : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the named ops (ops other than
    `linalg.generic` are returned as they are). Silenceable failure on non-structured ops
    and generics no named op matches; definite failure where upstream would build a category
    op schedir does not define (`linalg.elementwise`, `linalg.contract`).
    """

    name = "transform.structured.specialize"

    target = operand_def(TransformOpHandleType)
    emit_category = prop_def(BoolAttr, default_value=IntegerAttr(0, i1))
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target (`emit_category` `=` $emit_category^)? " + _FUNCTIONAL


@irdl_transform_op
class InterchangeOp(IRDLOperation):
    """Permutes the iterators of `linalg.generic` ops.

    ```mlir
    %g2 = transform.structured.interchange %g iterator_interchange = [1, 0, 2]
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the (in-place) interchanged generics.
    Silenceable failure on ops that are not `linalg.generic` and when the permutation's
    length is not the number of loops; definite failure if the rewrite itself fails.
    """

    name = "transform.structured.interchange"

    target = operand_def(TransformOpHandleType)
    iterator_interchange = prop_def(
        DenseArrayBase.constr(i64), default_value=DenseArrayBase.from_list(i64, ())
    )
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target (`iterator_interchange` `=` $iterator_interchange^)? " + _FUNCTIONAL

    def verify_(self) -> None:
        values = dense_values(self.iterator_interchange)
        if sorted(values) != list(range(len(values))):
            raise VerifyException(
                f"expects iterator_interchange to be a permutation, found {list(values)}"
            )


@irdl_transform_op
class DecomposeOp(IRDLOperation):
    """Decomposes n-D convolutions and poolings into lower-dimensional ones.

    ```mlir
    %d = transform.structured.decompose %conv : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the 1-D ops. Silenceable failure on other
    ops; definite failure when the 1-D op is one schedir does not define.
    """

    name = "transform.structured.decompose"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class DecomposeInterfaceOp(IRDLOperation):
    """Decomposes ops through their `AggregatedOpInterface` (e.g. `linalg.softmax`
    into fill/max/exp/fill/sum/div).

    ```mlir
    %d = transform.structured.decompose_interface %sm
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the ops defining the new results (the final
    division for softmax). Silenceable failure on ops without a decomposition.
    """

    name = "transform.structured.decompose_interface"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class FlattenElementwiseLinalgOp(IRDLOperation):
    """Flattens elementwise structured ops to one loop: operands collapsed to one
    dimension, the op rebuilt on them, results expanded back.

    ```mlir
    %f = transform.structured.flatten_elementwise %op
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the flattened ops (ops of at most one loop
    as they are). Silenceable failure on ops that are not structured ("transform applied
    to the wrong op kind"), on ops that are not elementwise ("only elementwise flattening
    is supported") and when an operand cannot be collapsed ("attempted to flatten, but
    failed"), both at the payload op.
    """

    name = "transform.structured.flatten_elementwise"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class ConvertToLoopsOp(IRDLOperation):
    """Lowers TilingInterface ops to `scf.for` loops of scalar code.

    ```mlir
    %loops = transform.structured.convert_to_loops %op
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the generated loops. Definite failure if
    an op cannot be lowered.
    """

    name = "transform.structured.convert_to_loops"

    target = operand_def(TransformOpHandleType)
    result = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class RewriteInDestinationPassingStyleOp(IRDLOperation):
    """Rewrites tensor ops without destinations (`tensor.pad`, `tensor.generate`,
    `tensor.from_elements`) into destination-passing style.

    ```mlir
    %r = transform.structured.rewrite_in_destination_passing_style %pad
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the rewritten ops. Definite failure if
    an op is not supported.
    """

    name = "transform.structured.rewrite_in_destination_passing_style"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


OPS: tuple[type[IRDLOperation], ...] = (
    ConvertToLoopsOp,
    DecomposeInterfaceOp,
    DecomposeOp,
    FlattenElementwiseLinalgOp,
    GeneralizeOp,
    InterchangeOp,
    RewriteInDestinationPassingStyleOp,
    SpecializeOp,
)

__all__ = [
    "OPS",
    "ConvertToLoopsOp",
    "DecomposeInterfaceOp",
    "DecomposeOp",
    "FlattenElementwiseLinalgOp",
    "GeneralizeOp",
    "InterchangeOp",
    "RewriteInDestinationPassingStyleOp",
    "SpecializeOp",
]
