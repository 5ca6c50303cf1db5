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
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import llvm as _x
from xdsl.dialects.builtin import (
    I1,
    I32,
    I64,
    AnyFloatConstr,
    BoolAttr,
    DenseArrayBase,
    DenseIntElementsAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    SignlessIntegerConstraint,
    UnitAttr,
    VectorType,
    i1,
    i32,
)
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Attribute, Block, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

LLVMPointerType = _x.LLVMPointerType
LLVMStructType = _x.LLVMStructType
LLVMArrayType = _x.LLVMArrayType
LLVMVoidType = _x.LLVMVoidType
LLVMFunctionType = _x.LLVMFunctionType
FastMathAttr = _x.FastMathAttr

_FLOAT_OR_VECTOR = AnyFloatConstr | VectorType.constr(AnyFloatConstr)
_INT_OR_VECTOR = SignlessIntegerConstraint | VectorType.constr(SignlessIntegerConstraint)


# ---------------------------------------------------------------------------------------
# casts


class _CastOp(IRDLOperation, ABC):
    """`llvm.<cast> %x : T to U`."""

    arg = operand_def()
    res = result_def()

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$arg attr-dict `:` type($arg) `to` type($res)"

    def __init__(self, arg: SSAValue | Operation, res_type: Attribute):
        super().__init__(operands=[arg], result_types=[res_type])


@irdl_op_definition
class FPToSIOp(_CastOp):
    """Float to signed integer (poison when out of range), as `fptosi`."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(_CastOp):
    """Float to unsigned integer (poison when out of range), as `fptoui`."""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(_CastOp):
    """Unsigned integer to float, as `uitofp`."""

    name = "llvm.uitofp"


@irdl_op_definition
class AddrSpaceCastOp(_CastOp):
    """Pointer from one address space to another, as `addrspacecast`."""

    name = "llvm.addrspacecast"

    arg = operand_def(LLVMPointerType)
    res = result_def(LLVMPointerType)


# ---------------------------------------------------------------------------------------
# values


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`llvm.mlir.poison : T`: a poison value (what upstream builds descriptors from)."""

    name = "llvm.mlir.poison"

    res = result_def()

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, res_type: Attribute):
        super().__init__(result_types=[res_type])


@irdl_op_definition
class FreezeOp(IRDLOperation):
    """`llvm.freeze %x : T`: stops poison/undef propagation."""

    name = "llvm.freeze"

    T: ClassVar = VarConstraint("T", AnyAttr())

    val = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$val attr-dict `:` type($val)"

    def __init__(self, val: SSAValue | Operation):
        super().__init__(operands=[val], result_types=[SSAValue.get(val).type])


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`llvm.extractelement %v[%i : i32] : vector<4xf32>`."""

    name = "llvm.extractelement"

    vector = operand_def(VectorType)
    position = operand_def(SignlessIntegerConstraint)
    res = result_def()

    traits = traits_def(Pure())

    def __init__(self, vector: SSAValue | Operation, position: SSAValue | Operation):
        vec_type = SSAValue.get(vector).type
        assert isinstance(vec_type, VectorType)
        super().__init__(operands=[vector, position], result_types=[vec_type.element_type])

    def verify_(self) -> None:
        vec_type = self.vector.type
        assert isinstance(vec_type, VectorType)
        if self.res.type != vec_type.element_type:
            raise VerifyException(
                f"result type {self.res.type} is not the element type of {vec_type}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.vector)
        printer.print_string("[")
        printer.print_ssa_value(self.position)
        printer.print_string(" : ")
        printer.print_attribute(self.position.type)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.vector.type)

    @classmethod
    def parse(cls, parser: Parser) -> ExtractElementOp:
        vector = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        position = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        position_type = parser.parse_type()
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        vector_type = parser.parse_type()
        if not isinstance(vector_type, VectorType):
            parser.raise_error(f"expected a vector type, got {vector_type}")
        op = cls(
            parser.resolve_operand(vector, vector_type),
            parser.resolve_operand(position, position_type),
        )
        op.attributes |= attrs
        return op


@irdl_op_definition
class FCmpOp(IRDLOperation):
    """`llvm.fcmp "olt" %a, %b : f32`; on vectors too (xDSL's is scalar-only)."""

    name = "llvm.fcmp"

    T: ClassVar = VarConstraint("T", _FLOAT_OR_VECTOR)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(I1 | VectorType.constr(I1))

    predicate = prop_def(IntegerAttr[I64])
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        predicate: str,
        fastmath: FastMathAttr | None = None,
    ):
        operand_type = SSAValue.get(lhs).type
        res_type: Attribute = (
            VectorType(i1, operand_type.get_shape()) if isinstance(operand_type, VectorType) else i1
        )
        super().__init__(
            operands=[lhs, rhs],
            result_types=[res_type],
            properties={
                "predicate": IntegerAttr(_x.FCmpPredicateFlag(predicate).to_int(), 64),
                "fastmathFlags": fastmath or FastMathAttr(None),
            },
        )

    @property
    def predicate_name(self) -> str:
        return _x.FCmpPredicateFlag.from_int(self.predicate.value.data).value

    def print(self, printer: Printer) -> None:
        printer.print_string(f' "{self.predicate_name}" ')
        printer.print_ssa_value(self.lhs)
        printer.print_string(", ")
        printer.print_ssa_value(self.rhs)
        print_fastmath(printer, self.fastmathFlags)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    @classmethod
    def parse(cls, parser: Parser) -> FCmpOp:
        predicate = parser.parse_str_literal()
        if predicate not in {f.value for f in _x.FCmpPredicateFlag}:
            parser.raise_error(f"unknown fcmp predicate '{predicate}'")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        fastmath = parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        a, b = parser.resolve_operands([lhs, rhs], [operand_type, operand_type], parser.pos)
        op = cls(a, b, predicate, _fastmath_from(attrs, fastmath))
        op.attributes |= attrs
        return op


