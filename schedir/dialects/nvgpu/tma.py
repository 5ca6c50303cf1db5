"""The TMA ops: tensor-map descriptors and the bulk tensor copies between global and
shared memory they drive (sm_90).

    %d = nvgpu.tma.create.descriptor %unranked box[%c64, %c64] : memref<*xf16> -> !tmap
    nvgpu.tma.prefetch.descriptor %d : !tmap
    nvgpu.tma.fence.descriptor %d : !tmap
    nvgpu.tma.async.load %d[%x, %y], %b[%i] to %smem multicast_mask = %m, predicate = %p
        : !tmap, !bar -> memref<64x64xf16, 3>
    nvgpu.tma.async.store %smem to %d[%x, %y], predicate = %p : memref<64x64xf16, 3> -> !tmap

A load completes on the mbarrier `%b[%i]` (as `complete_tx` bytes); the descriptor's
`tensor` is the box in shared memory, and the coordinates (innermost first in PTX, as
written here outermost first) say where the box starts in the global tensor.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    AnyUnrankedMemRefTypeConstr,
    IndexType,
    IntegerType,
    MemRefType,
    UnrankedMemRefType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from schedir.dialects.nvgpu.syntax import (
    optional_operand,
    parse_memref_type,
    parse_nvgpu_type,
    parse_operand_list,
    parse_predicate,
    print_nvgpu_type,
    print_predicate,
)
from schedir.dialects.nvgpu.types import (
    MBarrierGroupType,
    TensorMapDescriptorType,
    element_bit_width,
    is_shared_memory_space,
)
from schedir.dialects.syntax import LocatedVerifyException

MAX_TMA_DIMENSION = 256
"""Largest box size in any dimension (upstream's kMaxTMADimension)."""
MAX_TMA_RANK = 5
"""Most coordinates of a TMA copy (upstream's kMaxTMATensorDimension)."""


def _error(message: str) -> LocatedVerifyException:
    """Upstream's `emitError()`: the message without the `'op' op` prefix."""
    return LocatedVerifyException(message, prefix=False)


def verify_tma_descriptor(desc: TensorMapDescriptorType, memref: MemRefType | None = None) -> None:
    """Upstream's verifyTmaDescriptorWithMemref: the descriptor's box is a static
    shared-memory memref within TMA's limits, and matches `memref` when given."""
    box = desc.tensor
    if desc.interleave.data != "none":
        raise _error("Interleave options are not supported yet.")
    if not is_shared_memory_space(box.memory_space):
        raise _error(
            "the tensor map descriptor has incorrect address space, it must be shared memory address space."
        )
    if not box.has_static_shape():
        raise _error("the tensor map descriptor must be static shaped")
    for dim in box.get_shape():
        if dim <= 0 or dim > MAX_TMA_DIMENSION:
            raise _error(
                f"the tensor map descriptor must have dimensions between 1 and {MAX_TMA_DIMENSION} but it is {dim}"
            )
    width = element_bit_width(box.element_type)
    if box.get_num_dims() > 1 and desc.swizzle_bytes and width is not None:
        # The innermost box row spans exactly one swizzle pattern (as upstream checks).
        last = width * box.get_shape()[-1] // 8
        if last != desc.swizzle_bytes:
            raise _error(
                f"the tensormap descriptor must have last dimension of {desc.swizzle_bytes} bytes but it is {last} bytes"
            )
    if memref is None:
        return
    if box.element_type != memref.element_type:
        raise _error("the element type of tensor map descriptor and memref must be same")
    if not is_shared_memory_space(memref.memory_space):
        raise _error(
            "the destination memref has incorrect address space, it must be shared memory address space."
        )
    if not memref.has_static_shape():
        raise _error("the destination memref must be static shaped")
    if memref.get_num_dims() != box.get_num_dims():
        raise _error("the shape of tensor map descriptor and memref must have same rank")
    if tuple(memref.get_shape()) != tuple(box.get_shape()):
        raise _error(f"memref and tensor map shapes mismatch '{box}' != '{memref}'")


def _verify_coordinates(desc: TensorMapDescriptorType, count: int) -> None:
    if count > MAX_TMA_RANK:
        raise _error(f"Maximum {MAX_TMA_RANK} coordinates are supported.")
    if count != desc.tensor.get_num_dims():
        raise _error("number of coordinates do not match with the rank of tensor descriptor map.")


def _descriptor(value: SSAValue) -> TensorMapDescriptorType:
    t = value.type
    assert isinstance(t, TensorMapDescriptorType)
    return t


def _memref(value: SSAValue) -> MemRefType:
    t = value.type
    assert isinstance(t, MemRefType)
    return t


def _print_indices(printer: Printer, values: tuple[SSAValue, ...] | list[SSAValue]) -> None:
    printer.print_string("[")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string("]")


@irdl_op_definition
class TmaAsyncLoadOp(IRDLOperation):
    """`nvgpu.tma.async.load %d[coords], %b[%i] to %smem`: a bulk tensor copy of the
    descriptor's box at `coords` into shared memory, completing on mbarrier `%b[%i]`
    (optionally multicast to the CTAs of `multicast_mask`, or only where `predicate`)."""

    name = "nvgpu.tma.async.load"

    dst = operand_def(MemRefType)
    barriers = operand_def(MBarrierGroupType)
    tensor_map_descriptor = operand_def(TensorMapDescriptorType)
    coordinates = var_operand_def(IndexType)
    mbar_id = operand_def(IndexType)
    multicast_mask = opt_operand_def(IntegerType(16))
    predicate = opt_operand_def(i1)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        dst: SSAValue,
        barriers: SSAValue,
        descriptor: SSAValue,
        coordinates: list[SSAValue],
        mbar_id: SSAValue,
        multicast_mask: SSAValue | None = None,
        predicate: SSAValue | None = None,
    ) -> None:
        super().__init__(
            operands=[
                dst,
                barriers,
                descriptor,
                coordinates,
                mbar_id,
                optional_operand(multicast_mask),
                optional_operand(predicate),
            ]
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        desc = parser.parse_unresolved_operand()
        coords = parse_operand_list(parser)
        parser.parse_punctuation(",")
        barriers = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        mbar_id = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        mask = None
        if parser.parse_optional_keyword("multicast_mask") is not None:
            parser.parse_punctuation("=")
            mask = parser.parse_unresolved_operand()
        predicate = parse_predicate(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        desc_type = parse_nvgpu_type(parser, TensorMapDescriptorType)
        parser.parse_punctuation(",")
        group = parse_nvgpu_type(parser, MBarrierGroupType)
        parser.parse_punctuation("->")
        dst_type = parse_memref_type(parser)
        index = IndexType()
        op = cls(
            parser.resolve_operand(dst, dst_type),
            parser.resolve_operand(barriers, group),
            parser.resolve_operand(desc, desc_type),
            [parser.resolve_operand(c, index) for c in coords],
            parser.resolve_operand(mbar_id, index),
            None if mask is None else parser.resolve_operand(mask, IntegerType(16)),
            None if predicate is None else parser.resolve_operand(predicate, i1),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor_map_descriptor)
        _print_indices(printer, self.coordinates)
        printer.print_string(", ")
        printer.print_ssa_value(self.barriers)
        _print_indices(printer, [self.mbar_id])
        printer.print_string(" to ")
        printer.print_ssa_value(self.dst)
        if self.multicast_mask is not None:
            printer.print_string(" multicast_mask = ")
            printer.print_ssa_value(self.multicast_mask)
        print_predicate(printer, self.predicate)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.tensor_map_descriptor.type)
        printer.print_string(", ")
        print_nvgpu_type(printer, self.barriers.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        desc = _descriptor(self.tensor_map_descriptor)
        verify_tma_descriptor(desc, _memref(self.dst))
        _verify_coordinates(desc, len(self.coordinates))


@irdl_op_definition
class TmaAsyncStoreOp(IRDLOperation):
    """`nvgpu.tma.async.store %smem to %d[coords]`: a bulk tensor copy of a box in shared
    memory to the global tensor at `coords` (completion: `cp.async.bulk` groups)."""

    name = "nvgpu.tma.async.store"

    src = operand_def(MemRefType)
    tensor_map_descriptor = operand_def(TensorMapDescriptorType)
    coordinates = var_operand_def(IndexType)
    predicate = opt_operand_def(i1)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        src: SSAValue,
        descriptor: SSAValue,
        coordinates: list[SSAValue],
        predicate: SSAValue | None = None,
    ) -> None:
        super().__init__(operands=[src, descriptor, coordinates, optional_operand(predicate)])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        desc = parser.parse_unresolved_operand()
        coords = parse_operand_list(parser)
        predicate = parse_predicate(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parse_memref_type(parser)
        parser.parse_punctuation("->")
        desc_type = parse_nvgpu_type(parser, TensorMapDescriptorType)
        op = cls(
            parser.resolve_operand(src, src_type),
            parser.resolve_operand(desc, desc_type),
            [parser.resolve_operand(c, IndexType()) for c in coords],
            None if predicate is None else parser.resolve_operand(predicate, i1),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.src)
        printer.print_string(" to ")
        printer.print_ssa_value(self.tensor_map_descriptor)
        _print_indices(printer, self.coordinates)
        print_predicate(printer, self.predicate)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.tensor_map_descriptor.type)

    def verify_(self) -> None:
        desc = _descriptor(self.tensor_map_descriptor)
        verify_tma_descriptor(desc, _memref(self.src))
        _verify_coordinates(desc, len(self.coordinates))


@irdl_op_definition
class TmaPrefetchOp(IRDLOperation):
    """`nvgpu.tma.prefetch.descriptor %d [, predicate = %p] : !tmap`: brings the
    descriptor's cache line in ahead of its first TMA copy."""

    name = "nvgpu.tma.prefetch.descriptor"

    tensor_map_descriptor = operand_def(TensorMapDescriptorType)
    predicate = opt_operand_def(i1)

    def __init__(self, descriptor: SSAValue, predicate: SSAValue | None = None) -> None:
        super().__init__(operands=[descriptor, optional_operand(predicate)])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        desc = parser.parse_unresolved_operand()
        predicate = parse_predicate(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        desc_type = parse_nvgpu_type(parser, TensorMapDescriptorType)
        op = cls(
            parser.resolve_operand(desc, desc_type),
            None if predicate is None else parser.resolve_operand(predicate, i1),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor_map_descriptor)
        print_predicate(printer, self.predicate)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.tensor_map_descriptor.type)


@irdl_op_definition
class TmaFenceOp(IRDLOperation):
    """`nvgpu.tma.fence.descriptor %d : !tmap`: orders a descriptor modified in memory
    before its use by TMA."""

    name = "nvgpu.tma.fence.descriptor"

    tensor_map_descriptor = operand_def(TensorMapDescriptorType)

    def __init__(self, descriptor: SSAValue) -> None:
        super().__init__(operands=[descriptor])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        desc = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        desc_type = parse_nvgpu_type(parser, TensorMapDescriptorType)
        op = cls(parser.resolve_operand(desc, desc_type))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor_map_descriptor)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.tensor_map_descriptor.type)


