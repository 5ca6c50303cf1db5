"""The device-side asynchronous copies (`cp.async`, sm_80+): global to shared memory
copies of 4, 8 or 16 bytes per thread, grouped and waited on.

    %t = nvgpu.device_async_copy %src[%i, %j], %dst[%k, %l], 8, %valid bypassL1
        : memref<128x128xf16> to memref<64x64xf16, 3>
    %g = nvgpu.device_async_create_group %t, %t2
    nvgpu.device_async_wait %g numGroups = 1

With `%srcElements`, only that many elements are read and the rest of the destination
is zero-filled (the bounded copy of a tile's edge).
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, MemRefType, UnitAttr, i32
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.nvgpu.syntax import (
    optional_operand,
    parse_keyword_props,
    parse_operand_list,
    print_keyword_props,
)
from schedir.dialects.nvgpu.types import (
    DeviceAsyncTokenType,
    element_bit_width,
    is_shared_memory_space,
)
from schedir.dialects.syntax import LocatedVerifyException


def _error(message: str) -> LocatedVerifyException:
    return LocatedVerifyException(message, prefix=False)


def _last_dim_unit_stride(t: MemRefType) -> bool:
    strides = t.get_strides()
    return strides is None or not strides or strides[-1] == 1


@irdl_op_definition
class DeviceAsyncCopyOp(IRDLOperation):
    """`%t = nvgpu.device_async_copy %src[...], %dst[...], N [, %srcElements] [bypassL1]`:
    starts copying N elements (4, 8 or 16 bytes) from global `%src` to shared `%dst`."""

    name = "nvgpu.device_async_copy"

    dst = operand_def(MemRefType)
    dst_indices = var_operand_def(IndexType)
    src = operand_def(MemRefType)
    src_indices = var_operand_def(IndexType)
    src_elements = opt_operand_def(IndexType)
    dstElements = prop_def(IntegerAttr[IndexType])
    bypassL1 = opt_prop_def(UnitAttr)
    async_token = result_def(DeviceAsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        src: SSAValue,
        src_indices: list[SSAValue],
        dst: SSAValue,
        dst_indices: list[SSAValue],
        dst_elements: int,
        src_elements: SSAValue | None = None,
        *,
        bypass_l1: bool = False,
    ) -> None:
        super().__init__(
            operands=[
                dst,
                dst_indices,
                src,
                src_indices,
                optional_operand(src_elements),
            ],
            result_types=[DeviceAsyncTokenType()],
            properties={
                "dstElements": IntegerAttr(dst_elements, IndexType()),
                "bypassL1": UnitAttr() if bypass_l1 else None,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        src_indices = parse_operand_list(parser)
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        dst_indices = parse_operand_list(parser)
        parser.parse_punctuation(",")
        dst_elements = parser.parse_integer(allow_negative=False)
        src_elements = None
        if parser.parse_optional_punctuation(",") is not None:
            src_elements = parser.parse_unresolved_operand()
        props, attrs = parse_keyword_props(parser, (("bypassL1", "unit"),))
        parser.parse_punctuation(":")
        pos = parser.pos
        src_type = parser.parse_type()
        parser.parse_keyword("to")
        dst_type = parser.parse_type()
        if not isinstance(src_type, MemRefType) or not isinstance(dst_type, MemRefType):
            parser.raise_error("expected memref types", pos, parser.pos)
        index = IndexType()
        op = cls(
            parser.resolve_operand(src, src_type),
            [parser.resolve_operand(i, index) for i in src_indices],
            parser.resolve_operand(dst, dst_type),
            [parser.resolve_operand(i, index) for i in dst_indices],
            dst_elements,
            None if src_elements is None else parser.resolve_operand(src_elements, index),
        )
        op.properties |= props
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.src)
        printer.print_string("[")
        printer.print_list(self.src_indices, printer.print_ssa_value)
        printer.print_string("], ")
        printer.print_ssa_value(self.dst)
        printer.print_string("[")
        printer.print_list(self.dst_indices, printer.print_ssa_value)
        printer.print_string(f"], {self.dst_elements}")
        if self.src_elements is not None:
            printer.print_string(", ")
            printer.print_ssa_value(self.src_elements)
        print_keyword_props(printer, {"bypassL1": self.bypassL1})
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dst.type)

    @property
    def dst_elements(self) -> int:
        return self.dstElements.value.data

    def verify_(self) -> None:
        src, dst = self.src.type, self.dst.type
        assert isinstance(src, MemRefType) and isinstance(dst, MemRefType)
        if not _last_dim_unit_stride(src):
            raise _error("source memref most minor dim must have unit stride")
        if not _last_dim_unit_stride(dst):
            raise _error("destination memref most minor dim must have unit stride")
        if not is_shared_memory_space(dst.memory_space):
            raise _error(
                "destination memref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)"
            )
        if dst.element_type != src.element_type:
            raise _error("source and destination must have the same element type")
        if src.get_num_dims() != len(self.src_indices):
            raise VerifyException(
                f"expected {src.get_num_dims()} source indices, got {len(self.src_indices)}"
            )
        if dst.get_num_dims() != len(self.dst_indices):
            raise VerifyException(
                f"expected {dst.get_num_dims()} destination indices, got {len(self.dst_indices)}"
            )
        width = element_bit_width(dst.element_type) or 0
        size = width * self.dst_elements // 8
        if size not in (4, 8, 16):
            choices = [str(bits // width) for bits in (32, 64, 128) if width and bits // width > 0]
            raise _error(
                f"Requested copy elements is {self.dst_elements} with width {width}. But copy elements could be one of {', '.join(choices)}."
            )
        if self.bypassL1 is not None and size != 16:
            raise VerifyException(
                f"bypassL1 does not satify alignment for '{dst}' with destination element {self.dst_elements}. Unset bypassL1, or set destination element to {128 // width}"
            )


@irdl_op_definition
class DeviceAsyncCreateGroupOp(IRDLOperation):
    """`%g = nvgpu.device_async_create_group %t...`: closes a group of the pending copies
    (`cp.async.commit_group`)."""

    name = "nvgpu.device_async_create_group"

    input_tokens = var_operand_def(DeviceAsyncTokenType)
    async_token = result_def(DeviceAsyncTokenType)

    def __init__(self, tokens: list[SSAValue]) -> None:
        super().__init__(operands=[tokens], result_types=[DeviceAsyncTokenType()])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        tokens = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        op = cls([parser.resolve_operand(t, DeviceAsyncTokenType()) for t in tokens or []])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        if self.input_tokens:
            printer.print_string(" ")
            printer.print_list(self.input_tokens, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class DeviceAsyncWaitOp(IRDLOperation):
    """`nvgpu.device_async_wait %g [numGroups = N]`: waits until at most N (default 0)
    groups are in flight (`cp.async.wait_group N`)."""

    name = "nvgpu.device_async_wait"

    async_dependencies = operand_def(DeviceAsyncTokenType)
    numGroups = opt_prop_def(IntegerAttr[IntegerType])

    def __init__(self, token: SSAValue, num_groups: int | None = None) -> None:
        super().__init__(
            operands=[token],
            properties={"numGroups": None if num_groups is None else IntegerAttr(num_groups, i32)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        token = parser.parse_unresolved_operand()
        props, attrs = parse_keyword_props(parser, (("numGroups", "i32"),))
        op = cls(parser.resolve_operand(token, DeviceAsyncTokenType()))
        op.properties |= props
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.async_dependencies)
        print_keyword_props(printer, {"numGroups": self.numGroups})
        printer.print_op_attributes(self.attributes)

    @property
    def num_groups(self) -> int:
        """Groups that may still be in flight after the wait (default 0: all done)."""
        return 0 if self.numGroups is None else self.numGroups.value.data


OPS: tuple[type[IRDLOperation], ...] = (
    DeviceAsyncCopyOp,
    DeviceAsyncCreateGroupOp,
    DeviceAsyncWaitOp,
)

__all__ = ["OPS", "DeviceAsyncCopyOp", "DeviceAsyncCreateGroupOp", "DeviceAsyncWaitOp"]
