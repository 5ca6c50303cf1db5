"""Dialect conversion from a schedule (upstream TransformOps.td): `apply_conversion_patterns`
with its pattern descriptors (`apply_conversion_patterns.dialect_to_llvm`, and those of
the extensions, e.g. `apply_conversion_patterns.func.func_to_llvm`) and its default type
converter builder (e.g. `apply_conversion_patterns.memref.memref_to_llvm_type_converter`).

`ConversionPatternDescriptorOpInterface` and `TypeConverterBuilderOpInterface` mark the
ops allowed in the two regions, as upstream's interfaces of the same names.

Applied by `schedir.transform.ops.core.conversion`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, StringAttr, UnitAttr
from xdsl.dialects.transform import TransformOpHandleType
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_region_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)


class ConversionPatternDescriptorOpInterface:
    """Mixin of the ops that name conversion patterns inside `apply_conversion_patterns`.

    `TYPE_CONVERTER` is the kind of type converter the patterns need (upstream's
    `verifyTypeConverter`: the LLVM ones need an "LLVMTypeConverter")."""

    TYPE_CONVERTER: ClassVar[str] = "LLVMTypeConverter"


class TypeConverterBuilderOpInterface:
    """Mixin of the ops that build a type converter (the default one of
    `apply_conversion_patterns`); `TYPE_CONVERTER` is the kind they build."""

    TYPE_CONVERTER: ClassVar[str] = "LLVMTypeConverter"


@irdl_transform_op
class ApplyConversionPatternsOp(IRDLOperation):
    """Applies a dialect conversion to each target: the patterns named in the first
    region, types converted by the converter built in the second, until the ops are legal.

    ```mlir
    transform.apply_conversion_patterns to %func {
      transform.apply_conversion_patterns.dialect_to_llvm "memref"
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
    } {legal_dialects = ["func", "llvm"], partial_conversion} : !transform.any_op
    ```

    turns `%0 = memref.alloc() : memref<16xi8>` into `llvm.call @malloc`, with the
    descriptor structs of the LLVM lowering. Without `partial_conversion` every op under
    the target must end legal (in `legal_ops`/`legal_dialects`); with it, only the ops in
    `illegal_ops`/`illegal_dialects` must be gone.

    Return modes: consumes the target (only reads it with `preserve_handles`). Definite
    failure if a descriptor needs a type converter and none is given, or the converter's
    options are not supported; silenceable failure "dialect conversion failed" (note at
    the target) when illegal ops remain or a pattern cannot convert an op.
    """

    name = "transform.apply_conversion_patterns"

    target = operand_def(TransformOpHandleType)
    legal_ops = opt_prop_def(ArrayAttr[StringAttr])
    illegal_ops = opt_prop_def(ArrayAttr[StringAttr])
    legal_dialects = opt_prop_def(ArrayAttr[StringAttr])
    illegal_dialects = opt_prop_def(ArrayAttr[StringAttr])
    partial_conversion = opt_prop_def(UnitAttr)
    preserve_handles = opt_prop_def(UnitAttr)
    patterns = region_def()
    default_type_converter_region = var_region_def()

    traits = traits_def(NoTerminator())

    def consumed_values(self) -> tuple[SSAValue, ...]:
        """The target, unless `preserve_handles` keeps the handles up to date."""
        return () if self.preserve_handles is not None else (self.target,)

    @classmethod
    def parse(cls, parser: Parser) -> ApplyConversionPatternsOp:
        parser.parse_keyword("to")
        target = parser.parse_unresolved_operand()
        patterns = parser.parse_region()
        regions: list[Region] = [patterns]
        if parser.parse_optional_keyword("with") is not None:
            parser.parse_keyword("type_converter")
            regions.append(parser.parse_region())
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        value = parser.resolve_operand(target, parser.parse_type())
        for region in regions:
            if not region.blocks:
                from xdsl.ir import Block

                region.add_block(Block())
        op = cls.create(operands=[value], properties=props, attributes=attrs, regions=regions)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" to ")
        printer.print_ssa_value(self.target)
        printer.print_string(" ")
        printer.print_region(self.patterns, print_empty_block=False)
        for region in self.default_type_converter_region:
            printer.print_string(" with type_converter ")
            printer.print_region(region, print_empty_block=False)
        print_prop_and_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.target.type)

    def type_converter_builder(self) -> IRDLOperation | None:
        """The op of the type-converter region, if there is one."""
        for region in self.default_type_converter_region:
            first = region.block.first_op
            if isinstance(first, IRDLOperation):
                return first
        return None

    def verify_(self) -> None:
        if len(self.default_type_converter_region) > 1:
            raise VerifyException("expected 1 or 2 regions")
        for op in self.patterns.block.ops if self.patterns.blocks else ():
            if not isinstance(op, ConversionPatternDescriptorOpInterface):
                raise VerifyException(
                    "expected pattern children ops to implement "
                    "ConversionPatternDescriptorOpInterface"
                )
        for region in self.default_type_converter_region:
            ops = list(region.block.ops) if region.blocks else []
            if len(ops) != 1:
                raise VerifyException("expected exactly one op in default type converter region")
            builder = ops[0]
            if not isinstance(builder, TypeConverterBuilderOpInterface):
                raise VerifyException(
                    "expected default converter child op to implement "
                    "TypeConverterBuilderOpInterface"
                )
            for op in self.patterns.block.ops if self.patterns.blocks else ():
                if (
                    isinstance(op, ConversionPatternDescriptorOpInterface)
                    and op.TYPE_CONVERTER != builder.TYPE_CONVERTER
                ):
                    raise VerifyException(f"expected {op.TYPE_CONVERTER}")


@irdl_transform_op
class ApplyToLLVMConversionPatternsOp(IRDLOperation, ConversionPatternDescriptorOpInterface):
    """Conversion patterns: a dialect's conversion to the LLVM dialect (upstream's
    `ConvertToLLVMPatternInterface` of that dialect).

    ```mlir
    transform.apply_conversion_patterns.dialect_to_llvm "memref"
    ```

    Return modes: a descriptor inside `apply_conversion_patterns`; no handles, never
    fails by itself.
    """

    name = "transform.apply_conversion_patterns.dialect_to_llvm"

    # `dialect_name` is also Operation's method: the property keeps upstream's name.
    dialect = prop_def(StringAttr, prop_name="dialect_name")

    @classmethod
    def parse(cls, parser: Parser) -> ApplyToLLVMConversionPatternsOp:
        name = parser.parse_str_literal()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        props["dialect_name"] = StringAttr(name)
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.dialect.data)
        print_prop_and_attr_dict(printer, self, elided=("dialect_name",))


def string_list(attr: Attribute | None) -> tuple[str, ...]:
    """The strings of an optional `ArrayAttr` of `StringAttr` (legal_ops, ...)."""
    if not isinstance(attr, ArrayAttr):
        return ()
    return tuple(item.data for item in attr.data if isinstance(item, StringAttr))


OPS: tuple[type[IRDLOperation], ...] = (ApplyConversionPatternsOp, ApplyToLLVMConversionPatternsOp)

__all__ = [
    "OPS",
    "ApplyConversionPatternsOp",
    "ApplyToLLVMConversionPatternsOp",
    "ConversionPatternDescriptorOpInterface",
    "TypeConverterBuilderOpInterface",
    "string_list",
]