@irdl_op_definition
class TmaCreateDescriptorOp(IRDLOperation):
    """`%d = nvgpu.tma.create.descriptor %t box[sizes] : memref<*xT> -> !tmap`: the host
    builds the descriptor of the global tensor `%t` (the driver's cuTensorMapEncodeTiled)."""

    name = "nvgpu.tma.create.descriptor"

    tensor = operand_def(AnyUnrankedMemRefTypeConstr)
    box_dimensions = var_operand_def(IndexType)
    tensor_map = result_def(TensorMapDescriptorType)

    def __init__(
        self, tensor: SSAValue, box: list[SSAValue], result_type: TensorMapDescriptorType
    ) -> None:
        super().__init__(operands=[tensor, box], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        tensor = parser.parse_unresolved_operand()
        parser.parse_keyword("box")
        box = parse_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        tensor_type: Attribute = parser.parse_type()
        if not isinstance(tensor_type, UnrankedMemRefType):
            parser.raise_error(
                f"expected an unranked memref type, got {tensor_type}", pos, parser.pos
            )
        parser.parse_punctuation("->")
        result = parse_nvgpu_type(parser, TensorMapDescriptorType)
        op = cls(
            parser.resolve_operand(tensor, tensor_type),
            [parser.resolve_operand(b, IndexType()) for b in box],
            result,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor)
        printer.print_string(" box")
        _print_indices(printer, self.box_dimensions)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.tensor_map.type)

    def verify_(self) -> None:
        if len(self.box_dimensions) > MAX_TMA_RANK:
            raise _error(f"Maximum {MAX_TMA_RANK} coordinates are supported.")
        verify_tma_descriptor(_descriptor(self.tensor_map))


def descriptor_of(op: Operation) -> TensorMapDescriptorType:
    """The tensor-map descriptor type a TMA op works with."""
    for operand in op.operands:
        if isinstance(operand.type, TensorMapDescriptorType):
            return operand.type
    for result in op.results:
        if isinstance(result.type, TensorMapDescriptorType):
            return result.type
    raise ValueError(f"{op.name} has no tensor map descriptor")


OPS: tuple[type[IRDLOperation], ...] = (
    TmaAsyncLoadOp,
    TmaAsyncStoreOp,
    TmaPrefetchOp,
    TmaFenceOp,
    TmaCreateDescriptorOp,
)

__all__ = [
    "MAX_TMA_DIMENSION",
    "MAX_TMA_RANK",
    "OPS",
    "TmaAsyncLoadOp",
    "TmaAsyncStoreOp",
    "TmaCreateDescriptorOp",
    "TmaFenceOp",
    "TmaPrefetchOp",
    "descriptor_of",
    "verify_tma_descriptor",
]
