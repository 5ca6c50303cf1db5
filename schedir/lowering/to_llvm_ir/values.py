"""LLVM IR translation of values: constants, `undef`/`poison`/`zero`, `addressof`, `freeze`,
aggregate and vector element ops, `select` and casts (with `nneg`/`nuw`/`nsw` flags)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import llvmlite.ir as ir
from xdsl.ir import Operation

from schedir.dialects import llvm
from schedir.lowering.to_llvm_ir.llvmlite_ir import (
    CastWithFlags,
    Freeze,
    Poison,
    constant,
    fastmath_words,
    insert_instruction,
    llvm_type,
)
from schedir.lowering.to_llvm_ir.translation import Translate, Translation, delegate


def _constant(t: Translation, op: llvm.ConstantOp) -> None:
    t.set(op, constant(llvm_type(op.result.type), op.value))


def _poison(t: Translation, op: llvm.PoisonOp) -> None:
    t.set(op, Poison(llvm_type(op.res.type)))


def _undef(t: Translation, op: llvm.UndefOp) -> None:
    t.set(op, ir.Constant(llvm_type(op.res.type), ir.Undefined))


def _zero(t: Translation, op: llvm.ZeroOp) -> None:
    t.set(op, ir.Constant(llvm_type(op.res.type), None))


def _address_of(t: Translation, op: llvm.AddressOfOp) -> None:
    t.set(op, t.module.get_global(op.global_name.root_reference.data))


def _freeze(t: Translation, op: llvm.FreezeOp) -> None:
    t.set(op, insert_instruction(t.builder, Freeze(t.builder.block, t.value(op.val))))


def _extract_element(t: Translation, op: llvm.ExtractElementOp) -> None:
    t.set(op, t.builder.extract_element(t.value(op.vector), t.value(op.position)))


def _select(t: Translation, op: llvm.SelectOp) -> None:
    b = t.builder
    cond, lhs, rhs = (t.value(a) for a in op.operands)
    flags = fastmath_words(op.properties.get("fastmathFlags"))
    t.set(op, b.select(cond, lhs, rhs, flags=flags) if flags else b.select(cond, lhs, rhs))


def _cast(opcode: str) -> Translate:
    """The translation of a cast to LLVM's `opcode` (`zext`, `fptosi`, ...)."""

    def translate(t: Translation, op: Operation) -> None:
        flags: list[str] = []
        if op.properties.get("nonNeg") is not None:
            flags.append("nneg")
        overflow = op.properties.get("overflowFlags")
        if overflow is not None and hasattr(overflow, "data"):
            flags += [f.value for f in cast(llvm.OverflowAttr, overflow).data]
        value = t.value(op.operands[0])
        instr = CastWithFlags(t.builder.block, opcode, value, llvm_type(op.results[0].type), flags)
        t.set(op, insert_instruction(t.builder, instr))

    return translate


TRANSLATIONS: Mapping[type[Operation], Translate] = {
    llvm.ConstantOp: _constant,
    llvm.PoisonOp: _poison,
    llvm.UndefOp: _undef,
    llvm.ZeroOp: _zero,
    llvm.AddressOfOp: _address_of,
    llvm.FreezeOp: _freeze,
    llvm.ExtractElementOp: _extract_element,
    llvm.InsertElementOp: delegate,
    llvm.ShuffleVectorOp: delegate,
    llvm.ExtractValueOp: delegate,
    llvm.InsertValueOp: delegate,
    llvm.SelectOp: _select,
    llvm.TruncOp: _cast("trunc"),
    llvm.ZExtOp: _cast("zext"),
    llvm.SExtOp: _cast("sext"),
    llvm.FPTruncOp: _cast("fptrunc"),
    llvm.FPExtOp: _cast("fpext"),
    llvm.FPToSIOp: _cast("fptosi"),
    llvm.FPToUIOp: _cast("fptoui"),
    llvm.SIToFPOp: _cast("sitofp"),
    llvm.UIToFPOp: _cast("uitofp"),
    llvm.BitcastOp: _cast("bitcast"),
    llvm.PtrToIntOp: _cast("ptrtoint"),
    llvm.IntToPtrOp: _cast("inttoptr"),
    llvm.AddrSpaceCastOp: _cast("addrspacecast"),
}
"""The ops of this family and their translations."""

__all__ = ["TRANSLATIONS"]