# ---------------------------------------------------------------------------------------
# memory


_GEP_FLAG_BITS: tuple[tuple[str, int], ...] = (("inbounds", 3), ("nusw", 2), ("nuw", 4))
"""Upstream's GEPNoWrapFlags: `inbounds` implies `nusw` (bit 1 is inboundsFlag)."""


def gep_flags_to_str(flags: int) -> str:
    """`inbounds|nuw` for 7, `` for 0: upstream's spelling of GEP no-wrap flags."""
    names: list[str] = []
    rest = flags
    for name, bits in _GEP_FLAG_BITS:
        if rest & bits == bits:
            names.append(name)
            rest &= ~bits
    return "|".join(names)


@irdl_op_definition
class GEPOp(IRDLOperation):
    """`llvm.getelementptr [flags] %p[%i, 0] : (!llvm.ptr, i64) -> !llvm.ptr, T`.

    Same operands and properties as upstream: `rawConstantIndices` holds the constant
    indices with `GEP_USE_SSA_VAL` where the next dynamic index is used; `noWrapFlags` holds
    upstream's GEPNoWrapFlags bits (inbounds = 3, nusw = 2, nuw = 4).
    """

    name = "llvm.getelementptr"

    base = operand_def(LLVMPointerType)
    dynamicIndices = var_operand_def(IntegerType)
    res = result_def(LLVMPointerType)

    rawConstantIndices = prop_def(DenseArrayBase.constr(i32))
    elem_type = prop_def()
    noWrapFlags = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, 32))

    traits = traits_def(Pure())

    def __init__(
        self,
        base: SSAValue | Operation,
        indices: Sequence[int | SSAValue | Operation],
        elem_type: Attribute,
        *,
        flags: int = 0,
    ):
        raw: list[int] = []
        dynamic: list[SSAValue] = []
        for index in indices:
            if isinstance(index, int):
                raw.append(index)
            else:
                raw.append(_x.GEP_USE_SSA_VAL)
                dynamic.append(SSAValue.get(index))
        super().__init__(
            operands=[base, dynamic],
            result_types=[SSAValue.get(base).type],
            properties={
                "rawConstantIndices": DenseArrayBase.from_list(i32, raw),
                "elem_type": elem_type,
                "noWrapFlags": IntegerAttr(flags, 32),
            },
        )

    @property
    def flags(self) -> int:
        return self.noWrapFlags.value.data

    def indices(self) -> list[int | SSAValue]:
        """The indices in order, constants as ints and dynamic ones as values."""
        dynamic = iter(self.dynamicIndices)
        return [
            next(dynamic) if i == _x.GEP_USE_SSA_VAL else i
            for i in self.rawConstantIndices.iter_values()
        ]

    def verify_(self) -> None:
        if self.base.type != self.res.type:
            raise VerifyException("result pointer type must match the base pointer type")
        raw = tuple(self.rawConstantIndices.iter_values())
        if raw.count(_x.GEP_USE_SSA_VAL) != len(self.dynamicIndices):
            raise VerifyException("dynamic index count does not match the index list")

    def print(self, printer: Printer) -> None:
        flags = gep_flags_to_str(self.flags)
        if flags:
            printer.print_string(f" {flags}")
        printer.print_string(" ")
        printer.print_ssa_value(self.base)
        printer.print_string("[")
        printer.print_list(
            self.indices(),
            lambda i: (
                printer.print_string(str(i)) if isinstance(i, int) else printer.print_ssa_value(i)
            ),
        )
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(
            [self.base.type, *(v.type for v in self.dynamicIndices)], [self.res.type]
        )
        printer.print_string(", ")
        printer.print_attribute(self.elem_type)

    @classmethod
    def parse(cls, parser: Parser) -> GEPOp:
        flags = 0
        names = {name: bits for name, bits in _GEP_FLAG_BITS}
        while (kw := parser.parse_optional_keyword_in(tuple(names))) is not None:
            flags |= names[kw]
            if parser.parse_optional_punctuation("|") is None:
                break
        base = parser.parse_unresolved_operand()
        items: list[int | UnresolvedOperand] = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE,
            lambda: parser.parse_optional_unresolved_operand() or parser.parse_integer(),
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        parser.parse_punctuation(",")
        elem_type = parser.parse_type()
        dynamic = [i for i in items if not isinstance(i, int)]
        resolved = parser.resolve_operands([base, *dynamic], ftype.inputs.data, parser.pos)
        values = iter(resolved[1:])
        op = cls(
            resolved[0],
            [i if isinstance(i, int) else next(values) for i in items],
            elem_type,
            flags=flags,
        )
        if ftype.outputs.data and ftype.outputs.data[0] != op.res.type:
            parser.raise_error("getelementptr result type must match the base pointer type")
        op.attributes |= attrs
        return op


