"""llvmlite pieces the LLVM IR translation needs and llvmlite lacks or prints wrong.

`bfloat` as a type with `0xR...` constants; `poison`; float constants printed exactly;
nested array/vector constants from dense attributes; instructions with flags or forms
llvmlite cannot express (`getelementptr inbounds nuw` on any address space, `freeze`,
`alloca ... addrspace(N)`, casts with `nneg`, volatile loads/stores); LLVM string function
attributes; intrinsic name mangling; calls through function pointers.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, Protocol, cast

import llvmlite.ir as ir
from llvmlite.ir import instructions as ir_instr
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, SSAValue

from schedir.diagnostics import UnsupportedError
from schedir.dialects import llvm

IRValue = ir.NamedValue | ir.Constant
"""A translated SSA value: an instruction, argument, global or constant (each has a type;
llvmlite's `ir.Value` base class does not declare one)."""


class _Aligned(Protocol):
    align: int | None


class _Initialized(Protocol):
    initializer: ir.Constant | None


def set_alignment(value: ir.Instruction | ir.GlobalVariable, align: int) -> None:
    """Give a load, store or global an alignment."""
    # llvmlite sets `align` without declaring it (or declares it by assigning None).
    cast(_Aligned, value).align = align


def set_initializer(value: ir.GlobalVariable, initializer: ir.Constant) -> None:
    """Give a global variable its initial value."""
    # llvmlite declares `initializer` by assigning None.
    cast(_Initialized, value).initializer = initializer


# ---------------------------------------------------------------------------------------
# types and constants


class BFloatType(ir.types._BaseFloatType):
    """LLVM's `bfloat`; constants print as `0xR` + the 16 bits (round to nearest even)."""

    null = "0.0"
    intrinsic_name = "bf16"

    def __str__(self) -> str:
        return "bfloat"

    def format_constant(self, value: float) -> str:
        return f"0xR{bf16_bits(value):04X}"


BFloatType._create_instance()
BFLOAT = BFloatType()


def bf16_bits(value: float) -> int:
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if value != value:  # NaN: keep it a quiet NaN of the same sign
        return (bits >> 16) | 0x40
    rounding = 0x7FFF + ((bits >> 16) & 1)
    return ((bits + rounding) >> 16) & 0xFFFF


class Poison(ir.Constant):
    """`poison` of a type (llvmlite has only `undef`)."""

    def __init__(self, typ: ir.Type) -> None:
        super().__init__(typ, None)

    def _get_reference(self) -> str:
        return "poison"


def llvm_type(t: Attribute) -> ir.Type:
    """The llvmlite type of an LLVM-dialect type."""
    match t:
        case IntegerType():
            return ir.IntType(t.width.data)
        case Float16Type():
            return ir.HalfType()
        case BFloat16Type():
            return BFLOAT
        case Float32Type():
            return ir.FloatType()
        case Float64Type():
            return ir.DoubleType()
        case llvm.LLVMPointerType():
            space = t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0
            return ir.PointerType(addrspace=space)
        case llvm.LLVMVoidType():
            return ir.VoidType()
        case llvm.LLVMArrayType():
            return ir.ArrayType(llvm_type(t.type), t.size.data)
        case llvm.LLVMStructType():
            return ir.LiteralStructType([llvm_type(e) for e in t.types.data])
        case VectorType():
            if t.get_num_dims() != 1 or t.get_num_scalable_dims():
                raise UnsupportedError(f"vector type {t} has no LLVM IR equivalent")
            return ir.VectorType(llvm_type(t.get_element_type()), t.get_shape()[0])
        case llvm.LLVMFunctionType():
            return ir.FunctionType(
                llvm_type(t.output),
                [llvm_type(i) for i in t.inputs.data],
                var_arg=t.is_variadic,
            )
    raise UnsupportedError(f"type {t} has no LLVM IR equivalent")


class FloatConstant(ir.Constant):
    """A float constant printed as LLVM prints it: exact double-precision hex."""

    def _get_reference(self) -> str:
        if isinstance(self.type, BFloatType):
            return self.type.format_constant(self.constant)
        value = float(self.constant)
        if isinstance(self.type, ir.FloatType):
            value = struct.unpack("<f", struct.pack("<f", value))[0]
        elif isinstance(self.type, ir.HalfType):
            value = struct.unpack("<e", struct.pack("<e", value))[0]
        return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"


def scalar_constant(typ: ir.Type, value: int | float) -> ir.Constant:
    if isinstance(typ, ir.IntType):
        return ir.Constant(typ, int(value) & 1 if typ.width == 1 else int(value))
    return FloatConstant(typ, float(value))


def constant(typ: ir.Type, value: Attribute) -> ir.Constant:
    """An llvmlite constant of type `typ` from an integer, float, dense or string attr."""
    match value:
        case IntegerAttr():
            return scalar_constant(typ, value.value.data)
        case FloatAttr():
            return scalar_constant(typ, value.value.data)
        case StringAttr():
            data = bytearray(value.data.encode("latin-1"))
            return ir.Constant(ir.ArrayType(ir.IntType(8), len(data)), data)
        case DenseIntOrFPElementsAttr():
            values = list(value.get_values())
            return aggregate_constant(typ, values)
    raise UnsupportedError(f"constant {value} has no LLVM IR equivalent")


def aggregate_constant(typ: ir.Type, flat: list[Any]) -> ir.Constant:
    """`typ` (array/vector nest) filled from `flat` in row-major order; splats allowed."""
    leaves = 1
    t = typ
    while isinstance(t, ir.ArrayType | ir.VectorType):
        leaves *= t.count
        t = t.element
    if len(flat) == 1 and leaves != 1:
        flat = flat * leaves
    if len(flat) != leaves:
        raise UnsupportedError(f"{len(flat)} values do not fill LLVM type {typ}")

    def build(t: ir.Type, values: list[Any]) -> ir.Constant:
        if isinstance(t, ir.ArrayType | ir.VectorType):
            step = len(values) // t.count
            return ir.Constant(
                t, [build(t.element, values[i * step : (i + 1) * step]) for i in range(t.count)]
            )
        return scalar_constant(t, values[0])

    return build(typ, flat)


# ---------------------------------------------------------------------------------------
# instructions llvmlite lacks or prints wrong


class GEPWithFlags(ir_instr.GEPInstr):
    """getelementptr with no-wrap flags (`inbounds nuw`), address space kept."""

    def __init__(
        self, parent: Any, ptr: ir.Value, indices: Sequence[ir.Value], etype: ir.Type, flags: int
    ):
        super().__init__(parent, ptr, indices, inbounds=False, name="", source_etype=etype)
        words = []
        if flags & 3 == 3:
            words.append("inbounds")
        elif flags & 2:
            words.append("nusw")
        if flags & 4:
            words.append("nuw")
        self.flag_words = words

    def descr(self, buf: list[str]) -> None:
        indices = [f"{i.type} {i.get_reference()}" for i in self.indices]
        op = " ".join(["getelementptr", *self.flag_words])
        buf.append(
            f"{op} {self.source_etype}, {self.pointer.type} {self.pointer.get_reference()}, "
            f"{', '.join(indices)} {self._stringify_metadata(leading_comma=True)}\n"
        )


class VolatileLoad(ir_instr.LoadInstr):
    align: int | None = None

    def descr(self, buf: list[str]) -> None:
        inner: list[str] = []
        super().descr(inner)
        buf.append("".join(inner).replace("load ", "load volatile ", 1))


class VolatileStore(ir_instr.StoreInstr):
    align: int | None = None

    def descr(self, buf: list[str]) -> None:
        inner: list[str] = []
        super().descr(inner)
        buf.append("".join(inner).replace("store ", "store volatile ", 1))


class Freeze(ir_instr.Instruction):
    def __init__(self, parent: Any, value: IRValue) -> None:
        super().__init__(parent, value.type, "freeze", [value])

    def descr(self, buf: list[str]) -> None:
        v = self.operands[0]
        buf.append(f"freeze {v.type} {v.get_reference()}\n")


class AllocaInAddressSpace(ir_instr.Instruction):
    """alloca with an address space (llvmlite's is always address space 0)."""

    def __init__(self, parent: Any, etype: ir.Type, count: ir.Value, space: int, align: int | None):
        super().__init__(parent, ir.PointerType(addrspace=space), "alloca", [count])
        self.allocated_type = etype
        self.space = space
        self.align = align

    def descr(self, buf: list[str]) -> None:
        count = self.operands[0]
        text = f"alloca {self.allocated_type}, {count.type} {count.get_reference()}"
        if self.align:
            text += f", align {self.align}"
        if self.space:
            text += f", addrspace({self.space})"
        buf.append(text + "\n")


class CastWithFlags(ir_instr.Instruction):
    """A cast with optional flags (`nneg`, `nuw`/`nsw` on trunc)."""

    def __init__(
        self, parent: Any, opname: str, value: ir.Value, typ: ir.Type, flags: Sequence[str] = ()
    ):
        super().__init__(parent, typ, opname, [value])
        self.cast_flags = list(flags)

    def descr(self, buf: list[str]) -> None:
        v = self.operands[0]
        name = " ".join([self.opname, *self.cast_flags])
        buf.append(f"{name} {v.type} {v.get_reference()} to {self.type}\n")


def insert_instruction(builder: ir.IRBuilder, instr: ir_instr.Instruction) -> ir_instr.Instruction:
    builder._insert(instr)
    return instr


ARG_FLAGS = {
    "llvm.noalias": "noalias",
    "llvm.nocapture": "nocapture",
    "llvm.nonnull": "nonnull",
    "llvm.noundef": "noundef",
    "llvm.readonly": "readonly",
    "llvm.writeonly": "writeonly",
    "llvm.signext": "signext",
    "llvm.zeroext": "zeroext",
    "llvm.inreg": "inreg",
    "llvm.returned": "returned",
    "llvm.nofree": "nofree",
}
ARG_INTS = {
    "llvm.align": "align",
    "llvm.dereferenceable": "dereferenceable",
    "llvm.dereferenceable_or_null": "dereferenceable_or_null",
}


class StringFunctionAttributes(ir.values.FunctionAttributes):
    """Function attributes that also take LLVM string attributes (`"target-cpu"="x"`)."""

    def add(self, name: str) -> None:
        if name.startswith('"'):  # a string attribute, not one of llvmlite's keywords
            set.add(self, name)
        else:
            super().add(name)


def intrinsic_suffix(t: ir.Type) -> str:
    """The overload suffix of an intrinsic for type `t` (f32, v4f32, p0, i64, bf16...)."""
    if isinstance(t, ir.VectorType):
        return f"v{t.count}{intrinsic_suffix(t.element)}"
    if isinstance(t, ir.PointerType):
        return f"p{t.addrspace}"
    if isinstance(t, ir.IntType):
        return f"i{t.width}"
    name = getattr(t, "intrinsic_name", None)
    if name is None:
        raise UnsupportedError(f"no intrinsic overload for LLVM type {t}")
    return name


class IndirectCallee(ir.Value):
    """A function pointer with the function type llvmlite needs to call through it."""

    def __init__(self, ptr: IRValue, ftype: ir.FunctionType) -> None:
        self.ptr = ptr
        self.type = ir.PointerType()
        self.function_type = ftype

    def get_reference(self) -> str:
        return self.ptr.get_reference()

    def _get_reference(self) -> str:
        return self.ptr.get_reference()


ALL_FASTMATH = frozenset({"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"})


def fastmath_words(attr: Attribute | None) -> list[str]:
    """llvmlite fastmath words of an `#llvm.fastmath` attribute (`fast` for all flags)."""
    words = {f.value for f in getattr(attr, "data", ())}
    return ["fast"] if words == ALL_FASTMATH else sorted(words)


def is_float(value: SSAValue | None) -> bool:
    if value is None:
        return False
    t = value.type
    if isinstance(t, VectorType):
        t = t.get_element_type()
    return isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type)


__all__ = [
    "ARG_FLAGS",
    "ARG_INTS",
    "BFLOAT",
    "AllocaInAddressSpace",
    "CastWithFlags",
    "Freeze",
    "GEPWithFlags",
    "IRValue",
    "IndirectCallee",
    "Poison",
    "StringFunctionAttributes",
    "VolatileLoad",
    "VolatileStore",
    "constant",
    "fastmath_words",
    "insert_instruction",
    "intrinsic_suffix",
    "is_float",
    "llvm_type",
    "set_alignment",
    "set_initializer",
]
