"""Structured (linalg) ops that stage data in memory (upstream LinalgTransformOps.td):
`promote` (copy subview operands into new buffers), `bufferize_to_allocation` and
`insert_slice_to_copy` (an explicit copy before bufferization).

Applied by `schedir.transform.ops.structured.memory`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    BoolAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.dialects.transform import (
    AnyOpType,
    AnyValueType,
    TransformHandleType,
    TransformOpHandleType,
    TransformValueHandleType,
)
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import (
    irdl_transform_op,
)
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class PromoteOp(IRDLOperation):
    """Copies the listed operands of structured ops on memrefs into new (optionally
    workgroup/private) buffers, e.g. to stage tiles in shared memory.

    ```mlir
    %p = transform.structured.promote %op
        <operands_to_promote = [0, 1], memory_space = #gpu.address_space<workgroup>>
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the promoted ops (the same ops, with new
    operands). Silenceable failure "transform applied to the wrong op kind" on ops that are
    not structured; definite failure "failed to apply" (note: "attempted to apply to this
    op") when the op is not on buffers, has no subview to promote, or the mapping or
    allocation is unsupported.
    """

    name = "transform.structured.promote"

    target = operand_def(TransformOpHandleType)
    operands_to_promote = prop_def(ArrayAttr[IntegerAttr[I64]], default_value=ArrayAttr([]))
    use_full_tile_buffers = prop_def(ArrayAttr[BoolAttr], default_value=ArrayAttr([]))
    use_full_tiles_by_default = opt_prop_def(UnitAttr)
    use_original_subview_size = opt_prop_def(UnitAttr)
    use_alloca = opt_prop_def(UnitAttr)
    memory_space = opt_prop_def(AnyAttr())
    mapping = opt_prop_def(ArrayAttr)
    alignment = opt_prop_def(IntegerAttr[I64])
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class BufferizeToAllocationOp(IRDLOperation):
    """Materializes a tensor value (or the destination of an op) in a new allocation,
    optionally in another memory space (e.g. shared-memory staging).

    ```mlir
    %buffer, %new = transform.structured.bufferize_to_allocation %v
        <memory_space = 3 : i64> : !transform.any_op
    ```

    Return modes: consumes the target, unless `bufferize_destination_only` (then the op
    stays and the handle is only read); returns a value handle to the new buffers and a
    handle to every op the rewrite created. Definite failure for a value handle (schedir
    bufferizes ops only); silenceable failure "failed to bufferize operation" (note: "target
    payload op") where upstream cannot bufferize the op.
    """

    name = "transform.structured.bufferize_to_allocation"

    target = operand_def(TransformHandleType)
    memory_space = opt_prop_def(AnyAttr())
    memcpy_op = prop_def(
        StringAttr, default_value=StringAttr("bufferization.materialize_in_destination")
    )
    alloc_op = prop_def(StringAttr, default_value=StringAttr("memref.alloc"))
    bufferize_destination_only = opt_prop_def(UnitAttr)
    emit_dealloc = opt_prop_def(UnitAttr)
    allocated_buffer = result_def(TransformValueHandleType)
    new_ops = result_def(TransformOpHandleType)

    consumed_operands = ("target",)

    def consumed_values(self) -> tuple[SSAValue, ...]:
        # Upstream's getEffects: with bufferize_destination_only the op stays in place,
        # so the target is only read.
        if self.bufferize_destination_only is not None:
            return ()
        return (self.target,)

    @classmethod
    def parse(cls, parser: Parser) -> BufferizeToAllocationOp:
        target = parser.parse_unresolved_operand()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        target_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(target, target_type)],
            result_types=[AnyValueType(), AnyOpType()],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        print_prop_and_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.target.type)

    def verify_(self) -> None:
        if self.memcpy_op.data not in (
            "bufferization.materialize_in_destination",
            "memref.copy",
            "linalg.copy",
        ):
            raise VerifyException(f"unsupported memcpy op: {self.memcpy_op.data}")
        if self.alloc_op.data not in ("memref.alloc", "memref.alloca"):
            raise VerifyException(f"unsupported alloc op: {self.alloc_op.data}")


@irdl_transform_op
class InsertSliceToCopyOp(IRDLOperation):
    """Rewrites `tensor.insert_slice` into a `linalg.copy` into the slice (an explicit
    copy before bufferization).

    ```mlir
    %c = transform.structured.insert_slice_to_copy %ins
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the copies (an existing `linalg.copy` source
    is returned as is). Silenceable failure "only InsertSliceOp and ParallelInsertSliceOp
    ops are supported" (note: "target op") on other ops.
    """

    name = "transform.structured.insert_slice_to_copy"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


OPS: tuple[type[IRDLOperation], ...] = (
    BufferizeToAllocationOp,
    InsertSliceToCopyOp,
    PromoteOp,
)

__all__ = ["OPS", "BufferizeToAllocationOp", "InsertSliceToCopyOp", "PromoteOp"]
