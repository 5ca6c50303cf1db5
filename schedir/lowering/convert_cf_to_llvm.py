"""`convert-cf-to-llvm`: unstructured control flow to the LLVM dialect, as upstream.

`cf.br` -> `llvm.br`, `cf.cond_br` -> `llvm.cond_br`, `cf.switch` -> `llvm.switch` (an
`index` flag becomes `i64`), and the arguments of every non-entry block get LLVM types
(entry blocks are the function signature, converted by `convert-func-to-llvm`).
`cf.assert` splits its block: when the condition is false, the message is printed with
`puts` and the program calls `abort`, as upstream's `abort-on-failed-assert` default
does (in a JIT this ends the process).

Before:

    cf.cond_br %c, ^bb1(%i : index), ^bb2
  ^bb1(%x: index):

After:

    %0 = builtin.unrealized_conversion_cast %i : index to i64
    llvm.cond_br %c, ^bb1(%0 : i64), ^bb2
  ^bb1(%1: i64):
    %x = builtin.unrealized_conversion_cast %1 : i64 to index
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import cf
from xdsl.dialects.builtin import (
    IntegerType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, Operation, SSAValue

from schedir.dialects import llvm
from schedir.lowering.llvm.common import (
    PTR,
    LLVMConversionPass,
    LLVMTypeConverter,
    Lowering,
    attr_of,
    block_args_to_llvm,
    enclosing_module,
    first_result,
    unsupported,
)

PASS = "convert-cf-to-llvm"


def _br(lw: Lowering, op: cf.BranchOp) -> None:
    new = llvm.BrOp(op.successor, *lw.values(op.operands, op))
    lw.insert(new, op)
    lw.replace(op, [])


def _cond_br(lw: Lowering, op: cf.ConditionalBranchOp) -> None:
    n_then = len(op.then_arguments)
    values = lw.values(op.operands, op)
    cond, then_args, else_args = values[0], values[1 : 1 + n_then], values[1 + n_then :]
    new = llvm.CondBrOp(cond, op.then_block, then_args, op.else_block, else_args)
    lw.insert(new, op)
    lw.replace(op, [])


def _switch(lw: Lowering, op: cf.SwitchOp) -> None:
    flag = lw.value(op.flag, op)
    if not isinstance(flag.type, IntegerType):
        raise unsupported(PASS, op, f"flag of type {flag.type}")
    default_operands = [lw.value(v, op) for v in op.default_operands]
    case_operands = [lw.value(v, op) for v in op.case_operands]
    case_values = op.case_values.get_values() if op.case_values is not None else ()
    cases: list[tuple[int, Block, list[SSAValue]]] = []
    start = 0
    for value, block, size in zip(
        case_values, op.case_blocks, op.case_operand_segments.get_values(), strict=True
    ):
        cases.append((int(value), block, case_operands[start : start + size]))
        start += size
    new = llvm.SwitchOp(flag, op.default_block, default_operands, cases)
    lw.insert(new, op)
    lw.replace(op, [])


def _assert(lw: Lowering, op: Operation, counter: list[int]) -> None:
    module = enclosing_module(op)
    (cond,) = lw.values(op.operands, op)
    message = attr_of(op, "msg")
    text = message.data if isinstance(message, StringAttr) else ""
    block = op.parent
    assert block is not None
    region = block.parent
    assert region is not None
    continuation = block.split_before(op)
    failure = Block()
    region.insert_block_after(failure, continuation)

    def emit(new: Operation) -> SSAValue:
        new.location = op.location
        failure.add_op(new)
        return first_result(new)

    symbols = lw.symbols(op)
    name = f"assert_msg_{counter[0]}"
    while name in symbols:
        counter[0] += 1
        name = f"assert_msg_{counter[0]}"
    counter[0] += 1
    data = text.encode() + b"\0"
    global_op = llvm.GlobalOp(
        llvm.LLVMArrayType(len(data), IntegerType(8)),
        name,
        "internal",
        constant=True,
        value=StringAttr(data.decode("latin-1")),
    )
    first = module.body.block.first_op
    assert first is not None  # the module holds the function being lowered
    module.body.block.insert_op_before(global_op, first)
    symbols[name] = global_op
    lw.declare("puts", llvm.LLVMFunctionType([PTR], IntegerType(32)), op)
    lw.declare("abort", llvm.LLVMFunctionType([]), op)
    address = emit(llvm.AddressOfOp(name, PTR))
    emit(llvm.CallOp("puts", address, return_type=IntegerType(32)))
    emit(llvm.CallOp("abort"))
    emit(llvm.UnreachableOp())
    branch = llvm.CondBrOp(cond, continuation, (), failure, ())
    branch.location = op.location
    block.add_op(branch)
    op.detach()
    op.erase()


_CF_OPS: tuple[type[Operation], ...] = tuple(cf.Cf.operations)


def lower_cf(module: ModuleOp, converter: LLVMTypeConverter | None = None) -> None:
    """Replace cf ops in `module` by LLVM branches; give non-entry blocks LLVM types."""
    lw = Lowering(converter or LLVMTypeConverter(), PASS)
    ops = list(module.walk())
    for op in ops:
        for region in op.regions:
            for block in region.blocks:
                if block is not region.first_block and block.args:
                    block_args_to_llvm(lw, block, op)
    counter = [0]
    for op in ops:
        if op.parent is None:
            continue
        match op:
            case cf.BranchOp():
                _br(lw, op)
            case cf.ConditionalBranchOp():
                _cond_br(lw, op)
            case cf.SwitchOp():
                _switch(lw, op)
            case cf.AssertOp():
                _assert(lw, op, counter)
            case _ if isinstance(op, _CF_OPS):
                raise unsupported(PASS, op)
            case _:
                pass
    lw.finish()


@dataclass(frozen=True)
class ConvertControlFlowToLLVMPass(LLVMConversionPass):
    """Lower the cf dialect to the LLVM dialect (see the module docstring)."""

    name = "convert-cf-to-llvm"

    def convert(self, module: ModuleOp, converter: LLVMTypeConverter) -> None:
        lower_cf(module, converter)


__all__ = ["ConvertControlFlowToLLVMPass", "lower_cf"]
