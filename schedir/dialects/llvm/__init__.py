"""The llvm dialect as schedir uses it: xDSL's ops, completed and corrected.

xDSL's `llvm` dialect covers most of what the lowering passes emit. This module adds what is
missing (casts `fptosi`/`fptoui`/`uitofp`/`addrspacecast`, `extractelement`, `mlir.poison`,
`freeze`, `switch`, and the intrinsics the arith/math/memref lowerings need) and replaces the
ops whose syntax drifted from upstream MLIR:

- `llvm.getelementptr` carries upstream's no-wrap flags (`inbounds|nuw`), which xDSL
  cannot parse;
- `llvm.load`/`llvm.store` print their alignment the way current upstream does
  (`<alignment = 4>`) and accept the older spellings (`{alignment = 4 : i64}` and the
  properties dictionary `<{alignment = 4 : i64}>`).

Ops are written with upstream MLIR's custom syntax (checked against MLIR 24git's printer);
upstream ops without a custom form (`llvm.intr.abs`, `llvm.intr.ctlz`, `llvm.intr.memcpy`,
...) print in generic form, as upstream does.

The ops live in sibling modules by family: `_llvm_values` (casts, poison, freeze,
extractelement, fcmp), `_llvm_memory` (getelementptr, load, store), `_llvm_control`
(switch), `_llvm_float` (float arithmetic and intrinsics), `_llvm_intrinsics` (integer and
other intrinsics); `_llvm_syntax` holds what they share. This module registers them.
"""

from __future__ import annotations

from xdsl.dialects import llvm as _x
from xdsl.ir import Dialect, Operation

from schedir.dialects.llvm.control import SwitchOp
from schedir.dialects.llvm.float_ops import (
    FAbsOp,
    FAddOp,
    FCeilOp,
    FCopySignOp,
    FCosOp,
    FDivOp,
    FExp2Op,
    FExpOp,
    FFloorOp,
    FLog2Op,
    FLogOp,
    FMAOp,
    FMulAddOp,
    FMulOp,
    FNegOp,
    FPowOp,
    FRemOp,
    FSinOp,
    FSqrtOp,
    FSubOp,
    FTruncOp,
    Log10Op,
    MaximumOp,
    MaxNumOp,
    MinimumOp,
    MinNumOp,
    PowIOp,
    RoundEvenOp,
    RoundOp,
)
from schedir.dialects.llvm.intrinsics import (
    FPCLASS_FINITE,
    FPCLASS_INF,
    FPCLASS_NAN,
    FPCLASS_NORMAL,
    INTRINSIC_FLAG_NAMES,
    AbsOp,
    CountLeadingZerosOp,
    CountTrailingZerosOp,
    CtPopOp,
    IsFPClassOp,
    MemcpyOp,
    SMaxOp,
    SMinOp,
    TrapOp,
    UMaxOp,
    UMinOp,
)
from schedir.dialects.llvm.memory import GEPOp, LoadOp, StoreOp, gep_flags_to_str
from schedir.dialects.llvm.syntax import (
    FastMathAttr,
    LLVMArrayType,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
    LLVMVoidType,
    is_signless_int,
    parse_fastmath,
    print_fastmath,
)
from schedir.dialects.llvm.values import (
    AddrSpaceCastOp,
    ExtractElementOp,
    FCmpOp,
    FPToSIOp,
    FPToUIOp,
    FreezeOp,
    PoisonOp,
    UIToFPOp,
)

_FASTMATH_OPS: tuple[type[Operation], ...] = (
    FAddOp,
    FSubOp,
    FMulOp,
    FDivOp,
    FRemOp,
    FNegOp,
    FAbsOp,
    FCeilOp,
    FFloorOp,
    FTruncOp,
    RoundOp,
    RoundEvenOp,
    FSqrtOp,
    FExpOp,
    FExp2Op,
    FLogOp,
    FLog2Op,
    Log10Op,
    FSinOp,
    FCosOp,
    FPowOp,
    PowIOp,
    FCopySignOp,
    MaximumOp,
    MinimumOp,
    MaxNumOp,
    MinNumOp,
    FMAOp,
    FMulAddOp,
)

# Vector reductions, masked loads/stores and a vector-condition select, for
# convert-vector-to-llvm (schedir/dialects/_vector_llvm.py).
from schedir.dialects.llvm.vector import VECTOR_LLVM_OPS  # noqa: E402

_REPLACED = frozenset(
    {"llvm.getelementptr", "llvm.load", "llvm.store", "llvm.fcmp"}
    | {op.name for op in _FASTMATH_OPS}
    | {op.name for op in VECTOR_LLVM_OPS}
)
"""xDSL ops schedir replaces with its own definitions (syntax drift)."""

