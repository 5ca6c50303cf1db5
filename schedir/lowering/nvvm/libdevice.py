"""convert-gpu-to-nvvm: math to libdevice calls (`__nv_expf`, `__nv_fast_*` under `afn`,
f16/bf16 through f32, vectors scalarized) and `math.fpowi` to `__nv_powi[f]`; see
convert_gpu_to_nvvm.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.dialects import llvm
from schedir.dialects.arith import RemFOp
from schedir.lowering.llvm.common import Handler, Lowering, unsupported
from schedir.lowering.nvvm.kernels import PASS

_FAST: frozenset[str] = frozenset(
    {"exp", "log", "sin", "cos", "tan", "pow", "log2", "log10", "exp10"}
)
"""Functions with a `__nv_fast_<name>f` variant, used under the `afn` fastmath flag."""

# ---------------------------------------------------------------------------------------
# math to libdevice


def _libdevice(base: str) -> Handler:
    """The lowering of an op to calls of libdevice function `base` (`__nv_<base>f` for
    f32, `__nv_<base>` for f64)."""

    def lower(lw: Lowering, op: Operation) -> None:
        operands = lw.values(op.operands, op)
        elem = lw.convert(op.results[0].type, op)
        if isinstance(elem, VectorType) and elem.get_num_dims() == 1:
            # Upstream's ScalarizeVectorOpLowering: libdevice has scalar functions only.
            emit = lw.emit(op)
            scalar = cast(Attribute, elem.get_element_type())
            result = emit(llvm.PoisonOp(elem))
            for i in range(elem.get_shape()[0]):
                lane = lw.constant(i, i64, op)
                args = [emit(llvm.ExtractElementOp(a, lane)) for a in operands]
                value = _libdevice_call(lw, op, base, scalar, args)
                result = emit(llvm.InsertElementOp(result, value, lane))
            lw.replace(op, [result])
            return
        lw.replace(op, [_libdevice_call(lw, op, base, elem, operands)])

    return lower


def _libdevice_call(
    lw: Lowering, op: Operation, base: str, elem: Attribute, operands: Sequence[SSAValue]
) -> SSAValue:
    """One call of libdevice function `base` for `op` on scalars of type `elem`."""
    flags = op.properties.get("fastmath") or op.attributes.get("fastmath")
    names = {getattr(f, "value", str(f)) for f in getattr(flags, "data", ()) or ()}
    fast = bool(names & {"afn", "fast"})
    if isinstance(elem, Float64Type):
        name, call_type = f"__nv_{base}", elem
    elif isinstance(elem, Float32Type | Float16Type | BFloat16Type):
        # libdevice has no half-precision functions: compute in f32, as upstream does.
        prefix = "__nv_fast_" if fast and base in _FAST else "__nv_"
        name, call_type = f"{prefix}{base}f", Float32Type()
    else:
        raise unsupported(PASS, op, f"operand type {elem} (libdevice takes f32 and f64 scalars)")
    emit = lw.emit(op)
    lw.declare(name, llvm.LLVMFunctionType([call_type] * len(operands), call_type), op)
    if call_type != elem:
        operands = [emit(llvm.FPExtOp(a, call_type)) for a in operands]
    result = emit(llvm.CallOp(name, *operands, return_type=call_type))
    if call_type != elem:
        result = emit(llvm.FPTruncOp(result, elem))
    return result


def _fpowi(lw: Lowering, op: Operation) -> None:
    base, power = lw.values(op.operands, op)
    elem = base.type
    if isinstance(elem, Float64Type):
        name = "__nv_powi"
    elif isinstance(elem, Float32Type):
        name = "__nv_powif"
    else:
        raise unsupported(PASS, op, f"operand type {elem}")
    emit = lw.emit(op)
    if power.type != i32:
        power = emit(llvm.TruncOp(power, i32))
    lw.declare(name, llvm.LLVMFunctionType([elem, i32], elem), op)
    lw.replace(op, [emit(llvm.CallOp(name, base, power, return_type=elem))])


LIBDEVICE_LOWERINGS: dict[type[Operation], Handler] = {
    math.AcosOp: _libdevice("acos"),
    math.AcoshOp: _libdevice("acosh"),
    math.AsinOp: _libdevice("asin"),
    math.AsinhOp: _libdevice("asinh"),
    math.AtanOp: _libdevice("atan"),
    math.Atan2Op: _libdevice("atan2"),
    math.AtanhOp: _libdevice("atanh"),
    math.CbrtOp: _libdevice("cbrt"),
    math.CosOp: _libdevice("cos"),
    math.CoshOp: _libdevice("cosh"),
    math.ErfOp: _libdevice("erf"),
    math.ExpOp: _libdevice("exp"),
    math.Exp2Op: _libdevice("exp2"),
    math.ExpM1Op: _libdevice("expm1"),
    math.LogOp: _libdevice("log"),
    math.Log10Op: _libdevice("log10"),
    math.Log1pOp: _libdevice("log1p"),
    math.Log2Op: _libdevice("log2"),
    math.PowFOp: _libdevice("pow"),
    math.RsqrtOp: _libdevice("rsqrt"),
    math.SinOp: _libdevice("sin"),
    math.SinhOp: _libdevice("sinh"),
    math.TanOp: _libdevice("tan"),
    math.TanhOp: _libdevice("tanh"),
    RemFOp: _libdevice("fmod"),
    math.FPowIOp: _fpowi,
}
"""The ops lowered to libdevice calls (`math.fpowi` to `__nv_powi[f]`)."""

__all__ = ["LIBDEVICE_LOWERINGS"]
