"""The nvgpu types and the tensor-map enums (upstream NVGPU.td / NVGPUTypes.td).

Each type prints in upstream's `struct(params)` form, e.g.

    !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
    !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b,
                                l2promo = none, oob = zero, interleave = none>
    !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
    !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
    !nvgpu.mbarrier.token
    !nvgpu.device.async.token

`parse_body`/`print_body` are the text between the angle brackets: ops print their
nvgpu-typed operands in upstream's stripped form (`<tensor = ...>`) and read both forms.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import (
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr

SHARED_MEMORY_SPACE = 3
"""NVVM's shared-memory address space (upstream's kSharedMemoryAddressSpace)."""

SWIZZLES = ("none", "swizzle_32b", "swizzle_64b", "swizzle_128b")
L2PROMOS = ("none", "l2promo_64b", "l2promo_128b", "l2promo_256b")
OOBS = ("zero", "nan")
INTERLEAVES = ("none", "interleave_16b", "interleave_32b")
"""The tensor-map enums' keywords, in the order of their integer values (as the driver's
CUtensorMap* enums number them)."""


def is_shared_memory_space(space: Attribute) -> bool:
    """Upstream's isSharedMemoryAddressSpace: integer 3 or `#gpu.address_space<workgroup>`."""
    if isinstance(space, IntegerAttr):
        return space.value.data == SHARED_MEMORY_SPACE
    return isinstance(space, AddressSpaceAttr) and space.data == AddressSpace.WORKGROUP


def _parse_struct(
    parser: AttrParser,
    type_name: str,
    fields: dict[str, Callable[[AttrParser], Attribute]],
    defaults: dict[str, Attribute],
) -> dict[str, Attribute]:
    """`key = value, ...` in any order (upstream's `struct(params)`), after the `<`."""
    values: dict[str, Attribute] = {}
    while True:
        pos = parser.pos
        key = parser.parse_identifier()
        if key not in fields:
            parser.raise_error(f"'{type_name}' has no parameter '{key}'", pos, parser.pos)
        if key in values:
            parser.raise_error(f"duplicate parameter '{key}' in '{type_name}'", pos, parser.pos)
        parser.parse_punctuation("=")
        values[key] = fields[key](parser)
        if parser.parse_optional_punctuation(",") is None:
            break
    for key in fields:
        if key not in values:
            if key not in defaults:
                parser.raise_error(f"struct is missing required parameter: {key}")
            values[key] = defaults[key]
    return values


def _enum_field(values: tuple[str, ...], what: str) -> Callable[[AttrParser], Attribute]:
    def parse(parser: AttrParser) -> Attribute:
        pos = parser.pos
        word = parser.parse_optional_identifier()
        if word not in values:
            parser.raise_error(
                f"expected {what} to be one of: {', '.join(values)}", pos, max(parser.pos, pos + 1)
            )
        return StringAttr(word)

    return parse


def _memref_field(parser: AttrParser) -> Attribute:
    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, MemRefType):
        parser.raise_error("expected a memref type", pos, parser.pos)
    return t


def _vector_field(parser: AttrParser) -> Attribute:
    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, VectorType):
        parser.raise_error("expected a vector type", pos, parser.pos)
    return t


class NVGPUType(ParametrizedAttribute, TypeAttribute):
    """Base of the nvgpu types with parameters: the `<...>` body is shared by the full
    (`!nvgpu.x<...>`) and the stripped (`<...>`) spelling."""

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Sequence[Attribute]:
        """The parameters, read after `<` and before `>`."""
        raise NotImplementedError

    def print_body(self, printer: Printer) -> None:
        """The parameters, printed without the angle brackets."""
        raise NotImplementedError

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        params = cls.parse_body(parser)
        parser.parse_punctuation(">")
        return params

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        self.print_body(printer)
        printer.print_string(">")


