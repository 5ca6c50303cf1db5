"""LLVM IR translation of the `llvm.intr.*` ops: calls of the intrinsics with their mangled
names (`llvm.fabs.f32`, `llvm.memcpy.p0.p0.i64`, so one module can use an intrinsic at
several types), immediate arguments from op properties, vector reductions, and masked
loads and stores."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import llvmlite.ir as ir
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from schedir.dialects import llvm
from schedir.dialects.llvm import vector as llvm_vector
from schedir.lowering.to_llvm_ir.llvmlite_ir import (
    IRValue,
    Poison,
    fastmath_words,
    intrinsic_suffix,
    is_float,
    llvm_type,
)
from schedir.lowering.to_llvm_ir.translation import Translate, Translation

Overloads = Callable[[Operation, ir.Type, list[IRValue]], list[ir.Type]]
"""The overload types of an intrinsic call, from the op, its result type and arguments."""


def _intrinsic_name(op: Operation) -> str:
    """The LLVM intrinsic an `llvm.intr.<name>` op calls: `llvm.<name>`, unmangled."""
    return "llvm." + op.name.removeprefix("llvm.intr.")


def _by_result(op: Operation, result: ir.Type, args: list[IRValue]) -> list[ir.Type]:
    """Overloaded on the result type, or on the first argument's without a result."""
    return [result] if op.results else [args[0].type]


def _by_result_and_exponent(op: Operation, result: ir.Type, args: list[IRValue]) -> list[ir.Type]:
    return [result, args[1].type]


def _by_arguments(op: Operation, result: ir.Type, args: list[IRValue]) -> list[ir.Type]:
    return [a.type for a in args]


def _by_first_argument(op: Operation, result: ir.Type, args: list[IRValue]) -> list[ir.Type]:
    return [args[0].type]


def _not_overloaded(op: Operation, result: ir.Type, args: list[IRValue]) -> list[ir.Type]:
    return []


def _intrinsic(
    overloads: Overloads = _by_result, immediate: tuple[str, int] | None = None
) -> Translate:
    """The translation of an intrinsic op overloaded as `overloads` says; `immediate`
    (property, bit width) names the property passed as the last, immediate, argument."""

    def translate(t: Translation, op: Operation) -> None:
        base = _intrinsic_name(op)
        args = [t.value(a) for a in op.operands]
        result = llvm_type(op.results[0].type) if op.results else ir.VoidType()
        types = overloads(op, result, args)
        if immediate is not None:
            prop_name, width = immediate
            attr = op.properties.get(prop_name)
            value = attr.value.data if isinstance(attr, IntegerAttr) else 0
            args.append(ir.Constant(ir.IntType(width), value & ((1 << width) - 1)))
        name = ".".join([base, *(intrinsic_suffix(ty) for ty in types)])
        fn = t.function(name, ir.FunctionType(result, [a.type for a in args]))
        fastmath = fastmath_words(op.properties.get("fastmathFlags")) if op.results else []
        instr = t.builder.call(
            fn, args, fastmath=fastmath if is_float(op.results[0] if op.results else None) else ()
        )
        if op.results:
            t.set(op, instr)

    return translate


def _vector_reduce(t: Translation, op: Operation) -> None:
    """`llvm.vector.reduce.<kind>.<vector type>`: overloaded on the vector operand;
    fadd/fmul take the start value first (ordered unless `reassoc`)."""
    args = [t.value(a) for a in op.operands]
    result = llvm_type(op.results[0].type)
    name = f"{_intrinsic_name(op)}.{intrinsic_suffix(args[-1].type)}"
    fn = t.function(name, ir.FunctionType(result, [a.type for a in args]))
    fastmath = fastmath_words(op.properties.get("fastmathFlags"))
    t.set(op, t.builder.call(fn, args, fastmath=fastmath if is_float(op.results[0]) else ()))


def _alignment(op: llvm_vector.MaskedLoadOp | llvm_vector.MaskedStoreOp) -> ir.Constant:
    attr = op.properties.get("alignment")
    # Without an alignment the access may be unaligned: 1 is always correct.
    value = attr.value.data if isinstance(attr, IntegerAttr) and attr.value.data else 1
    return ir.Constant(ir.IntType(32), value)


