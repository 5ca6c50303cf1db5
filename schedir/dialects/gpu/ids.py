"""The gpu dialect's launch ids and sizes, `gpu.barrier` and `gpu.shuffle`."""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    i1,
    i32,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    Pure,
)
from xdsl.utils.str_enum import StrEnum

from schedir.dialects.gpu.syntax import DIMS, INDEX, DimensionAttr, dimension, parse_enum_parameter


def _parse_upper_bound(parser: Parser) -> IntegerAttr | None:
    if parser.parse_optional_keyword("upper_bound") is None:
        return None
    return IntegerAttr(parser.parse_integer(), INDEX)


def _print_upper_bound(printer: Printer, bound: IntegerAttr | None) -> None:
    if bound is not None:
        printer.print_string(f" upper_bound {bound.value.data}")


class DimensionOp(IRDLOperation):
    """An index of the launch: `gpu.thread_id x` (optionally `upper_bound N`)."""

    dimension = prop_def(DimensionAttr)
    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self, dim: DimensionAttr | str) -> None:
        if isinstance(dim, str):
            dim = dimension(dim)
        super().__init__(result_types=[INDEX], properties={"dimension": dim})

    @property
    def dim(self) -> str:
        return str(self.dimension.data)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        word = parser.parse_optional_keyword_in(DIMS)
        if word is None:
            parser.raise_error("expected 'x', 'y' or 'z'")
        op = cls(word)
        bound = _parse_upper_bound(parser)
        if bound is not None:
            op.upper_bound = bound
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.dim}")
        _print_upper_bound(printer, self.upper_bound)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ThreadIdOp(DimensionOp):
    name = "gpu.thread_id"


@irdl_op_definition
class BlockIdOp(DimensionOp):
    name = "gpu.block_id"


@irdl_op_definition
class BlockDimOp(DimensionOp):
    name = "gpu.block_dim"


@irdl_op_definition
class GridDimOp(DimensionOp):
    name = "gpu.grid_dim"


@irdl_op_definition
class GlobalIdOp(DimensionOp):
    name = "gpu.global_id"


@irdl_op_definition
class ClusterIdOp(DimensionOp):
    name = "gpu.cluster_id"


@irdl_op_definition
class ClusterDimOp(DimensionOp):
    name = "gpu.cluster_dim"


class _ScalarIdOp(IRDLOperation):
    """An index with no dimension: `gpu.lane_id` (optionally `upper_bound N`)."""

    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[INDEX])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = cls()
        bound = _parse_upper_bound(parser)
        if bound is not None:
            op.upper_bound = bound
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_upper_bound(printer, self.upper_bound)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class LaneIdOp(_ScalarIdOp):
    name = "gpu.lane_id"


@irdl_op_definition
class SubgroupIdOp(_ScalarIdOp):
    name = "gpu.subgroup_id"


@irdl_op_definition
class NumSubgroupsOp(_ScalarIdOp):
    name = "gpu.num_subgroups"


@irdl_op_definition
class SubgroupSizeOp(_ScalarIdOp):
    name = "gpu.subgroup_size"


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`gpu.barrier`: every thread of the block waits here; memory accesses before it are
    visible to the block after it."""

    name = "gpu.barrier"
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode]):
    """`#gpu.shuffle_mode<xor>` (upstream's generic spelling; the custom form of
    gpu.shuffle prints the bare keyword; `#gpu<shuffle_mode xor>` is accepted too)."""

    name = "gpu.shuffle_mode"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ShuffleMode:
        return parse_enum_parameter(parser, ShuffleMode)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """`%r, %valid = gpu.shuffle xor %v, %offset, %width : f32`: exchange a value within
    the first `width` lanes of a warp."""

    name = "gpu.shuffle"
    value = operand_def()
    offset = operand_def(IntegerType(32))
    width = operand_def(IntegerType(32))
    mode = prop_def(ShuffleModeAttr)
    shuffleResult = result_def()
    valid = result_def(i1)
    traits = traits_def(Pure())

    def __init__(self, value: SSAValue, offset: SSAValue, width: SSAValue, mode: str) -> None:
        super().__init__(
            operands=[value, offset, width],
            result_types=[value.type, i1],
            properties={"mode": ShuffleModeAttr(ShuffleMode(mode))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        mode = parser.parse_optional_keyword_in(tuple(m.value for m in ShuffleMode))
        if mode is None:
            parser.raise_error(
                "custom op 'gpu.shuffle' expected string or keyword containing one of the "
                "following enum values for attribute 'mode' [xor, up, down, idx]"
            )
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        offset = parser.parse_operand(i32)
        parser.parse_punctuation(",")
        width = parser.parse_operand(i32)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(parser.resolve_operand(value, t), offset, width, mode)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.mode.data.value} ")
        printer.print_list((self.value, self.offset, self.width), printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
