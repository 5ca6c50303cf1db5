"""MemRef transform extension (upstream MemRefTransformOps.td): `memref.multibuffer`,
`memref.alloca_to_global`, `memref.erase_dead_alloc_and_stores`,
`memref.make_loop_independent` and the memref pattern-set descriptors.

Applied by `schedir.transform.ops.memref`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, UnitAttr
from xdsl.dialects.transform import OperationType, TransformOpHandleType
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform.descriptors import Option, descriptor

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"

ApplyMemrefFoldMemrefAliasOpsOp = descriptor(
    "memref.fold_memref_alias_ops",
    "Fold subview/expand/collapse_shape into loads and stores.",
)

ApplyMemrefExpandStridedMetadataOp = descriptor(
    "memref.expand_strided_metadata",
    "Expand subview and friends into extract_strided_metadata + reinterpret_cast.",
)

ApplyMemrefAllocToAllocaOp = descriptor(
    "memref.alloc_to_alloca",
    "Turn small alloc/dealloc pairs into alloca.",
    Option("size_limit", "paren"),
)

ApplyMemrefExtractAddressComputationsOp = descriptor(
    "memref.extract_address_computations",
    "Move address computations out of loads/stores.",
)

ApplyMemrefResolveRankedShapedTypeResultDimsOp = descriptor(
    "memref.resolve_ranked_shaped_type_result_dims",
    "Resolve memref.dim of op results.",
)


def _require(type_: object, op_name: str) -> None:
    if type_ != OperationType(op_name):
        raise VerifyException(
            f"operand #0 must be Transform IR handle to {op_name} operations, but got '{type_}'"
        )


@irdl_transform_op
class MemRefMultiBufferOp(IRDLOperation):
    """Multi-buffers a `memref.alloc` used in a loop: `factor` copies, indexed by the
    iteration (for software pipelining of shared-memory copies).

    ```mlir
    %mb = transform.memref.multibuffer %alloc <factor = 2>
        : (!transform.op<"memref.alloc">) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the new allocations (an allocation not used
    in a loop is skipped and not returned). Silenceable failure "op failed to multibuffer"
    at an allocation that cannot be multi-buffered.
    """

    name = "transform.memref.multibuffer"

    target = operand_def(TransformOpHandleType)
    factor = prop_def(IntegerAttr[I64])
    skip_analysis = opt_prop_def(UnitAttr)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL

    def verify_(self) -> None:
        _require(self.target.type, "memref.alloc")
        if self.factor.value.data <= 0:
            raise VerifyException(
                "attribute 'factor' failed to satisfy constraint: 64-bit signless integer "
                "attribute whose value is positive"
            )


@irdl_transform_op
class MemRefAllocaToGlobalOp(IRDLOperation):
    """Replaces a `memref.alloca` by a `memref.get_global` of a new private
    `memref.global`.

    ```mlir
    %get, %global = transform.memref.alloca_to_global %alloca
        : (!transform.op<"memref.alloca">) -> (!transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the get_global and global ops. Definite
    failure if there is no enclosing symbol table.
    """

    name = "transform.memref.alloca_to_global"

    alloca = operand_def(TransformOpHandleType)
    getGlobal = result_def(TransformOpHandleType)
    # The global itself; `global` is a Python keyword.
    global_ = result_def(TransformOpHandleType)

    consumed_operands = ("alloca",)
    assembly_format = "$alloca " + _FUNCTIONAL

    def verify_(self) -> None:
        _require(self.alloca.type, "memref.alloca")


@irdl_transform_op
class MemRefEraseDeadAllocAndStoresOp(IRDLOperation):
    """Erases allocations only written to (and those writes) in the target.

    ```mlir
    transform.memref.erase_dead_alloc_and_stores %f : (!transform.any_op) -> ()
    ```

    Return modes: only reads the target; never fails.
    """

    name = "transform.memref.erase_dead_alloc_and_stores"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` `(` type($target) `)` `->` `(` `)`"


@irdl_transform_op
class MemRefMakeLoopIndependentOp(IRDLOperation):
    """Rewrites `memref.alloca` ops inside `num_loops` enclosing loops to sizes that do
    not depend on the induction variables.

    ```mlir
    %a2 = transform.memref.make_loop_independent %a num_loops = 1
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the replacement ops. Silenceable failure
    if a bound cannot be computed.
    """

    name = "transform.memref.make_loop_independent"

    target = operand_def(TransformOpHandleType)
    num_loops = prop_def(IntegerAttr[I64])
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target `num_loops` `=` $num_loops " + _FUNCTIONAL


OPS: tuple[type[IRDLOperation], ...] = (
    ApplyMemrefFoldMemrefAliasOpsOp,
    ApplyMemrefExpandStridedMetadataOp,
    ApplyMemrefAllocToAllocaOp,
    ApplyMemrefExtractAddressComputationsOp,
    ApplyMemrefResolveRankedShapedTypeResultDimsOp,
    MemRefAllocaToGlobalOp,
    MemRefEraseDeadAllocAndStoresOp,
    MemRefMakeLoopIndependentOp,
    MemRefMultiBufferOp,
)

__all__ = [
    "OPS",
    "MemRefAllocaToGlobalOp",
    "MemRefEraseDeadAllocAndStoresOp",
    "MemRefMakeLoopIndependentOp",
    "MemRefMultiBufferOp",
]
