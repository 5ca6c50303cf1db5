"""The affine dialect as schedir uses it: xDSL's ops plus `affine.max`, printed as upstream.

Tiling produces `affine.min` / `affine.max` / `affine.apply` for partial tiles and offsets:

    %size = affine.min affine_map<(d0)[s0] -> (16, s0 - d0)>(%iv)[%n]
    %lo = affine.max affine_map<(d0) -> (0, d0 - 2)>(%iv)
    %off = affine.apply affine_map<(d0) -> (d0 * 4)>(%iv)

`affine.load` / `affine.store` index operands become map dimensions, as upstream parses
them (xDSL makes them symbols). `apply` and `min` subclass xDSL's ops (the operand list follows the map without a space, as
upstream prints it, and the verifiers use upstream's messages); `max` is new. The affine
expressions themselves print with xDSL's printer, which parenthesizes sub-expressions
(`(d0 * 4)`) where upstream does not; upstream parses both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def _parse_map_and_operands(parser: Parser) -> tuple[AffineMapAttr, list[SSAValue]]:
    """`affine_map<...>(%d0, ...)[%s0, ...]`, dimension then symbol operands."""
    pos = parser.pos
    map_ = parser.parse_attribute()
    if not isinstance(map_, AffineMapAttr):
        parser.raise_error("expected an affine map", pos, parser.pos)
    dims = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
    )
    syms = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
    )
    operands: list[SSAValue] = [*(dims or []), *(syms or [])]
    num_dims = len(dims or [])
    if num_dims != map_.data.num_dims or len(syms or []) != map_.data.num_symbols:
        parser.raise_error("dimension or symbol index mismatch", pos, parser.pos)
    return map_, operands


def _print_map_and_operands(
    printer: Printer, map_: AffineMapAttr, operands: Sequence[SSAValue]
) -> None:
    num_dims = map_.data.num_dims
    printer.print_string(" ")
    printer.print_attribute(map_)
    printer.print_string("(")
    printer.print_list(operands[:num_dims], printer.print_operand)
    printer.print_string(")")
    if map_.data.num_symbols:
        printer.print_string("[")
        printer.print_list(operands[num_dims:], printer.print_operand)
        printer.print_string("]")


def _verify_operand_count(map_: AffineMapAttr, operands: Sequence[SSAValue]) -> None:
    expected = map_.data.num_dims + map_.data.num_symbols
    if len(operands) != expected:
        raise VerifyException("operand count and affine map dimension and symbol count must match")


class ApplyOp(xaffine.ApplyOp):
    """Applies a one-result affine map to index operands.

    %r = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%i)[%n]
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        map_, operands = _parse_map_and_operands(parser)
        op = cls(operands, map_)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_map_and_operands(printer, self.map, self.mapOperands)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        _verify_operand_count(self.map, self.mapOperands)
        if len(self.map.data.results) != 1:
            raise VerifyException("mapping must produce one value")


class MinOp(xaffine.MinOp):
    """The minimum of the results of an affine map.

    %r = affine.min affine_map<(d0)[s0] -> (16, s0 - d0)>(%i)[%n]
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        map_, operands = _parse_map_and_operands(parser)
        op = cls(operands, map_)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_map_and_operands(printer, self.map, self.arguments)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        _verify_operand_count(self.map, self.arguments)
        if not self.map.data.results:
            raise VerifyException("affine map expect at least one result")


def _indices_as_dims(map_: AffineMapAttr) -> AffineMapAttr:
    """xDSL parses `%m[%i + 1]` with every index as a symbol; upstream makes each index
    that is not written `symbol(%x)` a dimension (a loop induction variable is not a valid
    symbol upstream, so the generic form would not verify there)."""
    m = map_.data
    if m.num_dims:
        return map_
    dims = [AffineExpr.dimension(i) for i in range(m.num_symbols)]
    return AffineMapAttr(m.replace_dims_and_symbols([], dims, m.num_symbols, 0))


class LoadOp(xaffine.LoadOp):
    """Loads through an affine access map.

    %v = affine.load %m[%i * 4 + 1] : memref<64xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = xaffine.LoadOp.parse(parser)
        return cls(op.memref, list(op.indices), _indices_as_dims(op.map), op.result.type)


class StoreOp(xaffine.StoreOp):
    """Stores through an affine access map.

    affine.store %v, %m[%i * 4 + 1] : memref<64xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = xaffine.StoreOp.parse(parser)
        return cls(op.value, op.memref, list(op.indices), _indices_as_dims(op.map))


@irdl_op_definition
class MaxOp(IRDLOperation):
    """The maximum of the results of an affine map.

    %r = affine.max affine_map<(d0, d1) -> (0, d0 - d1)>(%i, %j)
    """

    name = "affine.max"

    arguments = var_operand_def(IndexType())
    result = result_def(IndexType())
    map = prop_def(AffineMapAttr)

    traits = traits_def(Pure())

    def __init__(self, map_operands: Sequence[SSAValue | Operation], affine_map: AffineMapAttr):
        super().__init__(
            operands=[map_operands], properties={"map": affine_map}, result_types=[IndexType()]
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        map_, operands = _parse_map_and_operands(parser)
        op = cls(operands, map_)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_map_and_operands(printer, self.map, self.arguments)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _verify_operand_count(self.map, self.arguments)
        if not self.map.data.results:
            raise VerifyException("affine map expect at least one result")


# xDSL's affine ops schedir keeps as they are, named here so that every affine op class
# is imported from this module.
ForOp = xaffine.ForOp
IfOp = xaffine.IfOp
ParallelOp = xaffine.ParallelOp
VectorLoadOp = xaffine.VectorLoadOp
VectorStoreOp = xaffine.VectorStoreOp
YieldOp = xaffine.YieldOp

Affine = Dialect(
    "affine",
    [
        ApplyOp,
        xaffine.ForOp,
        xaffine.ParallelOp,
        xaffine.IfOp,
        StoreOp,
        LoadOp,
        MinOp,
        MaxOp,
        xaffine.YieldOp,
        xaffine.VectorLoadOp,
        xaffine.VectorStoreOp,
    ],
    [],
)

__all__ = [
    "Affine",
    "ApplyOp",
    "ForOp",
    "IfOp",
    "LoadOp",
    "MaxOp",
    "MinOp",
    "ParallelOp",
    "StoreOp",
    "VectorLoadOp",
    "VectorStoreOp",
    "YieldOp",
]
