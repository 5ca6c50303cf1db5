"""LLVM IR translation of calls: direct and indirect calls (calling convention, tail kind,
fastmath), `call_intrinsic`, and inline assembly."""

from __future__ import annotations

from collections.abc import Mapping

import llvmlite.ir as ir
from xdsl.dialects.llvm import InlineAsmOp  # registered as xDSL defines it
from xdsl.ir import Operation

from schedir.dialects import llvm
from schedir.lowering.to_llvm_ir.llvmlite_ir import (
    IndirectCallee,
    fastmath_words,
    is_float,
    llvm_type,
)
from schedir.lowering.to_llvm_ir.translation import Translate, Translation, delegate


def _call(t: Translation, op: llvm.CallOp) -> None:
    args = [t.value(a) for a in op.args]
    if op.callee is not None:
        callee: ir.Value = t.module.get_global(op.callee.string_value())
    else:
        callee_ptr, args = args[0], args[1:]
        result = llvm_type(op.returned.type) if op.returned is not None else ir.VoidType()
        ftype = (
            llvm_type(op.var_callee_type)
            if op.var_callee_type is not None
            else ir.FunctionType(result, [a.type for a in args])
        )
        assert isinstance(ftype, ir.FunctionType)  # the llvm_type of an LLVMFunctionType
        callee = IndirectCallee(callee_ptr, ftype)
    fastmath = fastmath_words(op.fastmathFlags) if op.returned is not None else []
    cconv = op.CConv.cconv_name
    instr = t.builder.call(
        callee,
        args,
        cconv=None if cconv == "ccc" else cconv,
        tail=op.TailCallKind.data != "none",
        fastmath=fastmath if is_float(op.returned) else (),
    )
    if op.returned is not None:
        t.values[op.returned] = instr


def _call_intrinsic(t: Translation, op: llvm.CallIntrinsicOp) -> None:
    args = [t.value(a) for a in op.operands]
    result = llvm_type(op.results[0].type) if op.results else ir.VoidType()
    fn = t.function(op.intrin.data, ir.FunctionType(result, [a.type for a in args]))
    instr = t.builder.call(fn, args)
    if op.results:
        t.set(op, instr)


TRANSLATIONS: Mapping[type[Operation], Translate] = {
    llvm.CallOp: _call,
    llvm.CallIntrinsicOp: _call_intrinsic,
    InlineAsmOp: delegate,
}
"""The ops of this family and their translations."""

__all__ = ["TRANSLATIONS"]
