"""`convert-math-to-llvm`: math ops to LLVM intrinsics, or to libm calls where LLVM has none.

Upstream splits this over two passes: `convert-math-to-llvm` (ops with an LLVM intrinsic)
and `convert-math-to-libm` (the rest, as calls to the C math library). schedir's CPU
pipeline runs one pass that does both, with upstream's choices:

- intrinsics (fastmath flags carried over): `absf` -> `llvm.intr.fabs`, `ceil`, `floor`,
  `copysign`, `cos`, `sin`, `exp`, `exp2`, `log`, `log10`, `log2`, `powf` -> `pow`,
  `fpowi` -> `powi`, `round`, `roundeven`, `trunc`, `sqrt`, `fma`, `ctlz`/`cttz`
  (zero is not poison), `ctpop`, `absi` -> `llvm.intr.abs` (INT_MIN is not poison);
  `rsqrt` is `1 / sqrt(x)`;
- libm calls (`f` suffix for f32, none for f64; f16/bf16 are extended to f32 around the
  call and truncated back; vectors are unrolled element by element): `acos`, `acosh`,
  `asin`, `asinh`, `atan`, `atan2`, `atanh`, `cbrt`, `cosh`, `erf`, `erfc`, `expm1`,
  `log1p`, `sinh`, `tan`, `tanh`. `expm1` and `log1p` go to libm rather than upstream
  math-to-llvm's `exp(x) - 1` / `log(1 + x)`, which lose all precision near 0;
- `ipowi` calls a private helper (`__schedir_ipowi_<type>`), exponentiation by squaring
  as upstream's math-to-funcs writes it (b^0 = 1; for p < 0: 1^p = 1, (-1)^p = +-1, 0 for
  other bases, including 0 where upstream divides by zero);
- (`isnan`/`isinf`/`isfinite`/`isnormal` would become `llvm.intr.is.fpclass`; the math
  dialect has no such ops yet.)

Before:

    %e = math.exp %x : f32
    %t = math.tanh %h : f16

After:

    %e = llvm.intr.exp(%x) : (f32) -> f32
    %0 = llvm.fpext %h : f16 to f32
    %1 = llvm.call @tanhf(%0) : (f32) -> f32
    %t = llvm.fptrunc %1 : f32 to f16

with `llvm.func @tanhf(f32) -> f32` declared at the top of the module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from schedir.dialects import llvm
from schedir.dialects.llvm import vector as llvm_vector
from schedir.lowering.llvm.common import (
    Handler,
    LLVMConversionPass,
    LLVMTypeConverter,
    Lowering,
    const,
    enclosing_module,
    fastmath_to_llvm,
    first_result,
    handler_for,
    splat_const,
    unsupported,
)

PASS = "convert-math-to-llvm"


def _check(op: Operation) -> None:
    for v in (*op.operands, *op.results):
        if isinstance(v.type, VectorType) and v.type.get_num_dims() > 1:
            raise unsupported(PASS, op, f"multi-dimensional vector {v.type}")


def _intrinsic(cls: type[Operation]) -> Handler:
    """The lowering of a math op that is the LLVM intrinsic `cls` with the same operands."""

    def lower(lw: Lowering, op: Operation) -> None:
        _check(op)
        operands = lw.values(op.operands, op)
        new = cls.create(
            operands=operands,
            result_types=[lw.convert(op.results[0].type, op)],
            properties={"fastmathFlags": fastmath_to_llvm(op.properties.get("fastmath"))},
        )
        lw.insert(new, op)
        lw.replace(op, [new.results[0]])

    return lower


def _rsqrt(lw: Lowering, op: Operation) -> None:
    _check(op)
    (x,) = lw.values(op.operands, op)
    emit = lw.emit(op)
    fastmath = fastmath_to_llvm(op.properties.get("fastmath"))
    root = emit(
        llvm.FSqrtOp.create(
            operands=[x], result_types=[x.type], properties={"fastmathFlags": fastmath}
        )
    )
    one = splat_const(emit, 1.0, x.type)
    lw.replace(op, [emit(llvm.FDivOp(one, root, fastmath=fastmath))])


def _int_with_flag(cls: Callable[..., Operation]) -> Handler:
    def lower(lw: Lowering, op: Operation) -> None:
        _check(op)
        (x,) = lw.values(op.operands, op)
        new = cls(x, False)
        lw.insert(new, op)
        lw.replace(op, [new.results[0]])

    return lower


def _ctpop(lw: Lowering, op: Operation) -> None:
    _check(op)
    (x,) = lw.values(op.operands, op)
    new = llvm.CtPopOp(x)
    lw.insert(new, op)
    lw.replace(op, [new.results[0]])


def _scalarized(
    lw: Lowering,
    op: Operation,
    operands: list[SSAValue],
    result_type: Attribute,
    scalar: Callable[[Callable[[Operation], SSAValue], list[SSAValue]], SSAValue],
) -> SSAValue:
    """`scalar` applied to `operands`, element by element when they are vectors."""
    emit = lw.emit(op)
    if not isinstance(result_type, VectorType):
        return scalar(emit, operands)
    result = emit(llvm.PoisonOp(result_type))
    for i in range(result_type.get_shape()[0]):
        position = const(emit, i, i32)
        elems = [emit(llvm.ExtractElementOp(v, position)) for v in operands]
        result = emit(llvm.InsertElementOp(result, scalar(emit, elems), position))
    return result


def _libm(base: str) -> Handler:
    """The lowering of a math op with no LLVM intrinsic to the libm function `base`
    (its double-precision name)."""

    def lower(lw: Lowering, op: Operation) -> None:
        _check(op)
        operands = lw.values(op.operands, op)
        result_type = lw.convert(op.results[0].type, op)
        elem = (
            result_type.get_element_type() if isinstance(result_type, VectorType) else result_type
        )
        if isinstance(elem, Float64Type):
            name, call_type = base, elem
        elif isinstance(elem, Float32Type | Float16Type | BFloat16Type):
            # libm has no half-precision functions: compute in f32 and round back, as
            # upstream's math-to-libm does for f16/bf16.
            name, call_type = f"{base}f", Float32Type()
        else:
            raise unsupported(PASS, op, f"element type {elem}")
        ftype = llvm.LLVMFunctionType([call_type] * len(operands), call_type)
        lw.declare(name, ftype, op)

        def call(emit: Callable[[Operation], SSAValue], args: list[SSAValue]) -> SSAValue:
            if call_type != elem:
                args = [emit(llvm.FPExtOp(a, call_type)) for a in args]
            result = emit(llvm.CallOp(name, *args, return_type=call_type))
            if call_type != elem:
                result = emit(llvm.FPTruncOp(result, elem))
            return result

        lw.replace(op, [_scalarized(lw, op, operands, result_type, call)])

    return lower


def _ipowi(lw: Lowering, op: Operation) -> None:
    _check(op)
    operands = lw.values(op.operands, op)
    result_type = lw.convert(op.results[0].type, op)
    elem = result_type.get_element_type() if isinstance(result_type, VectorType) else result_type
    assert isinstance(elem, IntegerType)
    name = f"__schedir_ipowi_i{elem.width.data}"
    symbols = lw.symbols(op)
    if name not in symbols:
        symbols[name] = _add_ipowi_helper(enclosing_module(op), name, elem)

    def call(emit: Callable[[Operation], SSAValue], args: list[SSAValue]) -> SSAValue:
        return emit(llvm.CallOp(name, *args, return_type=elem))

    lw.replace(op, [_scalarized(lw, op, operands, result_type, call)])


def _add_ipowi_helper(module: ModuleOp, name: str, t: IntegerType) -> Operation:
    """`llvm.func internal @name(b, p) -> T`: b^p by squaring (upstream math-to-funcs)."""
    entry = Block(arg_types=[t, t])
    base, power = entry.args
    blocks = {k: Block() for k in ("check_neg", "negative", "neg2", "minus_one", "zero", "one")}
    loop = Block(arg_types=[t, t, t])
    next_block = Block()
    done = Block(arg_types=[t])

    def emitter(block: Block) -> Callable[[Operation], SSAValue]:
        def add(new: Operation) -> SSAValue:
            block.add_op(new)
            return first_result(new)

        return add

    e = emitter(entry)
    zero, one, minus_one = const(e, 0, t), const(e, 1, t), const(e, -1, t)

    def icmp(add: Callable[[Operation], SSAValue], a: SSAValue, b: SSAValue, p: str) -> SSAValue:
        return add(llvm.ICmpOp(a, b, _pred(p)))

    e(llvm.CondBrOp(icmp(e, power, zero, "eq"), blocks["one"], (), blocks["check_neg"], ()))
    e = emitter(blocks["check_neg"])
    e(llvm.CondBrOp(icmp(e, power, zero, "slt"), blocks["negative"], (), loop, (one, base, power)))
    e = emitter(blocks["negative"])
    e(llvm.CondBrOp(icmp(e, base, one, "eq"), blocks["one"], (), blocks["neg2"], ()))
    e = emitter(blocks["neg2"])
    e(llvm.CondBrOp(icmp(e, base, minus_one, "eq"), blocks["minus_one"], (), blocks["zero"], ()))
    e = emitter(blocks["minus_one"])
    odd = icmp(e, e(llvm.AndOp(power, one)), zero, "ne")
    e(llvm.ReturnOp(e(llvm_vector.SelectOp(odd, minus_one, one))))
    emitter(blocks["zero"])(llvm.ReturnOp(zero))
    emitter(blocks["one"])(llvm.ReturnOp(one))
    e = emitter(loop)
    result, square, exponent = loop.args
    bit_set = icmp(e, e(llvm.AndOp(exponent, one)), zero, "ne")
    result = e(llvm_vector.SelectOp(bit_set, e(llvm.MulOp(result, square)), result))
    exponent = e(llvm.LShrOp(exponent, one))
    e(llvm.CondBrOp(icmp(e, exponent, zero, "eq"), done, (result,), next_block, ()))
    e = emitter(next_block)
    e(llvm.BrOp(loop, result, e(llvm.MulOp(square, square)), exponent))
    emitter(done)(llvm.ReturnOp(done.args[0]))

    region = Region([entry, *blocks.values(), loop, next_block, done])
    helper = llvm.FuncOp(
        name,
        llvm.LLVMFunctionType([t, t], t),
        linkage=llvm.LinkageAttr("internal"),
        body=region,
    )
    module.body.block.add_op(helper)
    return helper


def _pred(name: str) -> IntegerAttr[IntegerType]:
    return IntegerAttr(llvm.ICmpPredicateFlag(name).to_int(), i64)


_HANDLERS: dict[type[Operation], Handler] = {
    # one LLVM intrinsic with the same operands
    math.AbsFOp: _intrinsic(llvm.FAbsOp),
    math.CeilOp: _intrinsic(llvm.FCeilOp),
    math.FloorOp: _intrinsic(llvm.FFloorOp),
    math.CopySignOp: _intrinsic(llvm.FCopySignOp),
    math.CosOp: _intrinsic(llvm.FCosOp),
    math.SinOp: _intrinsic(llvm.FSinOp),
    math.ExpOp: _intrinsic(llvm.FExpOp),
    math.Exp2Op: _intrinsic(llvm.FExp2Op),
    math.LogOp: _intrinsic(llvm.FLogOp),
    math.Log10Op: _intrinsic(llvm.Log10Op),
    math.Log2Op: _intrinsic(llvm.FLog2Op),
    math.PowFOp: _intrinsic(llvm.FPowOp),
    math.RoundOp: _intrinsic(llvm.RoundOp),
    math.RoundEvenOp: _intrinsic(llvm.RoundEvenOp),
    math.TruncOp: _intrinsic(llvm.FTruncOp),
    math.SqrtOp: _intrinsic(llvm.FSqrtOp),
    math.FmaOp: _intrinsic(llvm.FMAOp),
    math.FPowIOp: _intrinsic(llvm.PowIOp),
    # no LLVM intrinsic: the libm function (double-precision name)
    math.AcosOp: _libm("acos"),
    math.AcoshOp: _libm("acosh"),
    math.AsinOp: _libm("asin"),
    math.AsinhOp: _libm("asinh"),
    math.AtanOp: _libm("atan"),
    math.Atan2Op: _libm("atan2"),
    math.AtanhOp: _libm("atanh"),
    math.CbrtOp: _libm("cbrt"),
    math.CoshOp: _libm("cosh"),
    math.ErfOp: _libm("erf"),
    math.ExpM1Op: _libm("expm1"),
    math.Log1pOp: _libm("log1p"),
    math.SinhOp: _libm("sinh"),
    math.TanOp: _libm("tan"),
    math.TanhOp: _libm("tanh"),
    math.RsqrtOp: _rsqrt,
    math.CountLeadingZerosOp: _int_with_flag(llvm.CountLeadingZerosOp),
    math.CountTrailingZerosOp: _int_with_flag(llvm.CountTrailingZerosOp),
    math.AbsIOp: _int_with_flag(llvm.AbsOp),
    math.CtPopOp: _ctpop,
    math.IPowIOp: _ipowi,
}
"""Lowering of each math op."""

_MATH_OPS: tuple[type[Operation], ...] = tuple(math.Math.operations)


def lower_math(module: ModuleOp, converter: LLVMTypeConverter | None = None) -> None:
    """Replace every math op in `module` by LLVM intrinsics and libm calls."""
    lw = Lowering(converter or LLVMTypeConverter(), PASS)
    for op in list(module.walk()):
        handler = handler_for(_HANDLERS, op)
        if handler is None:
            if isinstance(op, _MATH_OPS):
                raise unsupported(PASS, op)
            continue
        handler(lw, op)
    lw.finish()


@dataclass(frozen=True)
class ConvertMathToLLVMPass(LLVMConversionPass):
    """Lower the math dialect to LLVM intrinsics and libm calls (see the module docstring)."""

    name = "convert-math-to-llvm"

    def convert(self, module: ModuleOp, converter: LLVMTypeConverter) -> None:
        lower_math(module, converter)


__all__ = ["ConvertMathToLLVMPass", "lower_math"]
