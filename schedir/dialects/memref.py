"""The memref dialect as schedir uses it: xDSL's ops with upstream's (LLVM 24) syntax.

xDSL prints `copy`, `cast`, `global` and `memory_space_cast` only generically, and prints
`alignment` / `nontemporal` in the attribute dictionary, which upstream now rejects
("inherent attribute ... cannot be parsed from attr-dict"). The ops below subclass xDSL's
(so `isinstance(op, xdsl.dialects.memref.AllocOp)` still holds) and replace their syntax:

    memref.global "private" constant @c : memref<4xf32> = dense<1.0> alignment = 64
    %a = memref.alloc(%n) alignment = 64 : memref<?x4xf32>
    %v = memref.load %a[%i, %j] nontemporal(true) : memref<?x4xf32>
    memref.copy %a, %b : memref<?x4xf32> to memref<?x4xf32>
    %c = memref.cast %a : memref<?x4xf32> to memref<8x4xf32>
    %s = memref.memory_space_cast %w : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
    %r = memref.collapse_shape %a [[0, 1]] : memref<8x4xf32> into memref<32xf32>

The legacy `{alignment = 64 : i64}` / `{nontemporal = true}` spellings are still accepted.
Ops built in Python should use these classes (same constructors as xDSL's) so that they
print in this syntax.
"""

from __future__ import annotations

from typing import Self, cast

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyDenseElement,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ShapedType,
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.dialects.utils.reshape_ops_utils import verify_reshape_like_types
from xdsl.ir import Attribute, Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.utils import parse_reshape, print_reshape


def _parse_alignment(parser: Parser) -> IntegerAttr | None:
    """Upstream's `alignment = 64` (after the operands)."""
    if not parser.parse_optional_keyword("alignment"):
        return None
    parser.parse_punctuation("=")
    return IntegerAttr(parser.parse_integer(allow_boolean=False), i64)


def _print_alignment(printer: Printer, alignment: IntegerAttr | None) -> None:
    if alignment is not None:
        printer.print_string(f" alignment = {alignment.value.data}")


def _verify_alignment(alignment: IntegerAttr | None) -> None:
    if alignment is None:
        return
    value = alignment.value.data
    if value <= 0 or value & (value - 1):
        raise VerifyException(
            "'alignment' failed to satisfy constraint: 64-bit signless integer attribute "
            "whose value is positive and whose value is a power of two > 0"
        )


def _pop_legacy(attrs: dict[str, Attribute], name: str) -> Attribute | None:
    """A property given in the attribute dictionary, as before LLVM 24."""
    return attrs.pop(name, None)


