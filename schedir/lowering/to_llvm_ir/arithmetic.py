"""LLVM IR translation of integer and float arithmetic and comparisons (float ops keep
their fastmath flags)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import cast

import llvmlite.ir as ir
from llvmlite.ir import instructions as ir_instr
from xdsl.ir import Operation

from schedir.dialects import llvm
from schedir.lowering.to_llvm_ir.llvmlite_ir import fastmath_words, insert_instruction
from schedir.lowering.to_llvm_ir.translation import Translate, Translation, delegate

FloatBuilder = Callable[..., object]
"""An unbound `ir.IRBuilder` method building a float instruction (`ir.IRBuilder.fadd`)."""


def _float_binary(build: FloatBuilder) -> Translate:
    """The translation of a binary float op to the instruction `build` makes."""

    def translate(t: Translation, op: Operation) -> None:
        args = [t.value(a) for a in op.operands]
        flags = fastmath_words(op.properties.get("fastmathFlags"))
        # llvmlite's builder methods are decorated: a type checker sees them return None.
        t.set(op, cast(ir.Instruction, build(t.builder, args[0], args[1], flags=flags)))

    return translate


def _fneg(t: Translation, op: llvm.FNegOp) -> None:
    args = [t.value(a) for a in op.operands]
    flags = fastmath_words(op.properties.get("fastmathFlags"))
    # llvmlite's builder methods are decorated: a type checker sees them return None.
    t.set(op, cast(ir.Instruction, t.builder.fneg(args[0], flags=flags)))


def _fcmp(t: Translation, op: llvm.FCmpOp) -> None:
    predicate = op.predicate_name.lstrip("_")
    flags = fastmath_words(op.fastmathFlags)
    instr = ir_instr.FCMPInstr(
        t.builder.block, predicate, t.value(op.lhs), t.value(op.rhs), flags=flags
    )
    t.set(op, insert_instruction(t.builder, instr))


TRANSLATIONS: Mapping[type[Operation], Translate] = {
    llvm.AddOp: delegate,
    llvm.SubOp: delegate,
    llvm.MulOp: delegate,
    llvm.UDivOp: delegate,
    llvm.SDivOp: delegate,
    llvm.URemOp: delegate,
    llvm.SRemOp: delegate,
    llvm.AndOp: delegate,
    llvm.OrOp: delegate,
    llvm.XOrOp: delegate,
    llvm.ShlOp: delegate,
    llvm.LShrOp: delegate,
    llvm.AShrOp: delegate,
    llvm.ICmpOp: delegate,
    llvm.FAddOp: _float_binary(ir.IRBuilder.fadd),
    llvm.FSubOp: _float_binary(ir.IRBuilder.fsub),
    llvm.FMulOp: _float_binary(ir.IRBuilder.fmul),
    llvm.FDivOp: _float_binary(ir.IRBuilder.fdiv),
    llvm.FRemOp: _float_binary(ir.IRBuilder.frem),
    llvm.FNegOp: _fneg,
    llvm.FCmpOp: _fcmp,
}
"""The ops of this family and their translations (xDSL's for the integer ones)."""

__all__ = ["TRANSLATIONS"]
