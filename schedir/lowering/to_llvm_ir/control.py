"""LLVM IR translation of control flow: branches with phi incomings, switches, returns, and
the block order (definitions before uses)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import llvmlite.ir as ir
from llvmlite.ir import instructions as ir_instr
from xdsl.ir import Block, Operation, SSAValue

from schedir.dialects import llvm
from schedir.lowering.to_llvm_ir.llvmlite_ir import llvm_type
from schedir.lowering.to_llvm_ir.translation import Translate, Translation, delegate


def _phi(t: Translation, arg: SSAValue) -> ir_instr.PhiInstr:
    """The phi of block argument `arg` (made when its block was started)."""
    return cast(ir_instr.PhiInstr, t.value(arg))


def _edge(
    t: Translation,
    source: Block,
    dest: Block,
    args: Sequence[SSAValue],
    seen: dict[Block, tuple[ir.Value, ...]],
) -> ir.Block:
    """The LLVM block to branch to for `source -> dest(args)`, adding phi incomings.

    A second edge to `dest` from the same terminator with other arguments goes through a
    new block, since a phi has one value per predecessor block.
    """
    b = t.builder
    values = tuple(t.value(a) for a in args)
    target = t.blocks[dest]
    if dest in seen and seen[dest] != values:
        trampoline = b.function.append_basic_block(name="edge")
        ir.IRBuilder(trampoline).branch(target)
        for arg, value in zip(dest.args, values, strict=True):
            _phi(t, arg).add_incoming(value, trampoline)
        return trampoline
    seen.setdefault(dest, values)
    for arg, value in zip(dest.args, values, strict=True):
        _phi(t, arg).add_incoming(value, b.block)
    return target


def _parent(op: Operation) -> Block:
    assert op.parent is not None
    return op.parent


def _br(t: Translation, op: llvm.BrOp) -> None:
    t.builder.branch(_edge(t, _parent(op), op.successor, op.operands, {}))


def _cond_br(t: Translation, op: llvm.CondBrOp) -> None:
    seen: dict[Block, tuple[ir.Value, ...]] = {}
    source = _parent(op)
    then_target = _edge(t, source, op.then_block, op.then_arguments, seen)
    else_target = _edge(t, source, op.else_block, op.else_arguments, seen)
    t.builder.cbranch(t.value(op.cond), then_target, else_target)


def _switch(t: Translation, op: llvm.SwitchOp) -> None:
    seen: dict[Block, tuple[ir.Value, ...]] = {}
    source = _parent(op)
    default = _edge(t, source, op.defaultDestination, op.defaultOperands, seen)
    targets = [(value, _edge(t, source, block, args, seen)) for value, block, args in op.cases()]
    switch = t.builder.switch(t.value(op.value), default)
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


TRANSLATIONS: Mapping[type[Operation], Translate] = {
    llvm.BrOp: _br,
    llvm.CondBrOp: _cond_br,
    llvm.SwitchOp: _switch,
    llvm.ReturnOp: delegate,
    llvm.UnreachableOp: delegate,
}
"""The ops of this family and their translations."""

__all__ = ["TRANSLATIONS", "reverse_post_order"]
