"""LLVM IR translation of values, float arithmetic, casts and memory ops (see to_llvm_ir.py)."""

from __future__ import annotations

import llvmlite.ir as ir
from llvmlite.ir import instructions as ir_instr
from xdsl.dialects.builtin import IntegerAttr, SymbolRefAttr
from xdsl.ir import Operation

from schedir.dialects import llvm
from schedir.lowering.to_llvm_ir.base import TranslatorBase
from schedir.lowering.to_llvm_ir.llvmlite_ir import (
    AllocaInAddressSpace,
    CastWithFlags,
    Freeze,
    GEPWithFlags,
    Poison,
    VolatileLoad,
    VolatileStore,
    constant,
    fastmath_words,
    insert_instruction,
    llvm_type,
)

CASTS: dict[str, str] = {
    "llvm.trunc": "trunc",
    "llvm.zext": "zext",
    "llvm.sext": "sext",
    "llvm.fptrunc": "fptrunc",
    "llvm.fpext": "fpext",
    "llvm.fptosi": "fptosi",
    "llvm.fptoui": "fptoui",
    "llvm.sitofp": "sitofp",
    "llvm.uitofp": "uitofp",
    "llvm.bitcast": "bitcast",
    "llvm.ptrtoint": "ptrtoint",
    "llvm.inttoptr": "inttoptr",
    "llvm.addrspacecast": "addrspacecast",
}


class ValueTranslation(TranslatorBase):
    """Constants, `undef`/`poison`/`zero`, `addressof`, `freeze`, `extractelement`, float
    arithmetic and comparison, casts with flags, and `getelementptr`/`load`/`store`/`alloca`."""

    # values

    def _op_llvm_mlir_constant(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, constant(llvm_type(op.results[0].type), op.properties["value"]))

    def _op_llvm_mlir_poison(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, Poison(llvm_type(op.results[0].type)))

    def _op_llvm_mlir_undef(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, ir.Constant(llvm_type(op.results[0].type), ir.Undefined))

    def _op_llvm_mlir_zero(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, ir.Constant(llvm_type(op.results[0].type), None))

    def _op_llvm_mlir_addressof(self, op: Operation, b: ir.IRBuilder) -> None:
        ref = op.properties["global_name"]
        assert isinstance(ref, SymbolRefAttr)
        self._set(op, self.module.get_global(ref.root_reference.data))

    def _op_llvm_freeze(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, insert_instruction(b, Freeze(b.block, self._v(op.operands[0]))))

    def _op_llvm_extractelement(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, b.extract_element(self._v(op.operands[0]), self._v(op.operands[1])))

    def _float_arith(self, op: Operation, b: ir.IRBuilder) -> None:
        args = [self._v(a) for a in op.operands]
        flags = fastmath_words(op.properties.get("fastmathFlags"))
        if op.name == "llvm.fneg":
            self._set(op, b.fneg(args[0], flags=flags))
            return
        build = getattr(b, op.name.removeprefix("llvm."))
        self._set(op, build(args[0], args[1], flags=flags))

    _op_llvm_fadd = _op_llvm_fsub = _op_llvm_fmul = _float_arith
    _op_llvm_fdiv = _op_llvm_frem = _op_llvm_fneg = _float_arith

    def _op_llvm_fcmp(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.FCmpOp)
        predicate = op.predicate_name.lstrip("_")
        flags = fastmath_words(op.fastmathFlags)
        instr = ir_instr.FCMPInstr(
            b.block, predicate, self._v(op.lhs), self._v(op.rhs), flags=flags
        )
        self._set(op, insert_instruction(b, instr))

    def _cast(self, op: Operation, b: ir.IRBuilder) -> None:
        flags: list[str] = []
        if op.properties.get("nonNeg") is not None:
            flags.append("nneg")
        overflow = op.properties.get("overflowFlags")
        if overflow is not None and hasattr(overflow, "data"):
            flags += [f.value for f in overflow.data]  # type: ignore[union-attr]
        instr = CastWithFlags(
            b.block, CASTS[op.name], self._v(op.operands[0]), llvm_type(op.results[0].type), flags
        )
        self._set(op, insert_instruction(b, instr))

    # memory

    def _op_llvm_getelementptr(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.GEPOp)
        indices = [
            ir.Constant(ir.IntType(32), i) if isinstance(i, int) else self._v(i)
            for i in op.indices()
        ]
        instr = GEPWithFlags(b.block, self._v(op.base), indices, llvm_type(op.elem_type), op.flags)
        self._set(op, insert_instruction(b, instr))

    def _op_llvm_load(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.LoadOp)
        typ = llvm_type(op.res.type)
        if op.volatile_ is not None:
            instr = insert_instruction(b, VolatileLoad(b.block, self._v(op.addr), typ=typ))
        else:
            instr = b.load(self._v(op.addr), typ=typ)
        if op.alignment is not None:
            instr.align = op.alignment.value.data
        if op.nontemporal is not None:
            instr.set_metadata(
                "nontemporal", self.module.add_metadata([ir.Constant(ir.IntType(32), 1)])
            )
        self._set(op, instr)

    def _op_llvm_store(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.StoreOp)
        if op.volatile_ is not None:
            instr = insert_instruction(
                b, VolatileStore(b.block, self._v(op.value), self._v(op.addr))
            )
        else:
            instr = b.store(self._v(op.value), self._v(op.addr))
        if op.alignment is not None:
            instr.align = op.alignment.value.data
        if op.nontemporal is not None:
            instr.set_metadata(
                "nontemporal", self.module.add_metadata([ir.Constant(ir.IntType(32), 1)])
            )

    def _op_llvm_alloca(self, op: Operation, b: ir.IRBuilder) -> None:
        ptr_type = llvm_type(op.results[0].type)
        assert isinstance(ptr_type, ir.PointerType)
        alignment = op.properties.get("alignment")
        align = (
            alignment.value.data
            if isinstance(alignment, IntegerAttr) and alignment.value.data
            else None
        )
        instr = AllocaInAddressSpace(
            b.block,
            llvm_type(op.properties["elem_type"]),
            self._v(op.operands[0]),
            ptr_type.addrspace,
            align,
        )
        self._set(op, insert_instruction(b, instr))
