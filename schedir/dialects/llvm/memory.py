"""`llvm.getelementptr`, `llvm.load`, `llvm.store` with upstream's no-wrap flags and alignment syntax."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm as _x
from xdsl.dialects.builtin import (
    I32,
    I64,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.llvm.syntax import LLVMPointerType

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