def _parse_alignment(parser: Parser) -> tuple[int | None, dict[str, Attribute]]:
    """Alignment in any upstream spelling; returns it and the remaining attr-dict.

    Accepted: `<alignment = 4>` (current upstream), `<{alignment = 4 : i64}>` (properties
    dictionary) and `{alignment = 4 : i64}` (MLIR up to 22 and xDSL).
    """
    alignment: int | None = None
    if parser.parse_optional_punctuation("<") is not None:
        if parser.parse_optional_punctuation("{") is not None:
            # `<{...}>`: a properties dictionary, already opened.
            parser.parse_keyword("alignment")
            parser.parse_punctuation("=")
            alignment = parser.parse_integer()
            if parser.parse_optional_punctuation(":") is not None:
                parser.parse_type()
            parser.parse_punctuation("}")
        else:
            parser.parse_keyword("alignment")
            parser.parse_punctuation("=")
            alignment = parser.parse_integer()
        parser.parse_punctuation(">")
    attrs = parser.parse_optional_attr_dict()
    if (a := attrs.pop("alignment", None)) is not None:
        if not isinstance(a, IntegerAttr):
            parser.raise_error("alignment must be an integer")
        alignment = a.value.data
    return alignment, attrs


def _print_alignment(printer: Printer, alignment: IntegerAttr | None) -> None:
    if alignment is not None:
        printer.print_string(f" <alignment = {alignment.value.data}>")


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`llvm.load [volatile] %p [<alignment = N>] [{nontemporal}] : !llvm.ptr -> T`."""

    name = "llvm.load"

    addr = operand_def(LLVMPointerType)
    res = result_def()

    alignment = opt_prop_def(IntegerAttr[I64])
    volatile_ = opt_prop_def(UnitAttr)
    nontemporal = opt_prop_def(UnitAttr)
    invariant = opt_prop_def(UnitAttr)

    def __init__(
        self,
        addr: SSAValue | Operation,
        res_type: Attribute,
        *,
        alignment: int | None = None,
        volatile: bool = False,
        nontemporal: bool = False,
    ):
        super().__init__(
            operands=[addr],
            result_types=[res_type],
            properties={
                "alignment": IntegerAttr(alignment, 64) if alignment else None,
                "volatile_": UnitAttr() if volatile else None,
                "nontemporal": UnitAttr() if nontemporal else None,
            },
        )

    def print(self, printer: Printer) -> None:
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(" ")
        printer.print_ssa_value(self.addr)
        if self.invariant is not None:
            printer.print_string(" invariant")
        _print_alignment(printer, self.alignment)
        attrs = dict(self.attributes)
        if self.nontemporal is not None:
            attrs["nontemporal"] = UnitAttr()
        printer.print_op_attributes(attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.addr.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        addr = parser.parse_unresolved_operand()
        invariant = parser.parse_optional_keyword("invariant") is not None
        alignment, attrs = _parse_alignment(parser)
        parser.parse_punctuation(":")
        addr_type = parser.parse_type()
        parser.parse_punctuation("->")
        res_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(addr, addr_type),
            res_type,
            alignment=alignment,
            volatile=volatile,
            nontemporal=attrs.pop("nontemporal", None) is not None,
        )
        if invariant:
            op.invariant = UnitAttr()
        op.attributes |= attrs
        return op


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`llvm.store [volatile] %v, %p [<alignment = N>] : T, !llvm.ptr`."""

    name = "llvm.store"

    value = operand_def()
    addr = operand_def(LLVMPointerType)

    alignment = opt_prop_def(IntegerAttr[I64])
    volatile_ = opt_prop_def(UnitAttr)
    nontemporal = opt_prop_def(UnitAttr)

    def __init__(
        self,
        value: SSAValue | Operation,
        addr: SSAValue | Operation,
        *,
        alignment: int | None = None,
        volatile: bool = False,
        nontemporal: bool = False,
    ):
        super().__init__(
            operands=[value, addr],
            properties={
                "alignment": IntegerAttr(alignment, 64) if alignment else None,
                "volatile_": UnitAttr() if volatile else None,
                "nontemporal": UnitAttr() if nontemporal else None,
            },
        )

    def print(self, printer: Printer) -> None:
        if self.volatile_ is not None:
            printer.print_string(" volatile")
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.addr)
        _print_alignment(printer, self.alignment)
        attrs = dict(self.attributes)
        if self.nontemporal is not None:
            attrs["nontemporal"] = UnitAttr()
        printer.print_op_attributes(attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.addr.type)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        addr = parser.parse_unresolved_operand()
        alignment, attrs = _parse_alignment(parser)
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        addr_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(addr, addr_type),
            alignment=alignment,
            volatile=volatile,
            nontemporal=attrs.pop("nontemporal", None) is not None,
        )
        op.attributes |= attrs
        return op


