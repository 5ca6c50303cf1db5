"""The gpu dialect's loop-mapping and memory attributes, with upstream MLIR's syntax.

xDSL has none of the attributes a schedule uses to map loops onto the GPU or to place
buffers in its memories:

    scf.forall (%i, %j) in (4, 8) { ... } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    %buf = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>

Mapping attributes (`#gpu.block`, `#gpu.thread`, `#gpu.warp`, `#gpu.warpgroup`, `#gpu.lane`)
take a mapping id: `x`, `y`, `z` (3-D mode) or `linear_dim_0` ... `linear_dim_9` (linear
mode), with upstream's numbering (x = 0, ..., linear_dim_9 = 12).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar, cast

from xdsl.dialects.utils import EnumAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class MappingId(StrEnum):
    """Upstream's `MappingId` enum: three grid dimensions, then ten linear dimensions."""

    X = "x"
    Y = "y"
    Z = "z"
    LINEAR_DIM_0 = "linear_dim_0"
    LINEAR_DIM_1 = "linear_dim_1"
    LINEAR_DIM_2 = "linear_dim_2"
    LINEAR_DIM_3 = "linear_dim_3"
    LINEAR_DIM_4 = "linear_dim_4"
    LINEAR_DIM_5 = "linear_dim_5"
    LINEAR_DIM_6 = "linear_dim_6"
    LINEAR_DIM_7 = "linear_dim_7"
    LINEAR_DIM_8 = "linear_dim_8"
    LINEAR_DIM_9 = "linear_dim_9"


class AddressSpace(StrEnum):
    """Upstream's `gpu::AddressSpace`: where a buffer lives on the device."""

    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"


_E = TypeVar("_E", bound=StrEnum)


class DeviceMappingAttr(Generic[_E]):
    """Mixin of every loop-mapping attribute (upstream's DeviceMappingAttrInterface): an
    `scf.forall` mapping array holds only these."""

    level: ClassVar[str]

    if TYPE_CHECKING:
        # The EnumAttribute's value; declared for the checker only, as IRDL would read a
        # runtime annotation as a parameter.
        data: _E

    @property
    def mapping_id(self) -> int:
        """Upstream's integer id: x=0, y=1, z=2, linear_dim_0=3, ..., linear_dim_9=12."""
        value = self.data
        return list(type(value)).index(value)

    @property
    def is_linear(self) -> bool:
        """Whether this is a linear mapping (`linear_dim_N`) rather than a 3-D one."""
        return isinstance(self.data, MappingId) and self.mapping_id >= 3

    @property
    def relative_index(self) -> int:
        """Position within its mode: x/y/z -> 0/1/2, linear_dim_N -> N."""
        return self.mapping_id - 3 if self.is_linear else self.mapping_id


_ENUM_CPP_NAMES = {
    "MappingId": "::mlir::gpu::MappingId",
    "AddressSpace": "::mlir::gpu::AddressSpace",
}


def _parse_angled_enum(parser: AttrParser, enum: type[StrEnum]) -> StrEnum:
    """`<value>` with upstream's message for a value outside the enum."""
    with parser.in_angle_brackets():
        pos = parser.pos
        word = parser.parse_optional_identifier()
        values = [e.value for e in enum]
        if word not in values:
            parser.raise_error(
                f"expected {_ENUM_CPP_NAMES[enum.__name__]} to be one of: {', '.join(values)}",
                pos,
                max(parser.pos, pos + 1),
            )
        return enum(word)


class _AngledEnumSyntax(Generic[_E]):
    """`<value>` syntax of the gpu enum attributes, with upstream's message for an unknown value."""

    enum_type: ClassVar[type[StrEnum]]

    if TYPE_CHECKING:
        # The EnumAttribute's value, as in DeviceMappingAttr.
        data: _E

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> _E:
        return cast(_E, cls.enum_type(_parse_angled_enum(parser, cls.enum_type)))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


@irdl_attr_definition
class BlockMappingAttr(
    _AngledEnumSyntax[MappingId], EnumAttribute[MappingId], DeviceMappingAttr[MappingId]
):
    """Maps a loop dimension onto thread blocks: `#gpu.block<x>`, `#gpu.block<linear_dim_0>`."""

    name = "gpu.block"
    level = "block"


@irdl_attr_definition
class ThreadMappingAttr(
    _AngledEnumSyntax[MappingId], EnumAttribute[MappingId], DeviceMappingAttr[MappingId]
):
    """Maps a loop dimension onto threads of a block: `#gpu.thread<y>`."""

    name = "gpu.thread"
    level = "thread"


@irdl_attr_definition
class WarpMappingAttr(
    _AngledEnumSyntax[MappingId], EnumAttribute[MappingId], DeviceMappingAttr[MappingId]
):
    """Maps a loop dimension onto warps of a block: `#gpu.warp<x>`."""

    name = "gpu.warp"
    level = "warp"


@irdl_attr_definition
class WarpgroupMappingAttr(
    _AngledEnumSyntax[MappingId], EnumAttribute[MappingId], DeviceMappingAttr
):
    """Maps a loop dimension onto warpgroups (4 warps on sm_90): `#gpu.warpgroup<x>`."""

    name = "gpu.warpgroup"
    level = "warpgroup"


@irdl_attr_definition
class LaneMappingAttr(
    _AngledEnumSyntax[MappingId], EnumAttribute[MappingId], DeviceMappingAttr[MappingId]
):
    """Maps a loop dimension onto the lanes of a warp: `#gpu.lane<x>`."""

    name = "gpu.lane"
    level = "lane"


@irdl_attr_definition
class AddressSpaceAttr(_AngledEnumSyntax[AddressSpace], EnumAttribute[AddressSpace]):
    """A GPU memory space, used as a memref memory space: `#gpu.address_space<workgroup>`.

    On NVPTX, global is address space 1, workgroup (shared memory) 3 and private 5.
    """

    name = "gpu.address_space"

    @classmethod
    def global_(cls) -> AddressSpaceAttr:
        return cls(AddressSpace.GLOBAL)

    @classmethod
    def workgroup(cls) -> AddressSpaceAttr:
        return cls(AddressSpace.WORKGROUP)

    @classmethod
    def private(cls) -> AddressSpaceAttr:
        return cls(AddressSpace.PRIVATE)


@irdl_attr_definition
class MemorySpaceMappingAttr(
    _AngledEnumSyntax[AddressSpace], EnumAttribute[AddressSpace], DeviceMappingAttr[AddressSpace]
):
    """Maps a loop onto a memory level (upstream's `#gpu.memory_space<workgroup>`)."""

    name = "gpu.memory_space"
    level = "memory_space"


MAPPING_ATTRS: tuple[type[EnumAttribute[MappingId]], ...] = (
    BlockMappingAttr,
    ThreadMappingAttr,
    WarpMappingAttr,
    WarpgroupMappingAttr,
    LaneMappingAttr,
)
"""The loop-mapping attribute classes that take a `MappingId`."""


__all__ = [
    "MAPPING_ATTRS",
    "AddressSpace",
    "AddressSpaceAttr",
    "BlockMappingAttr",
    "DeviceMappingAttr",
    "LaneMappingAttr",
    "MappingId",
    "MemorySpaceMappingAttr",
    "ThreadMappingAttr",
    "WarpMappingAttr",
    "WarpgroupMappingAttr",
]
