"""LLVM IR translation of memory ops: `getelementptr` (address space and no-wrap flags
kept), `load`/`store` (alignment, volatile, nontemporal) and `alloca` in any address space."""

from __future__ import annotations

from collections.abc import Mapping

import llvmlite.ir as ir
from llvmlite.ir import instructions as ir_instr
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from schedir.dialects import llvm
from schedir.lowering.to_llvm_ir.llvmlite_ir import (
    AllocaInAddressSpace,
    GEPWithFlags,
    VolatileLoad,
    VolatileStore,
    insert_instruction,
    llvm_type,
    set_alignment,
)
from schedir.lowering.to_llvm_ir.translation import Translate, Translation


def _getelementptr(t: Translation, op: llvm.GEPOp) -> None:
    indices = [
        ir.Constant(ir.IntType(32), i) if isinstance(i, int) else t.value(i) for i in op.indices()
    ]
    instr = GEPWithFlags(
        t.builder.block, t.value(op.base), indices, llvm_type(op.elem_type), op.flags
    )
    t.set(op, insert_instruction(t.builder, instr))


def _nontemporal(t: Translation, instr: ir_instr.Instruction) -> None:
    instr.set_metadata("nontemporal", t.module.add_metadata([ir.Constant(ir.IntType(32), 1)]))


def _load(t: Translation, op: llvm.LoadOp) -> None:
    b = t.builder
    typ = llvm_type(op.res.type)
    instr: ir_instr.LoadInstr
    if op.volatile_ is not None:
        instr = VolatileLoad(b.block, t.value(op.addr), typ=typ)
        insert_instruction(b, instr)
    else:
        instr = b.load(t.value(op.addr), typ=typ)
    if op.alignment is not None:
        set_alignment(instr, op.alignment.value.data)
    if op.nontemporal is not None:
        _nontemporal(t, instr)
    t.set(op, instr)


def _store(t: Translation, op: llvm.StoreOp) -> None:
    b = t.builder
    instr: ir_instr.StoreInstr
    if op.volatile_ is not None:
        instr = VolatileStore(b.block, t.value(op.value), t.value(op.addr))
        insert_instruction(b, instr)
    else:
        instr = b.store(t.value(op.value), t.value(op.addr))
    if op.alignment is not None:
        set_alignment(instr, op.alignment.value.data)
    if op.nontemporal is not None:
        _nontemporal(t, instr)


def _alloca(t: Translation, op: llvm.AllocaOp) -> None:
    ptr_type = llvm_type(op.res.type)
    assert isinstance(ptr_type, ir.PointerType)
    alignment = op.properties.get("alignment")
    align = (
        alignment.value.data
        if isinstance(alignment, IntegerAttr) and alignment.value.data
        else None
    )
    instr = AllocaInAddressSpace(
        t.builder.block, llvm_type(op.elem_type), t.value(op.size), ptr_type.addrspace, align
    )
    t.set(op, insert_instruction(t.builder, instr))


TRANSLATIONS: Mapping[type[Operation], Translate] = {
    llvm.GEPOp: _getelementptr,
    llvm.LoadOp: _load,
    llvm.StoreOp: _store,
    llvm.AllocaOp: _alloca,
}
"""The ops of this family and their translations."""

__all__ = ["TRANSLATIONS"]
