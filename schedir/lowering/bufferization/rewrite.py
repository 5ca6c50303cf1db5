"""One-Shot bufferization, the rewrite: tensor ops become memref ops, following the analysis.

Ops are rewritten in program order. A rewritten tensor value is replaced by a placeholder
`bufferization.to_tensor %buffer` (as upstream does), so the IR stays valid and the next
consumer finds the buffer of its operand on the placeholder; placeholders nobody needs at
the end are erased, so only unknown ops (with `allow-unknown-ops`) keep them as the
boundary. Where the analysis decided an operand out of place, the op gets a private copy
(`memref.alloc`, plus a copy when the op needs the old contents).

The rules live by family: this module has the view and element ops and the dispatch,
`tensor_ops` the ops making new tensors, `control_flow` loops, branches and calls; `base`
the shared state and building blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects import bufferization, memref
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator

from schedir.diagnostics import UnsupportedError
from schedir.dialects.bufferization import ToTensorOp
from schedir.dialects.linalg.interface import dps_inits, is_structured
from schedir.dialects.memref import (
    CollapseShapeOp,
    ExpandShapeOp,
    LoadOp,
    StoreOp,
)
from schedir.dialects.syntax import op_location
from schedir.lowering.bufferization.base import BufferizeState, RewriteOptions, RewritePlan
from schedir.lowering.bufferization.control_flow import ControlFlowRules
from schedir.lowering.bufferization.model import is_tensor, kind
from schedir.lowering.bufferization.tensor_ops import TensorRules
from schedir.lowering.bufferization.types import (
    collapse_type,
    expand_type,
    memref_for_tensor,
    with_shape,
)


class FunctionRewriter(TensorRules, ControlFlowRules):
    """Rewrites the tensor ops of one function body according to a `RewritePlan`."""

    def rewrite_block(self, block: Block) -> None:
        """Rewrite every op of `block` but its terminator (its parent handles that)."""
        for op in list(block.ops):
            if op is block.last_op and op.has_trait(IsTerminator):
                break
            self.rewrite_op(op)

    def rewrite_op(self, op: Operation) -> None:
        if op in self.placeholders or op in self._boundary:
            return  # made by this rewrite: already buffer-level
        handler = _HANDLERS.get(kind(op))
        if handler is not None:
            handler(self, op)
            return
        op_kind = kind(op)
        if op_kind == "unknown":
            self._unknown(op)
        elif op_kind == "none" and not is_structured(op):
            for region in op.regions:
                for block in region.blocks:
                    for nested in list(block.ops):
                        self.rewrite_op(nested)

    def _structured(self, op: Operation) -> None:
        inits = list(dps_inits(op))
        operands: list[SSAValue] = []
        init_buffers: list[SSAValue] = []
        for index, operand in enumerate(op.operands):
            if not is_tensor(operand):
                operands.append(operand)
            elif index >= len(op.operands) - len(inits):
                buffer = self.operand_buffer(op, index)
                operands.append(buffer)
                init_buffers.append(buffer)
            else:
                operands.append(self.buffer_of(operand))
        regions = [op.detach_region(r) for r in list(op.regions)]
        new_op = type(op).create(
            operands=operands,
            result_types=[r.type for r in op.results if not is_tensor(r)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=regions,
        )
        self.insert(new_op, op)
        # The payload may read tensors defined outside (`tensor.extract` of a function
        # argument, analyzed as reads of the op): they become loads of those buffers.
        for region in new_op.regions:
            for block in region.blocks:
                self.rewrite_block(block)
        tensor_results = [r for r in op.results if is_tensor(r)]
        self.finish(
            op,
            [init_buffers[tensor_results.index(r)] if is_tensor(r) else None for r in op.results],
        )

    def _empty(self, op: Operation) -> None:
        assert isinstance(op, xtensor.EmptyOp | bufferization.AllocTensorOp)
        result_type = cast(TensorType[Attribute], op.results[0].type)
        buffer = self.alloc(memref_for_tensor(result_type), list(op.dynamic_sizes), op)
        if isinstance(op, bufferization.AllocTensorOp) and op.copy is not None:
            self.copy(self.buffer_of(op.copy), buffer, op)
        self.finish(op, [buffer])

    def _extract_slice(self, op: Operation) -> None:
        assert isinstance(op, xtensor.ExtractSliceOp)
        source = self.buffer_of(op.source)
        view = self.subview(source, op, cast(TensorType[Attribute], op.result.type), op)
        if (op, 0) not in self.plan.in_place:
            view = self.private_copy(view, self.plan.copy_contents.get((op, 0), True), op)
        self.finish(op, [view])

    def _insert_slice(self, op: Operation) -> None:
        assert isinstance(op, xtensor.InsertSliceOp)
        dest = self.operand_buffer(op, 1)
        self._copy_into_slice(self.buffer_of(op.source), dest, op, op)
        self.finish(op, [dest])

    def _extract(self, op: Operation) -> None:
        assert isinstance(op, xtensor.ExtractOp)
        load = LoadOp.get(self.buffer_of(op.tensor), list(op.indices))
        self.insert(load, op)
        op.result.replace_all_uses_with(load.res)
        Rewriter.erase_op(op)

    def _insert(self, op: Operation) -> None:
        assert isinstance(op, xtensor.InsertOp)
        dest = self.operand_buffer(op, 1)
        self.insert(StoreOp.get(op.scalar, dest, list(op.indices)), op)
        self.finish(op, [dest])

    def _dim(self, op: Operation) -> None:
        assert isinstance(op, xtensor.DimOp)
        dim = memref.DimOp(self.buffer_of(op.source), op.index)
        self.insert(dim, op)
        op.result.replace_all_uses_with(dim.result)
        Rewriter.erase_op(op)

    def _cast(self, op: Operation) -> None:
        assert isinstance(op, xtensor.CastOp)
        source = self.operand_buffer(op, 0)
        result_type = op.dest.type
        if not isinstance(result_type, TensorType):
            raise UnsupportedError(
                "tensor.cast to an unranked tensor is not supported", op_location(op)
            )
        target = with_shape(cast(MemRefType[Attribute], source.type), result_type.get_shape())
        self.finish(op, [self.cast_to(source, target, op)])

    def _reshape(self, op: Operation) -> None:
        source = self.operand_buffer(op, 0)
        # The reshape ops' verifiers make `reassociation` an array of index arrays.
        reassociation = cast(ArrayAttr[ArrayAttr[IntegerAttr]], op.properties["reassociation"])
        groups = [[int(i.value.data) for i in g.data] for g in reassociation.data]
        result_type = cast(TensorType[Attribute], op.results[0].type)
        source_type = cast(MemRefType[Attribute], source.type)
        if isinstance(op, xtensor.CollapseShapeOp):
            target = collapse_type(source_type, groups)
            if target is None:
                # The view cannot express this collapse of a strided buffer: copy it into a
                # contiguous buffer first (upstream does the same).
                source = self.private_copy(source, True, op)
                target = collapse_type(cast(MemRefType[Attribute], source.type), groups)
                assert target is not None
            target = with_shape(target, result_type.get_shape())
            new_op = CollapseShapeOp.build(
                operands=[source],
                result_types=[target],
                properties={"reassociation": op.properties["reassociation"]},
            )
        else:
            assert isinstance(op, xtensor.ExpandShapeOp)
            target = expand_type(source_type, groups, result_type.get_shape())
            new_op = ExpandShapeOp.build(
                operands=[source, list(op.dynamic_output_shape)],
                result_types=[target],
                properties={
                    "reassociation": op.properties["reassociation"],
                    "static_output_shape": op.static_output_shape,
                },
            )
        self.insert(new_op, op)
        self.finish(op, [new_op.results[0]])

    def _unknown(self, op: Operation) -> None:
        if not self.options.allow_unknown_ops:
            raise UnsupportedError(
                f"'{op.name}' on tensors is not supported by one-shot-bufferize "
                "(allow-unknown-ops=true keeps it behind to_tensor/to_buffer)",
                op_location(op),
            )
        for index, operand in enumerate(op.operands):
            if is_tensor(operand) and (op, index) not in self.plan.in_place:
                fresh = self.private_copy(self.buffer_of(operand), True, op)
                placeholder = ToTensorOp(fresh)
                self.insert(placeholder, op)
                op.operands[index] = placeholder.tensor
        for region in op.regions:
            for block in region.blocks:
                for nested in list(block.ops):
                    self.rewrite_op(nested)

    def _transfer_read(self, op: Operation) -> None:
        """`vector.transfer_read` of a tensor: the same read of its buffer."""
        operands = [self.buffer_of(op.operands[0]), *op.operands[1:]]
        new_op = type(op).create(
            operands=operands,
            result_types=list(op.result_types),
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        self.insert(new_op, op)
        op.results[0].replace_all_uses_with(new_op.results[0])
        Rewriter.erase_op(op)

    def _transfer_write(self, op: Operation) -> None:
        """`vector.transfer_write` into a tensor: a write into its (possibly private) buffer."""
        dest = self.operand_buffer(op, 1)
        operands = [op.operands[0], dest, *op.operands[2:]]
        new_op = type(op).create(
            operands=operands,
            result_types=[],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        self.insert(new_op, op)
        self.finish(op, [dest])

    def _materialize(self, op: Operation) -> None:
        """`bufferization.materialize_in_destination`: a copy of the source's buffer into
        the destination (a buffer, or a tensor's buffer that becomes the result)."""
        source = self.buffer_of(op.operands[0])
        if is_tensor(op.operands[1]):
            dest = self.operand_buffer(op, 1)
            self.copy(source, dest, op)
            self.finish(op, [dest])
            return
        self.copy(source, op.operands[1], op)
        Rewriter.erase_op(op)

    def _to_tensor(self, op: Operation) -> None:
        assert isinstance(op, bufferization.ToTensorOp)
        buffer = op.memref
        if isinstance(buffer.owner, memref.AllocOp) and not any(
            isinstance(use.operation, memref.DeallocOp) for use in buffer.uses
        ):
            # An allocation made before bufferization (transform.structured.
            # bufferize_to_allocation) that nobody frees: freed after its last use like
            # this pass's own, as upstream's ownership-based deallocation would.
            self.state.owned[buffer] = None
        self.finish(op, [buffer])

    def _to_buffer(self, op: Operation) -> None:
        assert isinstance(op, bufferization.ToBufferOp)
        buffer = self.operand_buffer(op, 0)
        target = cast(MemRefType[Attribute], op.memref.type)
        op.memref.replace_all_uses_with(self.cast_to(buffer, target, op))
        Rewriter.erase_op(op)


_HANDLERS: dict[str, Callable[[FunctionRewriter, Operation], None]] = {
    "transfer_read": FunctionRewriter._transfer_read,
    "transfer_write": FunctionRewriter._transfer_write,
    "materialize": FunctionRewriter._materialize,
    "structured": FunctionRewriter._structured,
    "empty": FunctionRewriter._empty,
    "alloc_tensor": FunctionRewriter._empty,
    "extract_slice": FunctionRewriter._extract_slice,
    "insert_slice": FunctionRewriter._insert_slice,
    "extract": FunctionRewriter._extract,
    "insert": FunctionRewriter._insert,
    "dim": FunctionRewriter._dim,
    "cast": FunctionRewriter._cast,
    "reshape": FunctionRewriter._reshape,
    "new": FunctionRewriter._new,
    "constant": FunctionRewriter._constant,
    "for": FunctionRewriter._for,
    "while": FunctionRewriter._while,
    "forall": FunctionRewriter._forall,
    "if": FunctionRewriter._if,
    "call": FunctionRewriter._call,
    "to_tensor": FunctionRewriter._to_tensor,
    "to_buffer": FunctionRewriter._to_buffer,
}

__all__ = ["BufferizeState", "FunctionRewriter", "RewriteOptions", "RewritePlan"]
