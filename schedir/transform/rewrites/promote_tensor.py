"""Promote a tensor value to a fresh allocation (upstream's `PromoteTensorOp::apply`,
LinalgTransformOps.cpp).

    %v = ... : tensor<?x42xf32>
    use(%v)
  becomes
    %v = ... : tensor<?x42xf32>
    %c0 = arith.constant 0 : index
    %d0 = tensor.dim %v, %c0 : tensor<?x42xf32>
    %a = bufferization.alloc_tensor(%d0) {memory_space = 1 : i64} : tensor<?x42xf32>
    %p = bufferization.materialize_in_destination %v in %a : ... -> tensor<?x42xf32>
    use(%p)

The materialization (a copy once bufferized) is only built when a use may read the value:
a use by a structured op reads it unless the op's body ignores the matching block
argument (an init only written), any other use reads it.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, TensorType
from xdsl.ir import Attribute, Block, BlockArgument, OpResult, SSAValue, Use
from xdsl.rewriter import InsertPoint

from schedir.dialects.bufferization import AllocTensorOp, MaterializeInDestinationOp
from schedir.dialects.linalg.interface import is_structured
from schedir.transform.rewrites.rewriter import CanonRewriter


class PromoteTensorFailure(Exception):
    """The value cannot be promoted (it is not a ranked tensor)."""


def _use_may_read(use: Use) -> bool:
    """Upstream's `mayBeRead(OpOperand&)`: a structured op's operand is read when its
    block argument has uses; any other op is assumed to read."""
    owner = use.operation
    if not is_structured(owner) or not owner.regions or not owner.regions[0].blocks:
        return True
    args = owner.regions[0].blocks[0].args
    if use.index >= len(args):
        return True
    return bool(args[use.index].uses)


def value_text(value: SSAValue) -> str:
    """A value as upstream's `Value::print` streams it in a diagnostic: a block argument
    by type and index, a result by its defining op."""
    if isinstance(value, BlockArgument):
        return f"<block argument> of type '{value.type}' at index: {value.index}"
    assert isinstance(value, OpResult)
    return str(value.op).strip()


def may_be_read(value: SSAValue) -> bool:
    """Upstream's `mayBeRead(Value)`: whether any use of the tensor may read it."""
    return any(_use_may_read(use) for use in value.uses)


def promote_tensor(value: SSAValue, memory_space: Attribute | None) -> SSAValue:
    """Allocate a copy of tensor `value` (in `memory_space`) and redirect its other uses
    to it; returns the promoted value."""
    type_ = value.type
    if not isinstance(type_, TensorType):
        raise PromoteTensorFailure(f"non-tensor type: {value_text(value)}")
    if isinstance(value, OpResult):
        point = InsertPoint.after(value.op)
        loc = value.op
    else:
        assert isinstance(value, BlockArgument)
        block: Block = value.block
        point = InsertPoint.at_start(block)
        loc = block.parent_op()
    rewriter = CanonRewriter(point)
    # Decided before building ops that use the value.
    needs_materialization = may_be_read(value)
    dims: list[SSAValue] = []
    for position, size in enumerate(type_.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        index = rewriter.create(arith.ConstantOp(IntegerAttr(position, IndexType())), loc)
        dim = rewriter.create(xtensor.DimOp(value, index.results[0]), loc)
        dims.append(dim.results[0])
    allocation = AllocTensorOp(type_, dims)
    if memory_space is not None:
        allocation.attributes["memory_space"] = memory_space
    rewriter.create(allocation, loc)
    promoted = allocation.results[0]
    if needs_materialization:
        copy = MaterializeInDestinationOp.create(operands=[value, promoted], result_types=[type_])
        rewriter.create(copy, loc)
        promoted = copy.results[0]
    built = {*(d.owner for d in dims), allocation, promoted.owner}
    hint = promoted.name_hint
    value.replace_uses_with_if(promoted, lambda use: use.operation not in built)
    promoted.name_hint = (
        hint  # replacing uses passes the old name on; keep the new value unnamed as upstream
    )
    return promoted


__all__ = ["PromoteTensorFailure", "may_be_read", "promote_tensor", "value_text"]