# ---------------------------------------------------------------------------------------
# control flow


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """`llvm.switch %v : i32, ^default(%a : f32) [ 1: ^bb1, 2: ^bb2(%b : f32) ]`."""

    name = "llvm.switch"

    value = operand_def(SignlessIntegerConstraint)
    defaultOperands = var_operand_def()
    caseOperands = var_operand_def()

    case_values = opt_prop_def(DenseIntElementsAttr)
    case_operand_segments = prop_def(DenseArrayBase.constr(i32))

    defaultDestination = successor_def()
    caseDestinations = var_successor_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(IsTerminator(), Pure())

    def __init__(
        self,
        value: SSAValue | Operation,
        default: Block,
        default_operands: Sequence[SSAValue | Operation],
        cases: Sequence[tuple[int, Block, Sequence[SSAValue | Operation]]] = (),
    ):
        vtype = SSAValue.get(value).type
        props: dict[str, Attribute] = {
            "case_operand_segments": DenseArrayBase.from_list(i32, [len(c[2]) for c in cases])
        }
        if cases:
            props["case_values"] = DenseIntElementsAttr.from_list(
                VectorType(vtype, (len(cases),)), [c[0] for c in cases]
            )
        super().__init__(
            operands=[value, default_operands, [v for c in cases for v in c[2]]],
            successors=[default, [c[1] for c in cases]],
            properties=props,
        )

    def cases(self) -> list[tuple[int, Block, tuple[SSAValue, ...]]]:
        """(value, destination, operands) of every case, in order."""
        values = self.case_values.get_values() if self.case_values is not None else ()
        out: list[tuple[int, Block, tuple[SSAValue, ...]]] = []
        start = 0
        operands = tuple(self.caseOperands)
        for value, block, size in zip(
            values, self.caseDestinations, self.case_operand_segments.iter_values(), strict=True
        ):
            out.append((int(value), block, operands[start : start + size]))
            start += size
        return out

    def verify_(self) -> None:
        n = len(self.caseDestinations)
        if len(tuple(self.case_operand_segments.iter_values())) != n:
            raise VerifyException("expects one operand segment per case")
        count = 0 if self.case_values is None else len(self.case_values.get_values())
        if count != n:
            raise VerifyException("expects one case value per case destination")

    @staticmethod
    def _print_dest(printer: Printer, block: Block, args: Sequence[SSAValue]) -> None:
        printer.print_block_name(block)
        if args:
            printer.print_string("(")
            printer.print_list(args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list([a.type for a in args], printer.print_attribute)
            printer.print_string(")")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        self._print_dest(printer, self.defaultDestination, tuple(self.defaultOperands))
        printer.print_string(" [")
        with printer.indented():
            for i, (value, block, args) in enumerate(self.cases()):
                printer.print_string(("," if i else "") + f"\n{value}: ")
                self._print_dest(printer, block, args)
        printer.print_string("\n]")
        printer.print_op_attributes(self.attributes)

    @staticmethod
    def _parse_dest(parser: Parser) -> tuple[Block, list[SSAValue]]:
        block = parser.parse_successor()
        if parser.parse_optional_punctuation("(") is None:
            return block, []
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        return block, parser.resolve_operands(names, types, parser.pos)

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        vtype = parser.parse_type()
        parser.parse_punctuation(",")
        default, default_args = cls._parse_dest(parser)

        def parse_case() -> tuple[int, Block, list[SSAValue]]:
            negative = parser.parse_optional_punctuation("-") is not None
            number = parser.parse_integer()
            parser.parse_punctuation(":")
            block, args = cls._parse_dest(parser)
            return (-number if negative else number), block, args

        cases = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_case)
        attrs = parser.parse_optional_attr_dict()
        op = cls(parser.resolve_operand(value, vtype), default, default_args, cases)
        op.attributes |= attrs
        return op


