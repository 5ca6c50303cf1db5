"""convert-gpu-to-nvvm: math to libdevice calls (`__nv_expf`, `__nv_fast_*` under `afn`,
f16/bf16 through f32, vectors scalarized) and `math.fpowi` to `__nv_powi[f]`; see
convert_gpu_to_nvvm.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

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
from schedir.lowering.llvm.common import Lowering, unsupported
from schedir.lowering.nvvm.kernels import PASS

LIBDEVICE: dict[str, str] = {
    "math.acos": "acos",
    "math.acosh": "acosh",
    "math.asin": "asin",
    "math.asinh": "asinh",
    "math.atan": "atan",
    "math.atan2": "atan2",
    "math.atanh": "atanh",
    "math.cbrt": "cbrt",
    "math.cos": "cos",
    "math.cosh": "cosh",
    "math.erf": "erf",
    "math.erfc": "erfc",
    "math.exp": "exp",
    "math.exp2": "exp2",
    "math.expm1": "expm1",
    "math.log": "log",
    "math.log10": "log10",
    "math.log1p": "log1p",
    "math.log2": "log2",
    "math.powf": "pow",
    "math.rsqrt": "rsqrt",
    "math.sin": "sin",
    "math.sinh": "sinh",
    "math.tan": "tan",
    "math.tanh": "tanh",
    "arith.remf": "fmod",
}
"""Ops lowered to libdevice calls (`__nv_<name>f` for f32, `__nv_<name>` for f64)."""

_FAST: frozenset[str] = frozenset(
    {"exp", "log", "sin", "cos", "tan", "pow", "log2", "log10", "exp10"}
)
"""Functions with a `__nv_fast_<name>f` variant, used under the `afn` fastmath flag."""

# ---------------------------------------------------------------------------------------
# math to libdevice


def lower_libdevice(lw: Lowering, op: Operation) -> None:
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
            value = _libdevice_call(lw, op, scalar, args)
            result = emit(llvm.InsertElementOp(result, value, lane))
        lw.replace(op, [result])
        return
    lw.replace(op, [_libdevice_call(lw, op, elem, operands)])


def _libdevice_call(
    lw: Lowering, op: Operation, elem: Attribute, operands: Sequence[SSAValue]
) -> SSAValue:
    """One call of the libdevice function of `op` on scalars of type `elem`."""
    base = LIBDEVICE[op.name]
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


def lower_fpowi(lw: Lowering, op: Operation) -> None:
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
