"""linalg.pack and linalg.unpack (upstream LinalgRelayoutOps.td), with upstream's syntax and
verifier wording.

`linalg.pack` tiles `k` dimensions of a rank-`n` source into a rank-`n + k` destination:
the tiled dimensions shrink to their tile counts (ceil-divided, with `padding_value` filling
the partial last tile), the outer dimensions are optionally permuted by `outer_dims_perm`,
and the tiles (`inner_tiles`, static or dynamic) become the `k` innermost dimensions in the
order of `inner_dims_pos`. `linalg.unpack` is the inverse (partial tiles are cut off).

    %p = linalg.pack %src padding_value(%z : f32) outer_dims_perm = [1, 0]
        inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %dest
        : tensor<13x250xf32> -> tensor<8x2x8x32xf32>
    %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1]
        inner_tiles = [8, 32] into %out : tensor<8x2x8x32xf32> -> tensor<13x250xf32>

Both are destination-style ops on ranked tensors. The shape arithmetic every user needs
(`packed_shape`, `mixed_tiles`, the permutation helpers) lives here beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure

from schedir.dialects.utils import LocatedVerifyException, Mixed, mixed_values, split_mixed

_EMPTY = DenseArrayBase.from_list(i64, ())


def _ints(attr: DenseArrayBase[IntegerType] | None) -> tuple[int, ...]:
    return () if attr is None else tuple(cast(Sequence[int], attr.get_values()))


def packed_shape(
    source_shape: Sequence[int],
    tiles: Sequence[int],
    inner_dims_pos: Sequence[int],
    outer_dims_perm: Sequence[int] = (),
) -> list[int]:
    """The packed shape of `source_shape` (upstream `getPackOpResultTypeShape`): tiled
    dimensions ceil-divided (dynamic if either side is), outer dimensions permuted, tiles
    appended. `DYNAMIC_INDEX` stands for `?` in and out."""
    shape = list(source_shape)
    for tile, dim in zip(tiles, inner_dims_pos, strict=True):
        if shape[dim] == DYNAMIC_INDEX:
            continue
        shape[dim] = DYNAMIC_INDEX if tile == DYNAMIC_INDEX else -(-shape[dim] // tile)
    if outer_dims_perm:
        shape = [shape[p] for p in outer_dims_perm]
    return shape + list(tiles)


def _shape(type_: Attribute) -> tuple[int, ...]:
    return tuple(cast(TensorType[Attribute], type_).get_shape())


def _type_text(shape: Sequence[int], element: Attribute) -> str:
    dims = "".join(("?" if d == DYNAMIC_INDEX else str(d)) + "x" for d in shape)
    return f"'tensor<{dims}{element}>'"


def _invalid_positions(positions: Sequence[int], rank: int) -> bool:
    """Upstream `isInvalidPackingPosSpecification`: out of range or repeated."""
    return len(set(positions)) != len(positions) or any(p < 0 or p >= rank for p in positions)


def outer_perm(op: PackOp | UnPackOp) -> tuple[int, ...]:
    """`outer_dims_perm` (empty when absent)."""
    return _ints(op.outer_dims_perm)


def inner_pos(op: PackOp | UnPackOp) -> tuple[int, ...]:
    """`inner_dims_pos`."""
    return _ints(op.inner_dims_pos)


def static_tiles(op: PackOp | UnPackOp) -> tuple[int, ...]:
    """The static tile sizes (`DYNAMIC_INDEX` where dynamic)."""
    return _ints(op.static_inner_tiles)


def mixed_tiles(op: PackOp | UnPackOp) -> list[Mixed]:
    """The tile sizes: ints where static, the SSA values where dynamic."""
    return mixed_values(op.static_inner_tiles, op.inner_tiles)


def unpacked_type(op: PackOp | UnPackOp) -> Attribute:
    """The type on the unpacked side (pack's source, unpack's destination)."""
    return op.source.type if isinstance(op, PackOp) else op.dest.type


def packed_type(op: PackOp | UnPackOp) -> Attribute:
    """The type on the packed side (pack's destination, unpack's source)."""
    return op.dest.type if isinstance(op, PackOp) else op.source.type


def _verify_common(op: PackOp | UnPackOp) -> None:
    """Upstream `commonVerifierPackAndUnPackOp`."""
    unpacked = _shape(unpacked_type(op))
    packed_t = packed_type(op)
    packed = _shape(packed_t)
    rank = len(unpacked)
    tiles = static_tiles(op)
    inner, outer = inner_pos(op), outer_perm(op)
    if any(t == 0 for t in tiles):
        raise LocatedVerifyException("invalid zero tile factor", prefix=False)
    if _invalid_positions(inner, rank):
        raise LocatedVerifyException("invalid inner_dims_pos vector", prefix=False)
    if _invalid_positions(outer, rank):
        raise LocatedVerifyException("invalid outer_dims_perm vector", prefix=False)
    if outer and len(outer) != rank:
        raise LocatedVerifyException("outer_dims_perm must be a permutation or empty", prefix=False)
    if len(tiles) != len(inner):
        raise LocatedVerifyException(
            "tiling factors must equal the number of dimensions to tile", prefix=False
        )
    if rank + len(tiles) != len(packed):
        raise LocatedVerifyException(
            "packed rank != (unpacked rank + num tiling factors), got "
            f"{len(packed)} != {rank + len(tiles)}",
            prefix=False,
        )
    for index, (size, tile) in enumerate(zip(packed[rank:], tiles, strict=True)):
        if tile == DYNAMIC_INDEX and size != DYNAMIC_INDEX:
            raise LocatedVerifyException(
                f"mismatch in inner tile sizes specified at index {index}: got static "
                f"shape {size} but dynamic tile size",
                prefix=False,
            )
        # Upstream prints a dynamic size as the raw kDynamic sentinel here.
        if tile != DYNAMIC_INDEX and size != tile:
            raise LocatedVerifyException(
                "mismatch in inner tile sizes specified and shaped of tiled dimension in "
                f"the packed type at index {index}: got {size} != {tile}",
                prefix=False,
            )
    expected = packed_shape(unpacked, tiles, inner, outer)
    if any(
        e != p and e != DYNAMIC_INDEX and p != DYNAMIC_INDEX
        for e, p in zip(expected, packed, strict=True)
    ):
        element = cast(TensorType[Attribute], packed_t).get_element_type()
        raise LocatedVerifyException(
            f"expected {_type_text(expected, element)} for the packed domain value, got "
            f"{_type_text(packed, element)}",
            prefix=False,
        )
    if op.result.type != op.dest.type:
        raise LocatedVerifyException(
            f"failed to verify that result type matches type of dest: {op.result.type} "
            f"vs {op.dest.type}"
        )


def _parse_perm_and_tiles(
    parser: Parser,
) -> tuple[list[int] | None, list[int], list[UnresolvedOperand], list[int]]:
    outer: list[int] | None = None
    if parser.parse_optional_keyword("outer_dims_perm") is not None:
        parser.parse_punctuation("=")
        outer = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
    parser.parse_keyword("inner_dims_pos")
    parser.parse_punctuation("=")
    inner = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )
    parser.parse_keyword("inner_tiles")
    parser.parse_punctuation("=")
    dynamic, static = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
    return outer, inner, list(dynamic), list(static)


def _print_perm_and_tiles(printer: Printer, op: PackOp | UnPackOp) -> None:
    if outer_perm(op):
        printer.print_string(f" outer_dims_perm = [{', '.join(map(str, outer_perm(op)))}]")
    printer.print_string(f" inner_dims_pos = [{', '.join(map(str, inner_pos(op)))}]")
    printer.print_string(" inner_tiles = ")
    print_dynamic_index_list(printer, DYNAMIC_INDEX, op.inner_tiles, static_tiles(op))
    printer.print_string(" into ")
    printer.print_ssa_value(op.dest)


_ELIDED = ("operandSegmentSizes",)


def _properties(
    outer: Sequence[int] | None, inner: Sequence[int], static: DenseArrayBase[IntegerType]
) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {
        "inner_dims_pos": DenseArrayBase.from_list(i64, list(inner)),
        "static_inner_tiles": static,
    }
    if outer:
        props["outer_dims_perm"] = DenseArrayBase.from_list(i64, list(outer))
    return props


@irdl_op_definition
class PackOp(IRDLOperation):
    """Packs a tensor into tiles (see the module docstring for the layout)."""

    name = "linalg.pack"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    padding_value = opt_operand_def()
    inner_tiles = var_operand_def(IndexType)
    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)

    traits = traits_def(Pure())

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        source: SSAValue,
        dest: SSAValue,
        inner_dims_pos: Sequence[int],
        inner_tiles: Sequence[Mixed],
        padding_value: SSAValue | None = None,
        outer_dims_perm: Sequence[int] = (),
    ) -> None:
        static, dynamic = split_mixed(inner_tiles)
        super().__init__(
            operands=[source, dest, [padding_value] if padding_value else [], dynamic],
            result_types=[dest.type],
            properties=_properties(outer_dims_perm, inner_dims_pos, static),
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        padding: tuple[UnresolvedOperand, Attribute] | None = None
        if parser.parse_optional_keyword("padding_value") is not None:
            parser.parse_punctuation("(")
            value = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            padding = (value, parser.parse_type())
            parser.parse_punctuation(")")
        outer, inner, dynamic, static = _parse_perm_and_tiles(parser)
        source_value, dest, tiles, attrs = _parse_into_tail(parser, source, static, dynamic)
        padding_value = parser.resolve_operand(*padding) if padding else None
        op = cls(source_value, dest, inner, tiles, padding_value, outer or ())
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        if self.padding_value is not None:
            printer.print_string(" padding_value(")
            printer.print_ssa_value(self.padding_value)
            printer.print_string(" : ")
            printer.print_attribute(self.padding_value.type)
            printer.print_string(")")
        _print_perm_and_tiles(printer, self)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        _verify_common(self)
        if self.padding_value is None and self._partial_tiles():
            raise LocatedVerifyException(
                "invalid tile factor or output size provided. Only full tiles are supported "
                "when padding_value is not set"
            )
        if self.padding_value is not None:
            element = cast(TensorType[Attribute], self.source.type).get_element_type()
            if self.padding_value.type != element:
                raise LocatedVerifyException(
                    f"expected padding_value has '{element}' but got: '{self.padding_value.type}'"
                )

    def _partial_tiles(self) -> bool:
        """Whether a static tile is known not to divide its static source dimension
        (upstream `requirePaddingValue`, also against a static outer destination size)."""
        source = _shape(self.source.type)
        dest = _shape(self.dest.type)
        outer = outer_perm(self) or tuple(range(len(source)))
        for tile, dim in zip(static_tiles(self), inner_pos(self), strict=True):
            size = source[dim]
            if size == DYNAMIC_INDEX:
                continue
            if tile != DYNAMIC_INDEX:
                if size % tile:
                    return True
                continue
            outer_size = dest[outer.index(dim)]
            if outer_size != DYNAMIC_INDEX and size % outer_size:
                return True
        return False


@irdl_op_definition
class UnPackOp(IRDLOperation):
    """Unpacks a tiled tensor (the inverse of `linalg.pack`; partial tiles are cut)."""

    name = "linalg.unpack"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    inner_tiles = var_operand_def(IndexType)
    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue,
        dest: SSAValue,
        inner_dims_pos: Sequence[int],
        inner_tiles: Sequence[Mixed],
        outer_dims_perm: Sequence[int] = (),
    ) -> None:
        static, dynamic = split_mixed(inner_tiles)
        super().__init__(
            operands=[source, dest, dynamic],
            result_types=[dest.type],
            properties=_properties(outer_dims_perm, inner_dims_pos, static),
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        outer, inner, dynamic, static = _parse_perm_and_tiles(parser)
        source_value, dest, tiles, attrs = _parse_into_tail(parser, source, static, dynamic)
        op = cls(source_value, dest, inner, tiles, outer or ())
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        _print_perm_and_tiles(printer, self)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        _verify_common(self)


def _parse_into_tail(
    parser: Parser,
    source: UnresolvedOperand,
    static: Sequence[int],
    dynamic: Sequence[UnresolvedOperand],
) -> tuple[SSAValue, SSAValue, list[Mixed], dict[str, Attribute]]:
    """`into %dest {attrs} : source-type -> dest-type` of pack and unpack: the resolved
    source and dest, the mixed inner tiles and the attributes."""
    parser.parse_keyword("into")
    dest = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    source_type = parser.parse_type()
    parser.parse_punctuation("->")
    dest_type = parser.parse_type()
    index = IndexType()
    tiles: list[Mixed] = [
        s if d is None else parser.resolve_operand(d, index) for s, d in _align(static, dynamic)
    ]
    return (
        parser.resolve_operand(source, source_type),
        parser.resolve_operand(dest, dest_type),
        tiles,
        attrs,
    )


def _align(
    static: Sequence[int], dynamic: Sequence[UnresolvedOperand]
) -> list[tuple[int, UnresolvedOperand | None]]:
    """Pair each static entry with its SSA operand (None where static)."""
    values = iter(dynamic)
    return [(s, next(values) if s == DYNAMIC_INDEX else None) for s in static]


def is_relayout(op: Operation) -> bool:
    """Whether `op` is a linalg.pack or linalg.unpack."""
    return isinstance(op, PackOp | UnPackOp)


RELAYOUT_OPS = (PackOp, UnPackOp)
"""The relayout ops of this module."""