# ---------------------------------------------------------------------------------------
# float ops with fastmath flags: `llvm.fadd %a, %b fastmath<fast> : f32`,
# `llvm.intr.exp(%x) fastmath<nnan, ninf> : (f32) -> f32` (upstream prints the flags as a
# keyword after the operands and rejects them in the attribute dictionary)

_FASTMATH_ORDER = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
"""Upstream's FastmathFlags in bit order, the order it prints them in."""


def print_fastmath(printer: Printer, attr: FastMathAttr) -> None:
    """` fastmath<flags>` (nothing without flags; `fast` for all of them)."""
    names = {f.value for f in attr.data}
    if not names:
        return
    words = (
        ["fast"] if names == set(_FASTMATH_ORDER) else [n for n in _FASTMATH_ORDER if n in names]
    )
    printer.print_string(f" fastmath<{', '.join(words)}>")


def parse_fastmath(parser: Parser) -> FastMathAttr | None:
    """An optional `fastmath<flags>` keyword form."""
    if parser.parse_optional_keyword("fastmath") is None:
        return None
    parser.parse_punctuation("<")
    names: set[str] = set()
    while True:
        word = parser.parse_identifier()
        if word == "fast":
            names |= set(_FASTMATH_ORDER)
        elif word != "none":
            if word not in _FASTMATH_ORDER:
                parser.raise_error(f"unknown fastmath flag '{word}'")
            names.add(word)
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation(">")
    return FastMathAttr([FastMathFlag(n) for n in names])


