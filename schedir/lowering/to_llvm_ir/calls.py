"""LLVM IR translation of calls, intrinsics, nvvm ops and the vector ops of
convert-vector-to-llvm (see to_llvm_ir.py)."""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Operation

from schedir.dialects import llvm
from schedir.lowering.to_llvm_ir.base import TranslatorBase
from schedir.lowering.to_llvm_ir.llvmlite_ir import (
    IndirectCallee,
    Poison,
    fastmath_words,
    intrinsic_suffix,
    is_float,
    llvm_type,
)

_IMMARG_FLAG = {
    "llvm.intr.ctlz": ("is_zero_poison", 1),
    "llvm.intr.cttz": ("is_zero_poison", 1),
    "llvm.intr.abs": ("is_int_min_poison", 1),
    "llvm.intr.memcpy": ("isVolatile", 1),
    "llvm.intr.is.fpclass": ("bit", 32),
}
"""Intrinsics whose last (immediate) argument is an op property: (name, bit width)."""


class CallTranslation(TranslatorBase):
    """Direct and indirect calls, `call_intrinsic`, `llvm.intr.*` with mangled names, nvvm
    special registers/barriers/shuffles, `select`, vector reductions and masked memory."""

    # nvvm: special registers, barriers and shuffles as NVPTX intrinsics

    def _nvvm(self, op: Operation, b: ir.IRBuilder) -> None:
        name = op.name
        i32 = ir.IntType(32)
        if name.startswith("nvvm.read.ptx.sreg."):
            result = llvm_type(op.results[0].type)
            fn = self._function("llvm." + name, ir.FunctionType(result, []))
            self._set(op, b.call(fn, []))
            return
        if name in ("nvvm.barrier", "nvvm.barrier0"):
            # `bar.sync 0`: what LLVM 21+ spells llvm.nvvm.barrier0 after auto-upgrade.
            fn = self._function(
                "llvm.nvvm.barrier.cta.sync.aligned.all", ir.FunctionType(ir.VoidType(), [i32])
            )
            b.call(fn, [ir.Constant(i32, 0)])
            return
        if name == "nvvm.shfl.sync":
            args = [self._v(a) for a in op.operands]
            value_type = args[1].type
            suffix = "f32" if isinstance(value_type, ir.FloatType) else "i32"
            kind = op.properties["kind"].data.value  # type: ignore[attr-defined]
            with_valid = op.properties.get("return_value_and_is_valid") is not None
            result = llvm_type(op.results[0].type)
            intrinsic = f"llvm.nvvm.shfl.sync.{kind}.{suffix}{'p' if with_valid else ''}"
            fn = self._function(intrinsic, ir.FunctionType(result, [a.type for a in args]))
            self._set(op, b.call(fn, args))
            return
        raise self._unexpected(op)

    # calls

    def _op_llvm_call(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.CallOp)
        args = [self._v(a) for a in op.args]
        if op.callee is not None:
            callee: ir.Value = self.module.get_global(op.callee.string_value())
        else:
            callee_ptr, args = args[0], args[1:]
            result = llvm_type(op.returned.type) if op.returned is not None else ir.VoidType()
            ftype = (
                llvm_type(op.var_callee_type)
                if op.var_callee_type is not None
                else ir.FunctionType(result, [a.type for a in args])
            )
            callee = IndirectCallee(callee_ptr, ftype)
        fastmath = fastmath_words(op.fastmathFlags) if op.returned is not None else []
        cconv = op.CConv.cconv_name
        instr = b.call(
            callee,
            args,
            cconv=None if cconv == "ccc" else cconv,
            tail=op.TailCallKind.data != "none",
            fastmath=fastmath if is_float(op.returned) else (),
        )
        if op.returned is not None:
            self.values[op.returned] = instr

    def _op_llvm_call_intrinsic(self, op: Operation, b: ir.IRBuilder) -> None:
        args = [self._v(a) for a in op.operands]
        result = llvm_type(op.results[0].type) if op.results else ir.VoidType()
        name = op.properties["intrin"]
        assert isinstance(name, StringAttr)
        fn = self._function(name.data, ir.FunctionType(result, [a.type for a in args]))
        instr = b.call(fn, args)
        if op.results:
            self._set(op, instr)

    def _intrinsic(self, op: Operation, b: ir.IRBuilder) -> None:
        base = "llvm." + op.name.removeprefix("llvm.intr.")
        args = [self._v(a) for a in op.operands]
        result = llvm_type(op.results[0].type) if op.results else ir.VoidType()
        if base == "llvm.powi":
            overloads = [result, args[1].type]
        elif base == "llvm.memcpy":
            overloads = [a.type for a in args]
        elif base == "llvm.stackrestore" or base in ("llvm.is.fpclass",):
            overloads = [args[0].type]
        elif base == "llvm.trap":
            overloads = []
        else:
            overloads = [result] if op.results else [args[0].type]
        flag = _IMMARG_FLAG.get(op.name)
        if flag is not None:
            prop_name, width = flag
            attr = op.properties.get(prop_name)
            value = attr.value.data if isinstance(attr, IntegerAttr) else 0
            args.append(ir.Constant(ir.IntType(width), value & ((1 << width) - 1)))
        name = ".".join([base, *(intrinsic_suffix(t) for t in overloads)])
        fn = self._function(name, ir.FunctionType(result, [a.type for a in args]))
        fastmath = fastmath_words(op.properties.get("fastmathFlags")) if op.results else []
        instr = b.call(
            fn, args, fastmath=fastmath if is_float(op.results[0] if op.results else None) else ()
        )
        if op.results:
            self._set(op, instr)

    # vector ops of convert-vector-to-llvm (schedir/dialects/_vector_llvm.py)

    def _op_llvm_select(self, op: Operation, b: ir.IRBuilder) -> None:
        cond, lhs, rhs = (self._v(a) for a in op.operands)
        flags = fastmath_words(op.properties.get("fastmathFlags"))
        self._set(op, b.select(cond, lhs, rhs, flags=flags) if flags else b.select(cond, lhs, rhs))

    def _vector_reduce(self, op: Operation, b: ir.IRBuilder) -> None:
        """`llvm.vector.reduce.<kind>.<vector type>`: overloaded on the vector operand;
        fadd/fmul take the start value first (ordered unless `reassoc`)."""
        args = [self._v(a) for a in op.operands]
        result = llvm_type(op.results[0].type)
        base = "llvm." + op.name.removeprefix("llvm.intr.")
        name = f"{base}.{intrinsic_suffix(args[-1].type)}"
        fn = self._function(name, ir.FunctionType(result, [a.type for a in args]))
        fastmath = fastmath_words(op.properties.get("fastmathFlags"))
        self._set(op, b.call(fn, args, fastmath=fastmath if is_float(op.results[0]) else ()))

    _op_llvm_intr_vector_reduce_add = _op_llvm_intr_vector_reduce_mul = _vector_reduce
    _op_llvm_intr_vector_reduce_and = _op_llvm_intr_vector_reduce_or = _vector_reduce
    _op_llvm_intr_vector_reduce_xor = _vector_reduce
    _op_llvm_intr_vector_reduce_smax = _op_llvm_intr_vector_reduce_smin = _vector_reduce
    _op_llvm_intr_vector_reduce_umax = _op_llvm_intr_vector_reduce_umin = _vector_reduce
    _op_llvm_intr_vector_reduce_fmax = _op_llvm_intr_vector_reduce_fmin = _vector_reduce
    _op_llvm_intr_vector_reduce_fmaximum = _op_llvm_intr_vector_reduce_fminimum = _vector_reduce
    _op_llvm_intr_vector_reduce_fadd = _op_llvm_intr_vector_reduce_fmul = _vector_reduce

    def _alignment(self, op: Operation) -> ir.Constant:
        attr = op.properties.get("alignment")
        # Without an alignment the access may be unaligned: 1 is always correct.
        value = attr.value.data if isinstance(attr, IntegerAttr) and attr.value.data else 1
        return ir.Constant(ir.IntType(32), value)

    def _op_llvm_intr_masked_load(self, op: Operation, b: ir.IRBuilder) -> None:
        # The pre-LLVM-22 form with the alignment argument: the IR parser upgrades it.
        ptr, mask = self._v(op.operands[0]), self._v(op.operands[1])
        result = llvm_type(op.results[0].type)
        assert isinstance(result, ir.VectorType)
        passthru = self._v(op.operands[2]) if len(op.operands) > 2 else Poison(result)
        align = self._alignment(op)
        name = f"llvm.masked.load.{intrinsic_suffix(result)}.{intrinsic_suffix(ptr.type)}"
        args = [ptr, align, mask, passthru]
        fn = self._function(name, ir.FunctionType(result, [a.type for a in args]))
        self._set(op, b.call(fn, args))

    def _op_llvm_intr_masked_store(self, op: Operation, b: ir.IRBuilder) -> None:
        value, ptr, mask = (self._v(a) for a in op.operands)
        assert isinstance(value.type, ir.VectorType)
        align = self._alignment(op)
        name = f"llvm.masked.store.{intrinsic_suffix(value.type)}.{intrinsic_suffix(ptr.type)}"
        args = [value, ptr, align, mask]
        fn = self._function(name, ir.FunctionType(ir.VoidType(), [a.type for a in args]))
        b.call(fn, args)
