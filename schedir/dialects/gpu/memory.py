"""Host-side gpu memory and synchronization: alloc, dealloc, memcpy, memset, wait, printf;
and the kernel's dynamic shared memory (`gpu.dynamic_shared_memory`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Self

from xdsl.dialects.builtin import (
    IndexType,
    MemRefType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    OptOpResult,
    VarOperand,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr
from schedir.dialects.gpu.syntax import INDEX, AsyncTokenType, parse_async, print_async


@irdl_op_definition
class AllocOp(IRDLOperation):
    """`%m = gpu.alloc [async [deps]] [host_shared] (%dyn)[%sym] : memref<...>`: device memory."""

    name = "gpu.alloc"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dynamicSizes = var_operand_def(IndexType)
    symbolOperands = var_operand_def(IndexType)
    hostShared = opt_prop_def(UnitAttr)
    memref = result_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        memref_type: MemRefType,
        dynamic_sizes: Sequence[SSAValue] = (),
        *,
        async_dependencies: Sequence[SSAValue] = (),
        is_async: bool = False,
    ) -> None:
        super().__init__(
            operands=[list(async_dependencies), list(dynamic_sizes), []],
            result_types=[memref_type, [AsyncTokenType()] if is_async else []],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = parse_async(parser)
        shared = parser.parse_optional_keyword("host_shared") is not None
        dyn = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_operand(INDEX)
        )
        syms: list[SSAValue] = []
        parsed = parser.parse_optional_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_operand(INDEX)
        )
        if parsed is not None:
            syms = list(parsed)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls.build(
            operands=[deps, dyn, syms],
            result_types=[t, [AsyncTokenType()] if is_async else []],
            properties={"hostShared": UnitAttr() if shared else None},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        if self.hostShared is not None:
            printer.print_string(" host_shared")
        printer.print_string(" (")
        printer.print_list(self.dynamicSizes, printer.print_ssa_value)
        printer.print_string(")")
        if self.symbolOperands:
            printer.print_string("[")
            printer.print_list(self.symbolOperands, printer.print_ssa_value)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


@irdl_op_definition
class DeallocOp(IRDLOperation):
    """`gpu.dealloc [async [deps]] %m : memref<...>`: frees device memory."""

    name = "gpu.dealloc"
    asyncDependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    def __init__(
        self,
        memref: SSAValue,
        *,
        async_dependencies: Sequence[SSAValue] = (),
        is_async: bool = False,
    ) -> None:
        super().__init__(
            operands=[list(async_dependencies), memref],
            result_types=[[AsyncTokenType()] if is_async else []],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = parse_async(parser)
        unresolved = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(
            parser.resolve_operand(unresolved, parser.parse_type()),
            async_dependencies=deps,
            is_async=is_async,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        printer.print_string(" ")
        printer.print_ssa_value(self.memref)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


class _CopyLikeOp(IRDLOperation):
    """Shared syntax of `gpu.memcpy` / `gpu.memset`: `%a, %b : ta, tb`."""

    if TYPE_CHECKING:
        # Each op defines these; declared for the checker only (IRDL reads a runtime
        # annotation as a field definition).
        asyncDependencies: VarOperand
        asyncToken: OptOpResult

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = parse_async(parser)
        first = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        second = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t1 = parser.parse_type()
        parser.parse_punctuation(",")
        t2 = parser.parse_type()
        op = cls.build(
            operands=[deps, parser.resolve_operand(first, t1), parser.resolve_operand(second, t2)],
            result_types=[[AsyncTokenType()] if is_async else []],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        a, b = self.operands[len(self.asyncDependencies) :]
        printer.print_string(" ")
        printer.print_list((a, b), printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list((a.type, b.type), printer.print_attribute)


@irdl_op_definition
class MemcpyOp(_CopyLikeOp):
    """`gpu.memcpy [async [deps]] %dst, %src : tdst, tsrc`: copies between host/device memory."""

    name = "gpu.memcpy"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    src = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    def __init__(
        self,
        dst: SSAValue,
        src: SSAValue,
        *,
        async_dependencies: Sequence[SSAValue] = (),
        is_async: bool = False,
    ) -> None:
        super().__init__(
            operands=[list(async_dependencies), dst, src],
            result_types=[[AsyncTokenType()] if is_async else []],
        )

    def verify_(self) -> None:
        dst, src = self.dst.type, self.src.type
        assert isinstance(dst, MemRefType) and isinstance(src, MemRefType)
        if dst.element_type != src.element_type:
            raise VerifyException("'gpu.memcpy' op arguments have incompatible element type")
        if dst.get_shape() != src.get_shape():
            raise VerifyException("'gpu.memcpy' op arguments have incompatible shape")


@irdl_op_definition
class MemsetOp(_CopyLikeOp):
    """`gpu.memset [async [deps]] %dst, %value : tdst, tvalue`: fills device memory."""

    name = "gpu.memset"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    value = operand_def()
    asyncToken = opt_result_def(AsyncTokenType)

    def __init__(self, dst: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[[], dst, value], result_types=[[]])


@irdl_op_definition
class WaitOp(IRDLOperation):
    """`gpu.wait [async] [deps]`: waits for async GPU work (blocks the host without `async`)."""

    name = "gpu.wait"
    asyncDependencies = var_operand_def(AsyncTokenType)
    asyncToken = opt_result_def(AsyncTokenType)

    def __init__(
        self, async_dependencies: Sequence[SSAValue] = (), *, is_async: bool = False
    ) -> None:
        super().__init__(
            operands=[list(async_dependencies)],
            result_types=[[AsyncTokenType()] if is_async else []],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = parse_async(parser)
        op = cls(deps, is_async=is_async)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """`gpu.printf "x = %f\\n", %x : f32`: device-side printf."""

    name = "gpu.printf"
    format = prop_def(StringAttr)
    args = var_operand_def()

    def __init__(self, format: str, args: Sequence[SSAValue] = ()) -> None:
        super().__init__(operands=[list(args)], properties={"format": StringAttr(format)})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        text = parser.parse_str_literal()
        unresolved: list[UnresolvedOperand] = []
        while parser.parse_optional_punctuation(",") is not None:
            unresolved.append(parser.parse_unresolved_operand())
        types: list[Attribute] = []
        attrs = parser.parse_optional_attr_dict()
        if unresolved:
            parser.parse_punctuation(":")
            types = [parser.parse_type()]
            while parser.parse_optional_punctuation(",") is not None:
                types.append(parser.parse_type())
        args = parser.resolve_operands(unresolved, types, parser.pos)
        op = cls(text, args)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.format.data)
        for arg in self.args:
            printer.print_string(", ")
            printer.print_ssa_value(arg)
        printer.print_op_attributes(self.attributes)
        if self.args:
            printer.print_string(" : ")
            printer.print_list([a.type for a in self.args], printer.print_attribute)


@irdl_op_definition
class DynamicSharedMemoryOp(IRDLOperation):
    """`%m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>`: the
    block's dynamic shared memory (the launch's `dynamic_shared_memory_size` bytes), as
    upstream's op; buffers are `memref.view`s of it."""

    name = "gpu.dynamic_shared_memory"
    resultMemref = result_def(MemRefType)
    assembly_format = "attr-dict `:` type($resultMemref)"

    def __init__(self, result_type: MemRefType) -> None:
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        t = self.resultMemref.type
        assert isinstance(t, MemRefType)
        width = getattr(t.element_type, "width", None)
        shape = t.get_shape()
        space = t.memory_space
        workgroup = isinstance(space, AddressSpaceAttr) and space.data == AddressSpace.WORKGROUP
        if len(shape) != 1 or shape[0] >= 0 or getattr(width, "data", None) != 8 or not workgroup:
            # upstream's message (GPUOps.cpp, DynamicSharedMemoryOp::verify)
            raise VerifyException(
                "result memref type must be memref<?xi8, #gpu.address_space<workgroup>>"
            )