class _AllocLike:
    """Shared syntax of alloc and alloca: `(%dyn)[%sym] alignment = N : type`."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        index = IndexType()
        dyn = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_operand(index)
        )
        syms = parser.parse_optional_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_operand(index)
        )
        alignment = _parse_alignment(parser)
        attrs = parser.parse_optional_attr_dict()
        legacy = _pop_legacy(attrs, "alignment")
        if alignment is None and isinstance(legacy, IntegerAttr):
            alignment = IntegerAttr(legacy.value.data, i64)
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        op = cast(type[xmemref.AllocOp], cls).build(
            operands=[dyn, syms or []],
            result_types=[result_type],
            properties={"alignment": alignment},
        )
        op.attributes |= attrs
        return cast(Self, op)

    def print(self, printer: Printer) -> None:
        op = cast(xmemref.AllocOp, self)
        printer.print_string("(")
        printer.print_list(op.dynamic_sizes, printer.print_ssa_value)
        printer.print_string(")")
        if op.symbol_operands:
            printer.print_string("[")
            printer.print_list(op.symbol_operands, printer.print_ssa_value)
            printer.print_string("]")
        _print_alignment(printer, op.alignment)
        printer.print_op_attributes(op.attributes)
        printer.print_string(" : ")
        printer.print_attribute(op.memref.type)

    def verify_(self) -> None:
        op = cast(xmemref.AllocOp, self)
        op.get_irdl_definition().verify(op)
        memref_type = cast(MemRefType[Attribute], op.memref.type)
        expected = sum(1 for d in memref_type.get_shape() if d == DYNAMIC_INDEX)
        if len(op.dynamic_sizes) != expected:
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(op.dynamic_sizes)}, "
                f"expected {expected}"
            )
        _verify_alignment(op.alignment)


class AllocOp(_AllocLike, xmemref.AllocOp):
    """Allocates a buffer on the heap (or, with a memory space, in that memory).

    %a = memref.alloc(%n) alignment = 64 : memref<?x4xf32>
    %s = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
    """


class AllocaOp(_AllocLike, xmemref.AllocaOp):
    """Allocates a buffer on the stack of the enclosing scope.

    %a = memref.alloca() alignment = 16 : memref<4xf32>
    """


def _parse_load_store_flags(parser: Parser) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """`alignment(N)`? `nontemporal(true|false)`? attr-dict; returns (properties, attrs)."""
    props: dict[str, Attribute] = {}
    pos = parser.pos
    if parser.parse_optional_keyword("alignment"):
        parser.raise_error(
            "'alignment' on memref.load/store is not supported by schedir (xDSL has no such "
            "property)",
            pos,
            parser.pos,
        )
    if parser.parse_optional_keyword("nontemporal"):
        parser.parse_punctuation("(")
        props["nontemporal"] = BoolAttr.from_bool(parser.parse_boolean())
        parser.parse_punctuation(")")
    attrs = parser.parse_optional_attr_dict()
    legacy = _pop_legacy(attrs, "nontemporal")
    if legacy is not None and "nontemporal" not in props:
        props["nontemporal"] = legacy
    return props, attrs


def _print_nontemporal(printer: Printer, flag: BoolAttr | None) -> None:
    if flag is not None and flag.value.data:
        printer.print_string(" nontemporal(true)")


class LoadOp(xmemref.LoadOp):
    """Loads an element.

    %v = memref.load %a[%i, %j] : memref<4x8xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        props, attrs = _parse_load_store_flags(parser)
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        op = cls.build(
            operands=[parser.resolve_operand(memref, memref_type), indices],
            result_types=[cast(MemRefType[Attribute], memref_type).get_element_type()],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        _print_nontemporal(printer, self.nontemporal)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        rank = cast(MemRefType[Attribute], self.memref.type).get_num_dims()
        if rank != len(self.indices):
            raise VerifyException(
                f"incorrect number of indices for load, expected {rank} but got {len(self.indices)}"
            )


class StoreOp(xmemref.StoreOp):
    """Stores an element.

    memref.store %v, %a[%i, %j] : memref<4x8xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        props, attrs = _parse_load_store_flags(parser)
        parser.parse_punctuation(":")
        memref_type = cast(MemRefType[Attribute], parser.parse_type())
        op = cls.build(
            operands=[
                parser.resolve_operand(value, memref_type.get_element_type()),
                parser.resolve_operand(memref, memref_type),
                indices,
            ],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        _print_nontemporal(printer, self.nontemporal)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        rank = cast(MemRefType[Attribute], self.memref.type).get_num_dims()
        if rank != len(self.indices):
            raise VerifyException("store index operand count not equal to memref rank")


def _parse_unary_cast(parser: Parser, keyword: str) -> tuple:
    """`%src : type keyword type` (cast-like ops)."""
    src = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    src_type = parser.parse_type()
    parser.parse_keyword(keyword)
    dst_type = parser.parse_type()
    return parser.resolve_operand(src, src_type), dst_type, attrs


class CastOp(xmemref.CastOp):
    """Casts between compatible memref types (static <-> dynamic sizes and layouts).

    %c = memref.cast %a : memref<4x8xf32> to memref<?x?xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src, dst_type, attrs = _parse_unary_cast(parser, "to")
        op = cls.build(operands=[src], result_types=[dst_type])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.source.type} to {self.dest.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src, dst = self.source.type, self.dest.type
        if isinstance(src, MemRefType) and isinstance(dst, MemRefType):
            src_t, dst_t = cast(MemRefType[Attribute], src), cast(MemRefType[Attribute], dst)
            compatible = (
                src_t.get_element_type() == dst_t.get_element_type()
                and src_t.memory_space == dst_t.memory_space
                and len(src_t.get_shape()) == len(dst_t.get_shape())
                and all(
                    a == b or DYNAMIC_INDEX in (a, b)
                    for a, b in zip(src_t.get_shape(), dst_t.get_shape(), strict=True)
                )
            )
            if not compatible:
                raise VerifyException(
                    f"operand type '{src}' and result type '{dst}' are cast incompatible"
                )


class MemorySpaceCastOp(xmemref.MemorySpaceCastOp):
    """Changes the memory space of a memref, keeping everything else.

    %g = memref.memory_space_cast %s
        : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src, dst_type, attrs = _parse_unary_cast(parser, "to")
        op = cls(src, dst_type)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.source.type} to {self.dest.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src = cast(MemRefType[Attribute], self.source.type)
        dst = cast(MemRefType[Attribute], self.dest.type)
        if (
            src.get_shape() != dst.get_shape()
            or src.get_element_type() != dst.get_element_type()
            or src.layout != dst.layout
        ):
            raise VerifyException(
                f"operand type '{src}' and result type '{dst}' are cast incompatible"
            )


class CopyOp(xmemref.CopyOp):
    """Copies one buffer into another of the same shape and element type.

    memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32, strided<[16, 1]>>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("to")
        dst_type = parser.parse_type()
        op = cls(parser.resolve_operand(src, src_type), parser.resolve_operand(dst, dst_type))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(", ")
        printer.print_operand(self.destination)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.source.type} to {self.destination.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src = cast(MemRefType[Attribute], self.source.type)
        dst = cast(MemRefType[Attribute], self.destination.type)
        if src.get_element_type() != dst.get_element_type():
            raise VerifyException("requires the same element type for all operands")
        if any(
            a != b and DYNAMIC_INDEX not in (a, b)
            for a, b in zip(src.get_shape(), dst.get_shape(), strict=False)
        ) or len(src.get_shape()) != len(dst.get_shape()):
            raise VerifyException(
                f"source shape {list(src.get_shape())} and target shape "
                f"{list(dst.get_shape())} differ"
            )


class GlobalOp(xmemref.GlobalOp):
    """A global buffer, optionally constant and initialized.

        memref.global "private" constant @c : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
        memref.global @g : memref<2x2xf32> = uninitialized
        memref.global "private" @a : memref<8xi32> = dense<0> alignment = 64

    A missing visibility is stored as "public" and printed as missing.
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        visibility = parser.parse_optional_str_literal() or "public"
        constant = UnitAttr() if parser.parse_optional_keyword("constant") else None
        sym_name = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        pos = parser.pos
        memref_type = parser.parse_type()
        if not isinstance(memref_type, MemRefType):
            parser.raise_error("type should be static shaped memref", pos, parser.pos)
        initial: Attribute = UnitAttr()
        if parser.parse_optional_punctuation("="):
            if parser.parse_optional_keyword("dense"):
                # Upstream reads the literal with the memref's tensor type and prints it
                # without one.
                # A dense initializer holds ints or floats: the element type is one.
                element = cast(AnyDenseElement, memref_type.get_element_type())
                initial = parser.parse_dense_int_or_fp_elements_attr(
                    TensorType(element, memref_type.get_shape())
                )
            elif not parser.parse_optional_keyword("uninitialized"):
                initial = parser.parse_attribute()
        alignment = _parse_alignment(parser)
        attrs = parser.parse_optional_attr_dict()
        legacy = _pop_legacy(attrs, "alignment")
        if alignment is None and isinstance(legacy, IntegerAttr):
            alignment = IntegerAttr(legacy.value.data, i64)
        op = cls.build(
            properties={
                "sym_name": sym_name,
                "sym_visibility": StringAttr(visibility),
                "type": memref_type,
                "initial_value": initial,
                "constant": constant,
                "alignment": alignment,
            }
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility.data != "public":
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        if isinstance(self.initial_value, UnitAttr):
            # A declaration (no initializer) prints no `=`; `uninitialized` is a UnitAttr
            # too in xDSL's definition, so it is printed as such for definitions.
            printer.print_string(" = uninitialized")
        else:
            printer.print_string(" = ")
            # Upstream prints the initializer without its type (the memref gives it).
            value = self.initial_value
            if isinstance(value, DenseIntOrFPElementsAttr):
                value.print_without_type(printer)
            else:
                printer.print_attribute(value)
        _print_alignment(printer, self.alignment)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        _verify_alignment(self.alignment)


class GetGlobalOp(xmemref.GetGlobalOp):
    """The buffer of a global.

    %g = memref.get_global @c : memref<4xf32>
    """


class CollapseShapeOp(xmemref.CollapseShapeOp):
    """Merges groups of adjacent dimensions of a buffer (a view).

    %c = memref.collapse_shape %a [[0, 1]] : memref<4x8xf32> into memref<32xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return parse_reshape(cls, parser, expand=False)

    def print(self, printer: Printer) -> None:
        print_reshape(printer, self)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        if cast(ShapedType, self.result.type).get_shape():
            verify_reshape_like_types(
                collapsed_type=cast(ShapedType, self.result.type),
                expanded_type=cast(ShapedType, self.src.type),
                reassociation=self.reassociation,
            )


class ExpandShapeOp(xmemref.ExpandShapeOp):
    """Splits dimensions of a buffer into groups (a view).

    %e = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 8]
        : memref<4x8xf32> into memref<2x2x8xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return parse_reshape(cls, parser, expand=True)

    def print(self, printer: Printer) -> None:
        print_reshape(printer, self, (self.output_shape, self.static_output_shape))


_REPLACED = {
    op.name: op
    for op in (
        AllocOp,
        AllocaOp,
        LoadOp,
        StoreOp,
        CastOp,
        MemorySpaceCastOp,
        CopyOp,
        GlobalOp,
        GetGlobalOp,
        CollapseShapeOp,
        ExpandShapeOp,
    )
}

# xDSL's memref ops schedir keeps as they are, named here so that every memref op class
# is imported from this module.
AllocaScopeOp = xmemref.AllocaScopeOp
AllocaScopeReturnOp = xmemref.AllocaScopeReturnOp
AssumeAlignmentOp = xmemref.AssumeAlignmentOp
AtomicRMWOp = xmemref.AtomicRMWOp
DeallocOp = xmemref.DeallocOp
DimOp = xmemref.DimOp
DmaStartOp = xmemref.DmaStartOp
DmaWaitOp = xmemref.DmaWaitOp
ExtractAlignedPointerAsIndexOp = xmemref.ExtractAlignedPointerAsIndexOp
ExtractStridedMetaDataOp = xmemref.ExtractStridedMetaDataOp
RankOp = xmemref.RankOp
ReinterpretCastOp = xmemref.ReinterpretCastOp
SubviewOp = xmemref.SubviewOp
ViewOp = xmemref.ViewOp

MemRef = Dialect(
    "memref",
    [_REPLACED.get(op.name, op) for op in xmemref.MemRef.operations],
    list(xmemref.MemRef.attributes),
)

__all__ = [
    "AllocOp",
    "AllocaOp",
    "AllocaScopeOp",
    "AllocaScopeReturnOp",
    "AssumeAlignmentOp",
    "AtomicRMWOp",
    "CastOp",
    "CollapseShapeOp",
    "CopyOp",
    "DeallocOp",
    "DimOp",
    "DmaStartOp",
    "DmaWaitOp",
    "ExpandShapeOp",
    "ExtractAlignedPointerAsIndexOp",
    "ExtractStridedMetaDataOp",
    "GetGlobalOp",
    "GlobalOp",
    "LoadOp",
    "MemRef",
    "MemorySpaceCastOp",
    "RankOp",
    "ReinterpretCastOp",
    "StoreOp",
    "SubviewOp",
    "ViewOp",
]
