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

The ops live in modules by family: `values` (casts, poison, freeze, extractelement, fcmp),
`memory` (getelementptr, load, store), `control` (switch), `float_ops` (float arithmetic
and intrinsics), `intrinsics` (integer and other intrinsics), `vector` (what
convert-vector-to-llvm emits: vector reductions, masked load/store, select on vectors);
`syntax` holds what they share. This module builds the dialect and names every llvm op
class the lowering passes use, xDSL's included.
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
from schedir.dialects.llvm.memory import GEPOp, LoadOp, StoreOp
from schedir.dialects.llvm.syntax import (
    FastMathAttr,
    LLVMArrayType,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
    LLVMVoidType,
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
from schedir.dialects.llvm.vector import (
    VECTOR_LLVM_OPS,
    MaskedLoadOp,
    MaskedStoreOp,
    ReduceAddOp,
    ReduceAndOp,
    ReduceFAddOp,
    ReduceFMaximumOp,
    ReduceFMaxOp,
    ReduceFMinimumOp,
    ReduceFMinOp,
    ReduceFMulOp,
    ReduceMulOp,
    ReduceOrOp,
    ReduceSMaxOp,
    ReduceSMinOp,
    ReduceUMaxOp,
    ReduceUMinOp,
    ReduceXorOp,
    SelectOp,
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

# xDSL's ops of the names schedir defines (getelementptr, load, store, fcmp, the fastmath
# ops, the vector ops) are replaced; a name is what the registry resolves.
_REPLACED = frozenset(op.name for op in _OWN_OPS)

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

__all__ = [
    "LLVM",
    "AShrOp",
    "AbsOp",
    "AddOp",
    "AddrSpaceCastOp",
    "AddressOfOp",
    "AllocaOp",
    "AndOp",
    "BitcastOp",
    "BrOp",
    "CallIntrinsicOp",
    "CallOp",
    "CondBrOp",
    "ConstantOp",
    "CountLeadingZerosOp",
    "CountTrailingZerosOp",
    "CtPopOp",
    "ExtractElementOp",
    "ExtractValueOp",
    "FAbsOp",
    "FAddOp",
    "FCeilOp",
    "FCmpOp",
    "FCmpPredicateFlag",
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
    "FPExtOp",
    "FPToSIOp",
    "FPToUIOp",
    "FPTruncOp",
    "FPowOp",
    "FRemOp",
    "FSinOp",
    "FSqrtOp",
    "FSubOp",
    "FTruncOp",
    "FastMathAttr",
    "FreezeOp",
    "FuncOp",
    "GEPOp",
    "GlobalOp",
    "ICmpOp",
    "ICmpPredicateFlag",
    "InsertElementOp",
    "InsertValueOp",
    "IntToPtrOp",
    "IsFPClassOp",
    "LLVMArrayType",
    "LLVMFunctionType",
    "LLVMPointerType",
    "LLVMStructType",
    "LLVMVoidType",
    "LShrOp",
    "LinkageAttr",
    "LoadOp",
    "Log10Op",
    "MaskedLoadOp",
    "MaskedStoreOp",
    "MaxNumOp",
    "MaximumOp",
    "MemcpyOp",
    "MinNumOp",
    "MinimumOp",
    "MulOp",
    "OrOp",
    "OverflowAttr",
    "PoisonOp",
    "PowIOp",
    "PtrToIntOp",
    "ReduceAddOp",
    "ReduceAndOp",
    "ReduceFAddOp",
    "ReduceFMaxOp",
    "ReduceFMaximumOp",
    "ReduceFMinOp",
    "ReduceFMinimumOp",
    "ReduceFMulOp",
    "ReduceMulOp",
    "ReduceOrOp",
    "ReduceSMaxOp",
    "ReduceSMinOp",
    "ReduceUMaxOp",
    "ReduceUMinOp",
    "ReduceXorOp",
    "ReturnOp",
    "RoundEvenOp",
    "RoundOp",
    "SDivOp",
    "SExtOp",
    "SIToFPOp",
    "SMaxOp",
    "SMinOp",
    "SRemOp",
    "SelectOp",
    "ShlOp",
    "ShuffleVectorOp",
    "StackRestoreOp",
    "StackSaveOp",
    "StoreOp",
    "SubOp",
    "SwitchOp",
    "TrapOp",
    "TruncOp",
    "UDivOp",
    "UIToFPOp",
    "UMaxOp",
    "UMinOp",
    "URemOp",
    "UndefOp",
    "UnreachableOp",
    "XOrOp",
    "ZExtOp",
    "ZeroOp",
]