def _fastmath_from(attrs: dict[str, Attribute], parsed: FastMathAttr | None) -> FastMathAttr:
    """The keyword form, else a legacy `{fastmathFlags = ...}` entry, else none."""
    legacy = attrs.pop("fastmathFlags", None)
    if parsed is not None:
        return parsed
    return legacy if isinstance(legacy, FastMathAttr) else FastMathAttr(None)


class _FloatArith(IRDLOperation, ABC):
    """`llvm.<op> %a, %b [fastmath<...>] : T` and the unary `llvm.fneg %a ... : T`."""

    T: ClassVar = VarConstraint("T", _FLOAT_OR_VECTOR)

    args = var_operand_def(T)
    res = result_def(T)

    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(self, *args: SSAValue | Operation, fastmath: FastMathAttr | None = None):
        values = [a for a in args if not isinstance(a, FastMathAttr)]
        flags = next((a for a in args if isinstance(a, FastMathAttr)), None) or fastmath
        super().__init__(
            operands=[values],
            result_types=[SSAValue.get(values[0]).type],
            properties={"fastmathFlags": flags or FastMathAttr(None)},
        )

    def verify_(self) -> None:
        want = _ARITY[self.name]
        if len(self.args) != want:
            raise VerifyException(f"expects {want} operands, got {len(self.args)}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.args, printer.print_ssa_value)
        print_fastmath(printer, self.fastmathFlags)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> _FloatArith:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        fastmath = parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        operands = parser.resolve_operands(names, [t] * len(names), parser.pos)
        op = cls(*operands, fastmath=_fastmath_from(attrs, fastmath))
        op.attributes |= attrs
        return op


@irdl_op_definition
class FAddOp(_FloatArith):
    name = "llvm.fadd"


@irdl_op_definition
class FSubOp(_FloatArith):
    name = "llvm.fsub"


@irdl_op_definition
class FMulOp(_FloatArith):
    name = "llvm.fmul"


@irdl_op_definition
class FDivOp(_FloatArith):
    name = "llvm.fdiv"


@irdl_op_definition
class FRemOp(_FloatArith):
    name = "llvm.frem"


@irdl_op_definition
class FNegOp(_FloatArith):
    name = "llvm.fneg"


class _FloatIntrinsic(IRDLOperation, ABC):
    """`llvm.intr.X(%a, ...) [fastmath<...>] : (T, ...) -> T`, float result = first operand."""

    args = var_operand_def()
    res = result_def(_FLOAT_OR_VECTOR)

    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(self, *args: SSAValue | Operation, fastmath: FastMathAttr | None = None):
        values = [a for a in args if not isinstance(a, FastMathAttr)]
        flags = next((a for a in args if isinstance(a, FastMathAttr)), None) or fastmath
        super().__init__(
            operands=[values],
            result_types=[SSAValue.get(values[0]).type],
            properties={"fastmathFlags": flags or FastMathAttr(None)},
        )

    def verify_(self) -> None:
        want = _ARITY[self.name]
        if len(self.args) != want:
            raise VerifyException(f"expects {want} operands, got {len(self.args)}")
        # powi's exponent is an integer; every other operand has the result type.
        float_args = self.args[:1] if self.name == "llvm.intr.powi" else self.args
        for arg in float_args:
            if arg.type != self.res.type:
                raise VerifyException(
                    f"operand type {arg.type} differs from result type {self.res.type}"
                )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.args, printer.print_ssa_value)
        printer.print_string(")")
        print_fastmath(printer, self.fastmathFlags)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([a.type for a in self.args], [self.res.type])

    @classmethod
    def parse(cls, parser: Parser) -> _FloatIntrinsic:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        fastmath = parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        operands = parser.resolve_operands(names, ftype.inputs.data, parser.pos)
        op = cls.create(
            operands=operands,
            result_types=list(ftype.outputs.data),
            properties={"fastmathFlags": _fastmath_from(attrs, fastmath)},
        )
        op.attributes |= attrs
        return op


_ARITY: dict[str, int] = {
    "llvm.fadd": 2,
    "llvm.fsub": 2,
    "llvm.fmul": 2,
    "llvm.fdiv": 2,
    "llvm.frem": 2,
    "llvm.fneg": 1,
}
"""Operand count of every fastmath op, checked by the verifier."""


