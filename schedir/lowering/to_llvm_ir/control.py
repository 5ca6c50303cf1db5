"""LLVM IR translation of control flow: branches with phi incomings, switches, block order
(see to_llvm_ir.py)."""

from __future__ import annotations

from collections.abc import Sequence

import llvmlite.ir as ir
from xdsl.ir import Block, Operation, SSAValue

from schedir.dialects import llvm
from schedir.lowering.to_llvm_ir.base import TranslatorBase
from schedir.lowering.to_llvm_ir.llvmlite_ir import llvm_type


class ControlFlowTranslation(TranslatorBase):
    """`br`, `cond_br` and `switch`; an edge reached twice with other arguments gets a block."""

    def _edge(
        self,
        b: ir.IRBuilder,
        source: Block,
        dest: Block,
        args: Sequence[SSAValue],
        seen: dict[Block, tuple[ir.Value, ...]],
    ) -> ir.Block:
        """The LLVM block to branch to for `source -> dest(args)`, adding phi incomings.

        A second edge to `dest` from the same terminator with other arguments goes
        through a new block, since a phi has one value per predecessor block.
        """
        values = tuple(self._v(a) for a in args)
        target = self.blocks[dest]
        if dest in seen and seen[dest] != values:
            trampoline = b.function.append_basic_block(name="edge")
            ir.IRBuilder(trampoline).branch(target)
            for arg, value in zip(dest.args, values, strict=True):
                self._v(arg).add_incoming(value, trampoline)  # type: ignore[attr-defined]
            return trampoline
        seen.setdefault(dest, values)
        for arg, value in zip(dest.args, values, strict=True):
            self._v(arg).add_incoming(value, b.block)  # type: ignore[attr-defined]
        return target

    def _op_llvm_br(self, op: Operation, b: ir.IRBuilder) -> None:
        assert op.parent is not None
        b.branch(self._edge(b, op.parent, op.successors[0], op.operands, {}))

    def _op_llvm_cond_br(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.CondBrOp) and op.parent is not None
        seen: dict[Block, tuple[ir.Value, ...]] = {}
        then_target = self._edge(b, op.parent, op.then_block, op.then_arguments, seen)
        else_target = self._edge(b, op.parent, op.else_block, op.else_arguments, seen)
        b.cbranch(self._v(op.cond), then_target, else_target)

    def _op_llvm_switch(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.SwitchOp) and op.parent is not None
        seen: dict[Block, tuple[ir.Value, ...]] = {}
        default = self._edge(b, op.parent, op.defaultDestination, op.defaultOperands, seen)
        targets = [
            (value, self._edge(b, op.parent, block, args, seen))
            for value, block, args in op.cases()
        ]
        switch = b.switch(self._v(op.value), default)
        for value, target in targets:
            switch.add_case(ir.Constant(llvm_type(op.value.type), value), target)


def reverse_post_order(entry: Block) -> list[Block]:
    """Blocks reachable from `entry`, definitions before uses (iterative DFS)."""
    order: list[Block] = []
    visited = {entry}
    stack: list[tuple[Block, int]] = [(entry, 0)]
    while stack:
        block, index = stack.pop()
        successors = _successors(block)
        if index < len(successors):
            stack.append((block, index + 1))
            nxt = successors[index]
            if nxt not in visited:
                visited.add(nxt)
                stack.append((nxt, 0))
        else:
            order.append(block)
    order.reverse()
    return order


def _successors(block: Block) -> tuple[Block, ...]:
    last = block.last_op
    return tuple(last.successors) if last is not None else ()
