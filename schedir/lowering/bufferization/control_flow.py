"""One-Shot bufferization rules of control flow: `scf.for`, `scf.forall`, `scf.if`, `func.call`.

Loops carry no buffers: an `scf.for` iteration argument and an `scf.forall` shared output
*are* the buffer of their init (or of its copy), which the body updates in place; a yielded
buffer that is not that buffer is copied into it at the end of the iteration, so no
allocation escapes a loop. `scf.if` results are either a buffer both branches yield, a
merge of outside buffers, or (when a branch yields a buffer it allocated) a buffer each
branch allocates and hands over: an *owned* result, freed by its user like an allocation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.dialects.scf import ForallOp, InParallelOp
from schedir.dialects.tensor import ParallelInsertSliceOp
from schedir.lowering.bufferization.base import RewriterBase, defined_in, strip_casts
from schedir.lowering.bufferization.model import is_tensor
from schedir.lowering.bufferization.types import join_types, memref_for_tensor


class ControlFlowRules(RewriterBase):
    """Rewrite rules of loops, branches and calls."""

    def _loop_buffers(self, op: Operation, first: int, count: int) -> list[SSAValue]:
        buffers: list[SSAValue] = []
        for index in range(first, first + count):
            if is_tensor(op.operands[index]):
                buffers.append(self.operand_buffer(op, index))
        return buffers

    def _bind_args(
        self, block: Block, args: Sequence[SSAValue], buffers: Sequence[SSAValue]
    ) -> None:
        """Make tensor block arguments `args` stand for `buffers`, then drop them."""
        for arg, buffer in zip(args, buffers, strict=True):
            self.replace_tensor(arg, buffer, InsertPoint.at_start(block))
        for arg in args:
            block.erase_arg(cast(BlockArgument, arg))  # `args` are `block`'s arguments

    def _for(self, op: Operation) -> None:
        assert isinstance(op, scf.ForOp)
        tensor_positions = [k for k, v in enumerate(op.iter_args) if is_tensor(v)]
        buffers = self._loop_buffers(op, 3, len(op.iter_args))
        block = op.body.block
        self._bind_args(block, [block.args[1 + k] for k in tensor_positions], buffers)
        self.rewrite_block(block)
        terminator = block.last_op
        assert isinstance(terminator, scf.YieldOp)
        self._copy_yields(terminator, tensor_positions, buffers)
        kept = [k for k in range(len(op.iter_args)) if k not in tensor_positions]
        new_yield = scf.YieldOp(*[terminator.operands[k] for k in kept])
        self.insert(new_yield, terminator)
        Rewriter.erase_op(terminator)
        body = op.detach_region(op.body)
        new_for = scf.ForOp(op.lb, op.ub, op.step, [op.iter_args[k] for k in kept], body)
        self.insert(new_for, op)
        for position, k in enumerate(kept):
            op.results[k].replace_all_uses_with(new_for.results[position])
        self.finish(
            op,
            [
                buffers[tensor_positions.index(k)] if k in tensor_positions else None
                for k in range(len(op.results))
            ],
        )

    def _while(self, op: Operation) -> None:
        """An `scf.while` whose tensors keep their positions (`while_carries_tensors_in_place`):
        position k is carried by the buffer of init k in both regions; what the condition
        forwards and what the after region yields is copied into it when it is another
        buffer, as an `scf.for` yield."""
        assert isinstance(op, scf.WhileOp)
        positions = [k for k, v in enumerate(op.arguments) if is_tensor(v)]
        buffers = self._loop_buffers(op, 0, len(op.arguments))
        kept = [k for k in range(len(op.arguments)) if k not in positions]
        before, after = op.before_region.block, op.after_region.block
        self._bind_args(before, [before.args[k] for k in positions], buffers)
        self.rewrite_block(before)
        condition = before.last_op
        assert isinstance(condition, scf.ConditionOp)
        self._copy_yields(condition, [1 + k for k in positions], buffers)
        new_condition = scf.ConditionOp(condition.condition, *[condition.args[k] for k in kept])
        self.insert(new_condition, condition)
        Rewriter.erase_op(condition)
        self._bind_args(after, [after.args[k] for k in positions], buffers)
        self.rewrite_block(after)
        terminator = after.last_op
        assert isinstance(terminator, scf.YieldOp)
        self._copy_yields(terminator, positions, buffers)
        new_yield = scf.YieldOp(*[terminator.operands[k] for k in kept])
        self.insert(new_yield, terminator)
        Rewriter.erase_op(terminator)
        regions = [op.detach_region(r) for r in list(op.regions)]  # before, after
        new_while = scf.WhileOp(
            [op.arguments[k] for k in kept], [op.results[k].type for k in kept], *regions
        )
        self.insert(new_while, op)
        for position, k in enumerate(kept):
            op.results[k].replace_all_uses_with(new_while.results[position])
        self.finish(
            op,
            [
                buffers[positions.index(k)] if k in positions else None
                for k in range(len(op.results))
            ],
        )

    def _copy_yields(
        self, terminator: Operation, positions: Sequence[int], buffers: Sequence[SSAValue]
    ) -> None:
        """Make each loop buffer hold its yielded value at the end of an iteration."""
        sources: list[SSAValue] = []
        for position, buffer in zip(positions, buffers, strict=True):
            source = self.buffer_of(terminator.operands[position])
            if strip_casts(source) is strip_casts(buffer):
                sources.append(buffer)
                continue
            if (terminator, position) in self.plan.yield_via_temp:
                # The yielded buffer may overlap a loop buffer another copy writes: stage it.
                source = self.private_copy(source, True, terminator)
            sources.append(source)
        for source, buffer in zip(sources, buffers, strict=True):
            if source is not buffer:
                self.copy(source, buffer, terminator)

    def _forall(self, op: Operation) -> None:
        assert isinstance(op, ForallOp)
        first = len(op.operands) - len(op.outputs)
        buffers = self._loop_buffers(op, first, len(op.outputs))
        block = op.body.block
        shared = list(op.region_iter_args)
        for arg, buffer in zip(shared, buffers, strict=True):
            self.replace_tensor(arg, buffer, InsertPoint.at_start(block))
        self.rewrite_block(block)
        terminator = block.last_op
        assert isinstance(terminator, InParallelOp)
        for insert in list(terminator.region.block.ops):
            assert isinstance(insert, ParallelInsertSliceOp)
            dest = self.buffer_of(insert.dest)
            self._copy_into_slice(self.buffer_of(insert.source), dest, insert, terminator)
            Rewriter.erase_op(insert)
        for arg in shared:
            block.erase_arg(cast(BlockArgument, arg))  # the forall's shared outputs
        body = op.detach_region(op.body)
        new_forall = ForallOp(op.lower_bounds, op.upper_bounds, op.steps, (), op.mapping, body)
        new_forall.attributes.update(op.attributes)
        self.insert(new_forall, op)
        self.finish(op, list(buffers))

    def _if(self, op: Operation) -> None:
        assert isinstance(op, scf.IfOp)
        blocks = [region.block for region in op.regions if region.blocks]
        for block in blocks:
            self.rewrite_block(block)
        yields = [cast(scf.YieldOp, block.last_op) for block in blocks]
        result_types: list[Attribute] = []
        yielded_per_branch: list[list[SSAValue]] = [[] for _ in blocks]
        replacements: list[SSAValue | None] = []
        owning: list[bool] = []
        for k, result in enumerate(op.results):
            values = [y.operands[k] for y in yields]
            if not is_tensor(result):
                result_types.append(result.type)
                for branch, value in enumerate(values):
                    yielded_per_branch[branch].append(value)
                replacements.append(None)
                owning.append(False)
                continue
            buffers = [self.buffer_of(v) for v in values]
            if all(b is buffers[0] for b in buffers):
                replacements.append(buffers[0])  # the same buffer either way: no result needed
                continue
            local = [defined_in(b, block) for b, block in zip(buffers, blocks, strict=True)]
            if any(local):
                buffers = [
                    self._hand_over(b, y, yielded_per_branch[i])
                    for i, (b, y) in enumerate(zip(buffers, yields, strict=True))
                ]
            joined = join_types([cast(MemRefType[Attribute], b.type) for b in buffers])
            if joined is None:
                joined = memref_for_tensor(cast(TensorType[Attribute], result.type))
            for branch, (b, y) in enumerate(zip(buffers, yields, strict=True)):
                yielded_per_branch[branch].append(self.cast_to(b, joined, y))
            result_types.append(joined)
            replacements.append(None)
            owning.append(any(local))
        for y, values in zip(yields, yielded_per_branch, strict=True):
            self.insert(scf.YieldOp(*values), y)
            Rewriter.erase_op(y)
        regions = [op.detach_region(r) for r in list(op.regions)]
        new_if = scf.IfOp(
            op.cond, result_types, regions[0], regions[1] if len(regions) > 1 else None
        )
        self.insert(new_if, op)
        buffers_out: list[SSAValue | None] = []
        position = 0
        for k, result in enumerate(op.results):
            replacement = replacements[k] if k < len(replacements) else None
            if is_tensor(result) and replacement is not None:
                buffers_out.append(replacement)
                continue
            new_result = new_if.results[position]
            if is_tensor(result):
                buffers_out.append(new_result)
                if owning[position]:
                    self.state.owned[new_result] = None
            else:
                result.replace_all_uses_with(new_result)
                buffers_out.append(None)
            position += 1
        self.finish(op, buffers_out)

    def _hand_over(
        self, buffer: SSAValue, terminator: Operation, taken: list[SSAValue]
    ) -> SSAValue:
        """A buffer this branch allocated, for it to yield and the `scf.if` result to own:
        `buffer` itself when the branch allocated it and yields it once, else a copy."""
        owner = buffer.owner
        fresh = (
            buffer in self.state.owned
            and isinstance(owner, Operation)
            and owner.parent_block() is terminator.parent_block()
            and all(t is not buffer for t in taken)
        )
        if not fresh:
            buffer = self.private_copy(buffer, True, terminator)
        del self.state.owned[buffer]
        return buffer

    def _call(self, op: Operation) -> None:
        assert isinstance(op, func.CallOp)
        if not self.options.function_boundaries:
            self._unknown(op)
            return
        operands: list[SSAValue] = []
        for index, operand in enumerate(op.arguments):
            if not is_tensor(operand):
                operands.append(operand)
                continue
            buffer = self.operand_buffer(op, index)
            expected = memref_for_tensor(
                cast(TensorType[Attribute], operand.type), self.options.layout
            )
            operands.append(self.cast_to(buffer, expected, op))
        result_types = [
            memref_for_tensor(cast(TensorType[Attribute], t)) if isinstance(t, TensorType) else t
            for t in op.result_types
        ]
        new_call = func.CallOp(op.callee, operands, result_types)
        self.insert(new_call, op)
        buffers: list[SSAValue | None] = []
        for old, new in zip(op.results, new_call.results, strict=True):
            if is_tensor(old):
                self.state.owned[new] = None
                buffers.append(new)
            else:
                old.replace_all_uses_with(new)
                buffers.append(None)
        self.finish(op, buffers)


__all__ = ["ControlFlowRules"]