def _masked_load(t: Translation, op: llvm_vector.MaskedLoadOp) -> None:
    # The pre-LLVM-22 form with the alignment argument: the IR parser upgrades it.
    ptr, mask = t.value(op.operands[0]), t.value(op.operands[1])
    result = llvm_type(op.results[0].type)
    assert isinstance(result, ir.VectorType)
    passthru = t.value(op.operands[2]) if len(op.operands) > 2 else Poison(result)
    align = _alignment(op)
    name = f"llvm.masked.load.{intrinsic_suffix(result)}.{intrinsic_suffix(ptr.type)}"
    args = [ptr, align, mask, passthru]
    fn = t.function(name, ir.FunctionType(result, [a.type for a in args]))
    t.set(op, t.builder.call(fn, args))


def _masked_store(t: Translation, op: llvm_vector.MaskedStoreOp) -> None:
    value, ptr, mask = (t.value(a) for a in op.operands)
    assert isinstance(value.type, ir.VectorType)
    align = _alignment(op)
    name = f"llvm.masked.store.{intrinsic_suffix(value.type)}.{intrinsic_suffix(ptr.type)}"
    args = [value, ptr, align, mask]
    fn = t.function(name, ir.FunctionType(ir.VoidType(), [a.type for a in args]))
    t.builder.call(fn, args)


TRANSLATIONS: Mapping[type[Operation], Translate] = {
    # float intrinsics
    llvm.FAbsOp: _intrinsic(),
    llvm.FCeilOp: _intrinsic(),
    llvm.FFloorOp: _intrinsic(),
    llvm.FTruncOp: _intrinsic(),
    llvm.RoundOp: _intrinsic(),
    llvm.RoundEvenOp: _intrinsic(),
    llvm.FSqrtOp: _intrinsic(),
    llvm.FExpOp: _intrinsic(),
    llvm.FExp2Op: _intrinsic(),
    llvm.FLogOp: _intrinsic(),
    llvm.FLog2Op: _intrinsic(),
    llvm.Log10Op: _intrinsic(),
    llvm.FSinOp: _intrinsic(),
    llvm.FCosOp: _intrinsic(),
    llvm.FPowOp: _intrinsic(),
    llvm.PowIOp: _intrinsic(_by_result_and_exponent),
    llvm.FCopySignOp: _intrinsic(),
    llvm.MaximumOp: _intrinsic(),
    llvm.MinimumOp: _intrinsic(),
    llvm.MaxNumOp: _intrinsic(),
    llvm.MinNumOp: _intrinsic(),
    llvm.FMAOp: _intrinsic(),
    llvm.FMulAddOp: _intrinsic(),
    llvm.IsFPClassOp: _intrinsic(_by_first_argument, immediate=("bit", 32)),
    # integer and other intrinsics
    llvm.SMaxOp: _intrinsic(),
    llvm.SMinOp: _intrinsic(),
    llvm.UMaxOp: _intrinsic(),
    llvm.UMinOp: _intrinsic(),
    llvm.CtPopOp: _intrinsic(),
    llvm.AbsOp: _intrinsic(immediate=("is_int_min_poison", 1)),
    llvm.CountLeadingZerosOp: _intrinsic(immediate=("is_zero_poison", 1)),
    llvm.CountTrailingZerosOp: _intrinsic(immediate=("is_zero_poison", 1)),
    llvm.MemcpyOp: _intrinsic(_by_arguments, immediate=("isVolatile", 1)),
    llvm.TrapOp: _intrinsic(_not_overloaded),
    llvm.StackSaveOp: _intrinsic(),
    llvm.StackRestoreOp: _intrinsic(_by_first_argument),
    # vector reductions and masked memory (convert-vector-to-llvm)
    llvm_vector.ReduceAddOp: _vector_reduce,
    llvm_vector.ReduceMulOp: _vector_reduce,
    llvm_vector.ReduceAndOp: _vector_reduce,
    llvm_vector.ReduceOrOp: _vector_reduce,
    llvm_vector.ReduceXorOp: _vector_reduce,
    llvm_vector.ReduceSMaxOp: _vector_reduce,
    llvm_vector.ReduceSMinOp: _vector_reduce,
    llvm_vector.ReduceUMaxOp: _vector_reduce,
    llvm_vector.ReduceUMinOp: _vector_reduce,
    llvm_vector.ReduceFMaxOp: _vector_reduce,
    llvm_vector.ReduceFMinOp: _vector_reduce,
    llvm_vector.ReduceFMaximumOp: _vector_reduce,
    llvm_vector.ReduceFMinimumOp: _vector_reduce,
    llvm_vector.ReduceFAddOp: _vector_reduce,
    llvm_vector.ReduceFMulOp: _vector_reduce,
    llvm_vector.MaskedLoadOp: _masked_load,
    llvm_vector.MaskedStoreOp: _masked_store,
}
"""The ops of this family and their translations."""

__all__ = ["TRANSLATIONS"]