_OWN_OPS: tuple[type[Operation], ...] = (
    FPToSIOp,
    FPToUIOp,
    UIToFPOp,
    AddrSpaceCastOp,
    PoisonOp,
    FreezeOp,
    ExtractElementOp,
    FCmpOp,
    GEPOp,
    LoadOp,
    StoreOp,
    SwitchOp,
    *_FASTMATH_OPS,
    SMaxOp,
    SMinOp,
    UMaxOp,
    UMinOp,
    CtPopOp,
    AbsOp,
    CountLeadingZerosOp,
    CountTrailingZerosOp,
    IsFPClassOp,
    MemcpyOp,
    TrapOp,
    *VECTOR_LLVM_OPS,
)

LLVM = Dialect(
    "llvm",
    [
        *(op for op in _x.LLVM.operations if op.name not in _REPLACED),
        *_OWN_OPS,
    ],
    list(_x.LLVM.attributes),
)
"""xDSL's llvm dialect with schedir's additions and replacements."""

# Re-exported xDSL ops, so the lowering passes import every llvm op from one place.
AddOp = _x.AddOp
SubOp = _x.SubOp
MulOp = _x.MulOp
SDivOp = _x.SDivOp
UDivOp = _x.UDivOp
SRemOp = _x.SRemOp
URemOp = _x.URemOp
AndOp = _x.AndOp
OrOp = _x.OrOp
XOrOp = _x.XOrOp
ShlOp = _x.ShlOp
LShrOp = _x.LShrOp
AShrOp = _x.AShrOp
ICmpOp = _x.ICmpOp
SelectOp = VECTOR_LLVM_OPS[-1]  # vector conditions too (schedir/dialects/_vector_llvm.py)
TruncOp = _x.TruncOp
ZExtOp = _x.ZExtOp
SExtOp = _x.SExtOp
SIToFPOp = _x.SIToFPOp
FPExtOp = _x.FPExtOp
FPTruncOp = _x.FPTruncOp
BitcastOp = _x.BitcastOp
PtrToIntOp = _x.PtrToIntOp
IntToPtrOp = _x.IntToPtrOp
ConstantOp = _x.ConstantOp
UndefOp = _x.UndefOp
ZeroOp = _x.ZeroOp
ExtractValueOp = _x.ExtractValueOp
InsertValueOp = _x.InsertValueOp
InsertElementOp = _x.InsertElementOp
ShuffleVectorOp = _x.ShuffleVectorOp
AllocaOp = _x.AllocaOp
CallOp = _x.CallOp
CallIntrinsicOp = _x.CallIntrinsicOp
FuncOp = _x.FuncOp
ReturnOp = _x.ReturnOp
BrOp = _x.BrOp
CondBrOp = _x.CondBrOp
UnreachableOp = _x.UnreachableOp
GlobalOp = _x.GlobalOp
AddressOfOp = _x.AddressOfOp
StackSaveOp = _x.StackSaveOp
StackRestoreOp = _x.StackRestoreOp
LinkageAttr = _x.LinkageAttr
ICmpPredicateFlag = _x.ICmpPredicateFlag
FCmpPredicateFlag = _x.FCmpPredicateFlag
OverflowAttr = _x.OverflowAttr
GEP_USE_SSA_VAL = _x.GEP_USE_SSA_VAL

__all__ = [
    "FPCLASS_FINITE",
    "FPCLASS_INF",
    "FPCLASS_NAN",
    "FPCLASS_NORMAL",
    "INTRINSIC_FLAG_NAMES",
    "LLVM",
    "AbsOp",
    "AddrSpaceCastOp",
    "CountLeadingZerosOp",
    "CountTrailingZerosOp",
    "CtPopOp",
    "ExtractElementOp",
    "FAbsOp",
    "FAddOp",
    "FCeilOp",
    "FCmpOp",
    "FCopySignOp",
    "FCosOp",
    "FDivOp",
    "FExp2Op",
    "FExpOp",
    "FFloorOp",
    "FLog2Op",
    "FLogOp",
    "FMAOp",
    "FMulAddOp",
    "FMulOp",
    "FNegOp",
    "FPToSIOp",
    "FPToUIOp",
    "FPowOp",
    "FRemOp",
    "FSinOp",
    "FSqrtOp",
    "FSubOp",
    "FTruncOp",
    "FastMathAttr",
    "FreezeOp",
    "GEPOp",
    "IsFPClassOp",
    "LLVMArrayType",
    "LLVMFunctionType",
    "LLVMPointerType",
    "LLVMStructType",
    "LLVMVoidType",
    "LoadOp",
    "Log10Op",
    "MaxNumOp",
    "MaximumOp",
    "MemcpyOp",
    "MinNumOp",
    "MinimumOp",
    "PoisonOp",
    "PowIOp",
    "RoundEvenOp",
    "RoundOp",
    "SMaxOp",
    "SMinOp",
    "StoreOp",
    "SwitchOp",
    "TrapOp",
    "UIToFPOp",
    "UMaxOp",
    "UMinOp",
    "gep_flags_to_str",
    "is_signless_int",
    "parse_fastmath",
    "print_fastmath",
]