@irdl_attr_definition
class DeviceAsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.device.async.token`: links `device_async_copy` to its group and wait."""

    name = "nvgpu.device.async.token"


@irdl_attr_definition
class MBarrierTokenType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.mbarrier.token`: the phase state an `mbarrier.arrive` returns."""

    name = "nvgpu.mbarrier.token"


def _parse_barrier_count(parser: AttrParser) -> Attribute:
    pos = parser.pos
    count = parser.parse_integer()
    if count < 1:
        parser.raise_error("an mbarrier group holds at least one barrier", pos, parser.pos)
    return IntAttr(count)


@irdl_attr_definition
class MBarrierGroupType(NVGPUType):
    """`!nvgpu.mbarrier.group<memorySpace = ..., num_barriers = N>`: N (default 1) 64-bit
    mbarrier objects in shared memory."""

    name = "nvgpu.mbarrier.group"

    memory_space: Attribute
    num_barriers: IntAttr

    def __init__(self, memory_space: Attribute, num_barriers: int = 1) -> None:
        super().__init__(memory_space, IntAttr(num_barriers))

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = _parse_struct(
            parser,
            "mbarrier.group",
            {
                "memorySpace": lambda p: p.parse_attribute(),
                "num_barriers": _parse_barrier_count,
            },
            {"num_barriers": IntAttr(1)},
        )
        return values["memorySpace"], values["num_barriers"]

    def print_body(self, printer: Printer) -> None:
        printer.print_string("memorySpace = ")
        printer.print_attribute(self.memory_space)
        if self.num_barriers.data != 1:
            printer.print_string(f", num_barriers = {self.num_barriers.data}")

    def verify(self) -> None:
        if self.num_barriers.data < 1:
            raise VerifyException("an mbarrier group holds at least one barrier")


@irdl_attr_definition
class TensorMapDescriptorType(NVGPUType):
    """`!nvgpu.tensormap.descriptor<tensor = memref<...>, swizzle = ..., l2promo = ...,
    oob = ..., interleave = ...>`: a 128-byte TMA descriptor of a box of `tensor`'s shape
    (a kernel parameter, built on the host by `cuTensorMapEncodeTiled`)."""

    name = "nvgpu.tensormap.descriptor"

    tensor: MemRefType
    swizzle: StringAttr
    l2promo: StringAttr
    oob: StringAttr
    interleave: StringAttr

    def __init__(
        self,
        tensor: MemRefType,
        swizzle: str = "none",
        l2promo: str = "none",
        oob: str = "zero",
        interleave: str = "none",
    ) -> None:
        super().__init__(
            tensor,
            StringAttr(swizzle),
            StringAttr(l2promo),
            StringAttr(oob),
            StringAttr(interleave),
        )

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = _parse_struct(
            parser,
            "tensormap.descriptor",
            {
                "tensor": _memref_field,
                "swizzle": _enum_field(SWIZZLES, "::mlir::nvgpu::TensorMapSwizzleKind"),
                "l2promo": _enum_field(L2PROMOS, "::mlir::nvgpu::TensorMapL2PromoKind"),
                "oob": _enum_field(OOBS, "::mlir::nvgpu::TensorMapOOBKind"),
                "interleave": _enum_field(INTERLEAVES, "::mlir::nvgpu::TensorMapInterleaveKind"),
            },
            {},
        )
        return tuple(values[k] for k in ("tensor", "swizzle", "l2promo", "oob", "interleave"))

    def print_body(self, printer: Printer) -> None:
        printer.print_string("tensor = ")
        printer.print_attribute(self.tensor)
        printer.print_string(
            f", swizzle = {self.swizzle.data}, l2promo = {self.l2promo.data},"
            f" oob = {self.oob.data}, interleave = {self.interleave.data}"
        )

    def verify(self) -> None:
        for value, allowed in (
            (self.swizzle.data, SWIZZLES),
            (self.l2promo.data, L2PROMOS),
            (self.oob.data, OOBS),
            (self.interleave.data, INTERLEAVES),
        ):
            if value not in allowed:
                raise VerifyException(f"'{value}' is not one of {', '.join(allowed)}")

    @property
    def swizzle_bytes(self) -> int:
        """The swizzle span in bytes (0 for none)."""
        return {"none": 0, "swizzle_32b": 32, "swizzle_64b": 64, "swizzle_128b": 128}[
            self.swizzle.data
        ]


@irdl_attr_definition
class WarpgroupMatrixDescriptorType(NVGPUType):
    """`!nvgpu.warpgroup.descriptor<tensor = memref<...>>`: the 64-bit wgmma matrix
    descriptor of an operand tile in shared memory."""

    name = "nvgpu.warpgroup.descriptor"

    tensor: MemRefType

    def __init__(self, tensor: MemRefType) -> None:
        super().__init__(tensor)

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = _parse_struct(parser, "warpgroup.descriptor", {"tensor": _memref_field}, {})
        return (values["tensor"],)

    def print_body(self, printer: Printer) -> None:
        printer.print_string("tensor = ")
        printer.print_attribute(self.tensor)


@irdl_attr_definition
class WarpgroupAccumulatorType(NVGPUType):
    """`!nvgpu.warpgroup.accumulator<fragmented = vector<MxNxT>>`: the M x N accumulator
    of a warpgroup mma, distributed over the 128 threads' registers."""

    name = "nvgpu.warpgroup.accumulator"

    fragmented: VectorType

    def __init__(self, fragmented: VectorType) -> None:
        super().__init__(fragmented)

    @classmethod
    def parse_body(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = _parse_struct(parser, "warpgroup.accumulator", {"fragmented": _vector_field}, {})
        return (values["fragmented"],)

    def print_body(self, printer: Printer) -> None:
        printer.print_string("fragmented = ")
        printer.print_attribute(self.fragmented)


def element_bit_width(t: Attribute) -> int | None:
    """Bit width of an integer or float element type (None for others)."""
    if isinstance(t, IntegerType):
        return t.width.data
    width = getattr(t, "bitwidth", None)
    return width if isinstance(width, int) else None


def has_memory_space(t: MemRefType) -> bool:
    """Whether the memref has a memory space at all."""
    return not isinstance(t.memory_space, NoneAttr)


TYPES: tuple[type[ParametrizedAttribute], ...] = (
    DeviceAsyncTokenType,
    MBarrierTokenType,
    MBarrierGroupType,
    TensorMapDescriptorType,
    WarpgroupMatrixDescriptorType,
    WarpgroupAccumulatorType,
)

__all__ = [
    "INTERLEAVES",
    "L2PROMOS",
    "OOBS",
    "SHARED_MEMORY_SPACE",
    "SWIZZLES",
    "TYPES",
    "DeviceAsyncTokenType",
    "MBarrierGroupType",
    "MBarrierTokenType",
    "NVGPUType",
    "TensorMapDescriptorType",
    "WarpgroupAccumulatorType",
    "WarpgroupMatrixDescriptorType",
    "element_bit_width",
    "has_memory_space",
    "is_shared_memory_space",
]