def _intrinsic(class_name: str, name: str, arity: int, doc: str) -> type[IRDLOperation]:
    _ARITY[name] = arity
    cls = type(class_name, (_FloatIntrinsic,), {"name": name, "__doc__": doc})
    return irdl_op_definition(cls)


FAbsOp = _intrinsic("FAbsOp", "llvm.intr.fabs", 1, "Absolute value.")
FCeilOp = _intrinsic("FCeilOp", "llvm.intr.ceil", 1, "Round toward +inf.")
FFloorOp = _intrinsic("FFloorOp", "llvm.intr.floor", 1, "Round toward -inf.")
FTruncOp = _intrinsic("FTruncOp", "llvm.intr.trunc", 1, "Round toward zero.")
RoundOp = _intrinsic("RoundOp", "llvm.intr.round", 1, "Round half away from zero.")
RoundEvenOp = _intrinsic("RoundEvenOp", "llvm.intr.roundeven", 1, "Round half to even.")
FSqrtOp = _intrinsic("FSqrtOp", "llvm.intr.sqrt", 1, "Square root.")
FExpOp = _intrinsic("FExpOp", "llvm.intr.exp", 1, "e^x.")
FExp2Op = _intrinsic("FExp2Op", "llvm.intr.exp2", 1, "2^x.")
FLogOp = _intrinsic("FLogOp", "llvm.intr.log", 1, "Natural logarithm.")
FLog2Op = _intrinsic("FLog2Op", "llvm.intr.log2", 1, "Base-2 logarithm.")
Log10Op = _intrinsic("Log10Op", "llvm.intr.log10", 1, "Base-10 logarithm.")
FSinOp = _intrinsic("FSinOp", "llvm.intr.sin", 1, "Sine.")
FCosOp = _intrinsic("FCosOp", "llvm.intr.cos", 1, "Cosine.")
FPowOp = _intrinsic("FPowOp", "llvm.intr.pow", 2, "x^y.")
PowIOp = _intrinsic("PowIOp", "llvm.intr.powi", 2, "x^n for an integer n.")
FCopySignOp = _intrinsic("FCopySignOp", "llvm.intr.copysign", 2, "|x| with the sign of y.")
MaximumOp = _intrinsic(
    "MaximumOp", "llvm.intr.maximum", 2, "IEEE 754-2019 maximum: NaN if either is NaN, -0 < +0."
)
MinimumOp = _intrinsic(
    "MinimumOp", "llvm.intr.minimum", 2, "IEEE 754-2019 minimum: NaN if either is NaN, -0 < +0."
)
MaxNumOp = _intrinsic("MaxNumOp", "llvm.intr.maxnum", 2, "libm fmax: a NaN operand is ignored.")
MinNumOp = _intrinsic("MinNumOp", "llvm.intr.minnum", 2, "libm fmin: a NaN operand is ignored.")
FMAOp = _intrinsic("FMAOp", "llvm.intr.fma", 3, "x * y + z rounded once.")
FMulAddOp = _intrinsic("FMulAddOp", "llvm.intr.fmuladd", 3, "x * y + z, fused where faster.")


# ---------------------------------------------------------------------------------------
# integer intrinsics with upstream's custom syntax: `llvm.intr.X(%a, %b) : (T, T) -> T`


