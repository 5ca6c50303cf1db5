"""`convert-arith-to-llvm`: every arith op to the LLVM dialect, as upstream's ArithToLLVM.

Integer, index and float arithmetic map one to one onto LLVM instructions (`index` is
`i64`; overflow and fastmath flags carry over); comparisons become `llvm.icmp`/`llvm.fcmp`
with the same predicate; casts become the LLVM cast of the same meaning (`index_cast` is a
`sext`/`trunc`, or nothing between `index` and `i64`). Min/max keep their NaN semantics:
`maximumf`/`minimumf` (NaN-propagating, -0 < +0) -> `llvm.intr.maximum`/`minimum`,
`maxnumf`/`minnumf` (NaN-ignoring) -> `llvm.intr.maxnum`/`minnum`, integer min/max ->
`llvm.intr.smax`/`smin`/`umax`/`umin`. The ops upstream expands first (`arith-expand`)
are expanded here with the same formulas: `ceildivui`, `ceildivsi`, `floordivsi`, and
the extended ops `addui_extended`, `mulsi_extended`, `mului_extended`.

Values of types the pass changes (`index`, vectors of index) reach unconverted users
through `builtin.unrealized_conversion_cast`, removed by `reconcile-unrealized-casts`.

Before:

    %s = arith.addi %a, %b : index
    %m = arith.maximumf %x, %y : f32

After:

    %0 = builtin.unrealized_conversion_cast %a : index to i64
    %1 = builtin.unrealized_conversion_cast %b : index to i64
    %2 = llvm.add %0, %1 : i64
    %s = builtin.unrealized_conversion_cast %2 : i64 to index
    %m = llvm.intr.maximum(%x, %y) : (f32, f32) -> f32

Not handled: tensor-typed constants and ops (bufferize first), `truncf` with an explicit
rounding mode, multi-dimensional vector operands (lower vectors to 1-D first).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.type import get_element_type_or_self

from schedir.dialects import llvm
from schedir.dialects.arith import Arith, IndexCastUIOp, RemFOp
from schedir.dialects.llvm import vector as llvm_vector
from schedir.lowering.llvm.common import (
    INDEX,
    Handler,
    LLVMConversionPass,
    LLVMTypeConverter,
    Lowering,
    attr_of,
    fastmath_to_llvm,
    handler_for,
    splat_const,
    unsupported,
)

PASS = "convert-arith-to-llvm"


def _overflow(op: Operation) -> IntegerAttr:
    """arith `overflow<nsw, nuw>` -> llvm `overflowFlags` (nsw = 1, nuw = 2)."""
    attr = op.properties.get("overflowFlags")
    bits = 0
    for flag in getattr(attr, "data", None) or ():
        bits |= {"nsw": 1, "nuw": 2}[flag.value]
    return IntegerAttr(bits, 32)


def _check_rank(lw: Lowering, op: Operation) -> None:
    for v in (*op.operands, *op.results):
        if isinstance(v.type, VectorType) and v.type.get_num_dims() > 1:
            raise unsupported(PASS, op, f"multi-dimensional vector {v.type}")


def _int_binary(cls: Callable[..., Operation], *, overflow: bool = False) -> Handler:
    def lower(lw: Lowering, op: Operation) -> None:
        _check_rank(lw, op)
        a, b = lw.values(op.operands, op)
        new = cls(a, b)
        if overflow:
            new.properties["overflowFlags"] = _overflow(op)
        lw.insert(new, op)
        lw.replace(op, [new.results[0]])

    return lower


def _float_binary(cls: Callable[..., Operation]) -> Handler:
    def lower(lw: Lowering, op: Operation) -> None:
        _check_rank(lw, op)
        a, b = lw.values(op.operands, op)
        new = cls(a, b, fastmath=fastmath_to_llvm(op.properties.get("fastmath")))
        lw.insert(new, op)
        lw.replace(op, [new.results[0]])

    return lower


def _cast(cls: Callable[..., Operation]) -> Handler:
    def lower(lw: Lowering, op: Operation) -> None:
        _check_rank(lw, op)
        (a,) = lw.values(op.operands, op)
        target = lw.convert(op.results[0].type, op)
        if a.type == target:
            lw.replace(op, [a])
            return
        new = cls(a, target)
        lw.insert(new, op)
        lw.replace(op, [new.results[0]])

    return lower


def _width(t: Attribute) -> int:
    elem = get_element_type_or_self(t)
    if isinstance(elem, IndexType):
        return INDEX.width.data
    assert isinstance(elem, IntegerType)
    return elem.width.data


def _int_resize(*, signed: bool) -> Handler:
    """`index_cast`/`index_castui`: extend (sign or zero), truncate or nothing."""

    def lower(lw: Lowering, op: Operation) -> None:
        _check_rank(lw, op)
        (a,) = lw.values(op.operands, op)
        target = lw.convert(op.results[0].type, op)
        src, dst = _width(a.type), _width(target)
        if src == dst:
            lw.replace(op, [a])
            return
        if src > dst:
            new: Operation = llvm.TruncOp(a, target)
        elif signed:
            new = llvm.SExtOp(a, target)
        else:
            new = llvm.ZExtOp(a, target)
        lw.insert(new, op)
        lw.replace(op, [new.results[0]])

    return lower


def _constant(lw: Lowering, op: Operation) -> None:
    value = attr_of(op, "value")
    target = lw.convert(op.results[0].type, op)
    if isinstance(value, IntegerAttr):
        if isinstance(target, IntegerType) and target.width.data == 1:
            attr: Attribute = IntegerAttr(int(bool(value.value.data)), i1)
        else:
            assert isinstance(target, IntegerType)
            attr = IntegerAttr(value.value.data, target)
    elif isinstance(value, FloatAttr):
        attr = value
    elif isinstance(value, DenseIntOrFPElementsAttr) and isinstance(target, VectorType):
        if target.get_num_dims() != 1:
            raise unsupported(PASS, op, "multi-dimensional vector constant")
        if isinstance(value.get_element_type(), IndexType) or value.get_type() != target:
            # index elements become i64; a 0-D vector becomes a one-lane one
            attr = DenseIntOrFPElementsAttr.from_list(target, value.get_values())
        else:
            attr = value
    else:
        raise unsupported(PASS, op, f"constant {value} of type {op.results[0].type}")
    new = llvm.ConstantOp(attr, target)
    lw.insert(new, op)
    lw.replace(op, [new.results[0]])


def _cmpi(lw: Lowering, op: Operation) -> None:
    _check_rank(lw, op)
    a, b = lw.values(op.operands, op)
    predicate = op.properties["predicate"]
    assert isinstance(predicate, IntegerAttr)
    # arith and llvm number the integer predicates the same way (eq, ne, slt, ..., uge).
    new = llvm.ICmpOp(a, b, IntegerAttr(predicate.value.data, i64))
    lw.insert(new, op)
    lw.replace(op, [new.results[0]])


def _cmpf(lw: Lowering, op: Operation) -> None:
    _check_rank(lw, op)
    a, b = lw.values(op.operands, op)
    predicate = op.properties["predicate"]
    assert isinstance(predicate, IntegerAttr)
    # Same order as arith's CmpFPredicate (false, oeq, ..., uno, true).
    flag = llvm.FCmpPredicateFlag.from_int(predicate.value.data)
    new = llvm.FCmpOp(a, b, flag.value, fastmath_to_llvm(op.properties.get("fastmath")))
    lw.insert(new, op)
    lw.replace(op, [new.results[0]])


def _select(lw: Lowering, op: Operation) -> None:
    _check_rank(lw, op)
    c, a, b = lw.values(op.operands, op)
    new = llvm_vector.SelectOp(c, a, b)
    lw.insert(new, op)
    lw.replace(op, [new.results[0]])


def _negf(lw: Lowering, op: Operation) -> None:
    _check_rank(lw, op)
    (a,) = lw.values(op.operands, op)
    new = llvm.FNegOp(a, fastmath=fastmath_to_llvm(op.properties.get("fastmath")))
    lw.insert(new, op)
    lw.replace(op, [new.results[0]])


def _truncf(lw: Lowering, op: Operation) -> None:
    if op.properties.get("roundingmode") is not None:
        raise unsupported(PASS, op, "an explicit rounding mode")
    _cast(llvm.FPTruncOp)(lw, op)


# -- expansions (upstream's arith-expand) ------------------------------------------------


def _ceildivui(lw: Lowering, op: Operation) -> None:
    """ceil(a / b) = a == 0 ? 0 : (a - 1) / b + 1 (unsigned)."""
    _check_rank(lw, op)
    a, b = lw.values(op.operands, op)
    emit = lw.emit(op)
    zero = splat_const(emit, 0, a.type)
    one = splat_const(emit, 1, a.type)
    is_zero = emit(llvm.ICmpOp(a, zero, _pred("eq")))
    minus_one = emit(llvm.SubOp(a, one))
    quotient = emit(llvm.UDivOp(minus_one, b))
    plus_one = emit(llvm.AddOp(quotient, one))
    lw.replace(op, [emit(llvm_vector.SelectOp(is_zero, zero, plus_one))])


def _signed_div_round(lw: Lowering, op: Operation, *, ceil: bool) -> None:
    """Upstream's overflow-free expansion of `ceildivsi` / `floordivsi`.

    q = a / b (truncating); if a != q * b and the true quotient is positive (ceil) or
    negative (floor), step q by one toward +inf (ceil) or -inf (floor).
    """
    _check_rank(lw, op)
    a, b = lw.values(op.operands, op)
    emit = lw.emit(op)
    zero = splat_const(emit, 0, a.type)
    one = splat_const(emit, 1, a.type)
    quotient = emit(llvm.SDivOp(a, b))
    product = emit(llvm.MulOp(quotient, b))
    inexact = emit(llvm.ICmpOp(a, product, _pred("ne")))
    a_neg = emit(llvm.ICmpOp(a, zero, _pred("slt")))
    b_neg = emit(llvm.ICmpOp(b, zero, _pred("slt")))
    same_sign = emit(llvm.ICmpOp(a_neg, b_neg, _pred("eq" if ceil else "ne")))
    adjust = emit(llvm.AndOp(inexact, same_sign))
    stepped = emit(llvm.AddOp(quotient, one) if ceil else llvm.SubOp(quotient, one))
    lw.replace(op, [emit(llvm_vector.SelectOp(adjust, stepped, quotient))])


def _addui_extended(lw: Lowering, op: Operation) -> None:
    """sum = a + b; overflow = sum <u a."""
    _check_rank(lw, op)
    a, b = lw.values(op.operands, op)
    emit = lw.emit(op)
    total = emit(llvm.AddOp(a, b))
    overflow = emit(llvm.ICmpOp(total, a, _pred("ult")))
    lw.replace(op, [total, overflow])


def _mul_extended(*, signed: bool) -> Handler:
    """(low, high) halves of the double-width product."""

    def lower(lw: Lowering, op: Operation) -> None:
        _check_rank(lw, op)
        a, b = lw.values(op.operands, op)
        emit = lw.emit(op)
        width = _width(a.type)
        wide_elem = IntegerType(2 * width)
        wide: Attribute = (
            VectorType(wide_elem, a.type.get_shape())
            if isinstance(a.type, VectorType)
            else wide_elem
        )
        ext = llvm.SExtOp if signed else llvm.ZExtOp
        product = emit(llvm.MulOp(emit(ext(a, wide)), emit(ext(b, wide))))
        low = emit(llvm.TruncOp(product, a.type))
        shifted = emit(llvm.LShrOp(product, splat_const(emit, width, wide)))
        high = emit(llvm.TruncOp(shifted, a.type))
        lw.replace(op, [low, high])

    return lower


def _pred(name: str) -> IntegerAttr[IntegerType]:
    return IntegerAttr(llvm.ICmpPredicateFlag(name).to_int(), i64)


_HANDLERS: dict[type[Operation], Handler] = {
    arith.ConstantOp: _constant,
    arith.AddiOp: _int_binary(llvm.AddOp, overflow=True),
    arith.SubiOp: _int_binary(llvm.SubOp, overflow=True),
    arith.MuliOp: _int_binary(llvm.MulOp, overflow=True),
    arith.ShLIOp: _int_binary(llvm.ShlOp, overflow=True),
    arith.DivUIOp: _int_binary(llvm.UDivOp),
    arith.DivSIOp: _int_binary(llvm.SDivOp),
    arith.RemUIOp: _int_binary(llvm.URemOp),
    arith.RemSIOp: _int_binary(llvm.SRemOp),
    arith.AndIOp: _int_binary(llvm.AndOp),
    arith.OrIOp: _int_binary(llvm.OrOp),
    arith.XOrIOp: _int_binary(llvm.XOrOp),
    arith.ShRUIOp: _int_binary(llvm.LShrOp),
    arith.ShRSIOp: _int_binary(llvm.AShrOp),
    arith.MaxSIOp: _int_binary(llvm.SMaxOp),
    arith.MinSIOp: _int_binary(llvm.SMinOp),
    arith.MaxUIOp: _int_binary(llvm.UMaxOp),
    arith.MinUIOp: _int_binary(llvm.UMinOp),
    arith.AddfOp: _float_binary(llvm.FAddOp),
    arith.SubfOp: _float_binary(llvm.FSubOp),
    arith.MulfOp: _float_binary(llvm.FMulOp),
    arith.DivfOp: _float_binary(llvm.FDivOp),
    RemFOp: _float_binary(llvm.FRemOp),
    arith.MaximumfOp: _float_binary(llvm.MaximumOp),
    arith.MinimumfOp: _float_binary(llvm.MinimumOp),
    arith.MaxnumfOp: _float_binary(llvm.MaxNumOp),
    arith.MinnumfOp: _float_binary(llvm.MinNumOp),
    arith.NegfOp: _negf,
    arith.CmpiOp: _cmpi,
    arith.CmpfOp: _cmpf,
    arith.SelectOp: _select,
    arith.ExtFOp: _cast(llvm.FPExtOp),
    arith.TruncFOp: _truncf,
    arith.ExtSIOp: _cast(llvm.SExtOp),
    arith.ExtUIOp: _cast(llvm.ZExtOp),
    arith.TruncIOp: _cast(llvm.TruncOp),
    arith.SIToFPOp: _cast(llvm.SIToFPOp),
    arith.UIToFPOp: _cast(llvm.UIToFPOp),
    arith.FPToSIOp: _cast(llvm.FPToSIOp),
    arith.FPToUIOp: _cast(llvm.FPToUIOp),
    arith.BitcastOp: _cast(llvm.BitcastOp),
    arith.IndexCastOp: _int_resize(signed=True),
    IndexCastUIOp: _int_resize(signed=False),
    arith.CeilDivUIOp: _ceildivui,
    arith.CeilDivSIOp: lambda lw, op: _signed_div_round(lw, op, ceil=True),
    arith.FloorDivSIOp: lambda lw, op: _signed_div_round(lw, op, ceil=False),
    arith.AddUIExtendedOp: _addui_extended,
    arith.MulSIExtendedOp: _mul_extended(signed=True),
    arith.MulUIExtendedOp: _mul_extended(signed=False),
}
"""Lowering of each arith op, keyed by xDSL's class (schedir's replacements subclass it)."""

_ARITH_OPS: tuple[type[Operation], ...] = tuple(Arith.operations)


def lower_arith(module: ModuleOp, converter: LLVMTypeConverter | None = None) -> None:
    """Replace every arith op in `module` by LLVM dialect ops."""
    lw = Lowering(converter or LLVMTypeConverter(), PASS)
    for op in list(module.walk()):
        handler = handler_for(_HANDLERS, op)
        if handler is None:
            if isinstance(op, _ARITH_OPS):
                raise unsupported(PASS, op)
            continue
        for v in (*op.operands, *op.results):
            lw.convert(v.type, op)  # report unconvertible (e.g. tensor) types at the op
        handler(lw, op)
    lw.finish()


@dataclass(frozen=True)
class ConvertArithToLLVMPass(LLVMConversionPass):
    """Lower the arith dialect to the LLVM dialect (see the module docstring)."""

    name = "convert-arith-to-llvm"

    def convert(self, module: ModuleOp, converter: LLVMTypeConverter) -> None:
        lower_arith(module, converter)


__all__ = ["ConvertArithToLLVMPass", "lower_arith"]