class _IntBinaryIntrinsic(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", _INT_OR_VECTOR)

    a = operand_def(T)
    b = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "`(` operands `)` attr-dict `:` functional-type(operands, results)"

    def __init__(self, a: SSAValue | Operation, b: SSAValue | Operation):
        super().__init__(operands=[a, b], result_types=[SSAValue.get(a).type])


class _IntUnaryIntrinsic(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", _INT_OR_VECTOR)

    arg = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "`(` operands `)` attr-dict `:` functional-type(operands, results)"

    def __init__(self, arg: SSAValue | Operation):
        super().__init__(operands=[arg], result_types=[SSAValue.get(arg).type])


@irdl_op_definition
class SMaxOp(_IntBinaryIntrinsic):
    name = "llvm.intr.smax"


@irdl_op_definition
class SMinOp(_IntBinaryIntrinsic):
    name = "llvm.intr.smin"


@irdl_op_definition
class UMaxOp(_IntBinaryIntrinsic):
    name = "llvm.intr.umax"


@irdl_op_definition
class UMinOp(_IntBinaryIntrinsic):
    name = "llvm.intr.umin"


@irdl_op_definition
class CtPopOp(_IntUnaryIntrinsic):
    name = "llvm.intr.ctpop"


# ---------------------------------------------------------------------------------------
# intrinsics upstream prints in generic form: an immediate flag as a property


class _IntUnaryWithFlag(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", _INT_OR_VECTOR)

    in_ = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    def __init__(self, arg: SSAValue | Operation, flag: bool = False):
        super().__init__(
            operands=[arg],
            result_types=[SSAValue.get(arg).type],
            properties={INTRINSIC_FLAG_NAMES[self.name]: BoolAttr.from_bool(flag)},
        )

    @property
    def flag_value(self) -> bool:
        attr = self.properties.get(INTRINSIC_FLAG_NAMES[self.name])
        return isinstance(attr, IntegerAttr) and bool(attr.value.data)


INTRINSIC_FLAG_NAMES: dict[str, str] = {
    "llvm.intr.abs": "is_int_min_poison",
    "llvm.intr.ctlz": "is_zero_poison",
    "llvm.intr.cttz": "is_zero_poison",
}
"""The immediate i1 flag property of the integer intrinsics that take one."""


@irdl_op_definition
class AbsOp(_IntUnaryWithFlag):
    """Integer absolute value; `is_int_min_poison` says whether abs(INT_MIN) is poison."""

    name = "llvm.intr.abs"

    is_int_min_poison = prop_def(IntegerAttr[I1])


@irdl_op_definition
class CountLeadingZerosOp(_IntUnaryWithFlag):
    name = "llvm.intr.ctlz"

    is_zero_poison = prop_def(IntegerAttr[I1])


@irdl_op_definition
class CountTrailingZerosOp(_IntUnaryWithFlag):
    name = "llvm.intr.cttz"

    is_zero_poison = prop_def(IntegerAttr[I1])


FPCLASS_NAN = 0x003
"""`llvm.is.fpclass` test bits (LangRef): signaling | quiet NaN."""
FPCLASS_INF = 0x204
"""-inf | +inf."""
FPCLASS_NORMAL = 0x108
"""-normal | +normal."""
FPCLASS_FINITE = 0x1F8
"""every normal, subnormal and zero."""


@irdl_op_definition
class IsFPClassOp(IRDLOperation):
    """`"llvm.intr.is.fpclass"(%x) <{bit = 3 : i32}> : (f32) -> i1`."""

    name = "llvm.intr.is.fpclass"

    in_ = operand_def(_FLOAT_OR_VECTOR)
    res = result_def(I1 | VectorType.constr(I1))

    bit = prop_def(IntegerAttr[I32])

    traits = traits_def(Pure())

    def __init__(self, arg: SSAValue | Operation, bits: int):
        arg_type = SSAValue.get(arg).type
        res_type: Attribute = (
            VectorType(i1, arg_type.get_shape()) if isinstance(arg_type, VectorType) else i1
        )
        super().__init__(
            operands=[arg], result_types=[res_type], properties={"bit": IntegerAttr(bits, 32)}
        )


@irdl_op_definition
class MemcpyOp(IRDLOperation):
    """`"llvm.intr.memcpy"(%dst, %src, %len) <{isVolatile = false}> : (...) -> ()`."""

    name = "llvm.intr.memcpy"

    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    len = operand_def(SignlessIntegerConstraint)

    isVolatile = prop_def(IntegerAttr[I1])

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        length: SSAValue | Operation,
        volatile: bool = False,
    ):
        super().__init__(
            operands=[dst, src, length],
            properties={"isVolatile": BoolAttr.from_bool(volatile)},
        )


@irdl_op_definition
class TrapOp(IRDLOperation):
    """`llvm.intr.trap`: abort execution."""

    name = "llvm.intr.trap"

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


def is_signless_int(t: Attribute) -> bool:
    """Whether `t` is a signless integer type (what LLVM integers are)."""
    return isa(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS


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
from schedir.dialects._vector_llvm import VECTOR_LLVM_OPS  # noqa: E402

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

__all__ = ["LLVM"]
