"""Size, interchange and tile-alignment lists of the structured tiling and fusion ops
(upstream's `PackedOrDynamicIndexList` syntax), and the resolution of their operand
groups."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from schedir.dialects.transform._syntax import (
    INNER_TILE_ALIGNMENTS,
    dense_values,
    parse_dynamic_index_list,
    print_dynamic_index_list,
)

EMPTY_DENSE = DenseArrayBase.from_list(i64, ())


class IndexList:
    """A parsed `[4, %p, [8]]` or `*(%h)` list (upstream `PackedOrDynamicIndexList`)."""

    def __init__(self, parser: Parser, *, allow_packed: bool = True) -> None:
        self.packed: UnresolvedOperand | None = None
        self.dynamic: list[UnresolvedOperand] = []
        self.static: list[int] = []
        self.scalable: list[bool] = []
        if allow_packed and parser.parse_optional_punctuation("*") is not None:
            parser.parse_punctuation("(")
            self.packed = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            return
        self.dynamic, self.static, self.scalable = parse_dynamic_index_list(
            parser, allow_scalable=True
        )

    @property
    def operands(self) -> list[UnresolvedOperand]:
        return [self.packed] if self.packed is not None else self.dynamic


def print_index_list(
    printer: Printer,
    packed: SSAValue | None,
    dynamic: Sequence[SSAValue],
    static: Attribute | None,
    scalable: Attribute | None = None,
) -> None:
    if packed is not None:
        printer.print_string("*(")
        printer.print_ssa_value(packed)
        printer.print_string(")")
        return
    flags = tuple(bool(v) for v in dense_values(scalable))
    print_dynamic_index_list(printer, dynamic, dense_values(static), flags)


def parse_inner_tile_alignments(parser: Parser) -> DenseArrayBase:
    def entry() -> int:
        start = parser.pos
        keyword = parser.parse_identifier()
        if keyword not in INNER_TILE_ALIGNMENTS:
            parser.raise_error(
                f"expected one of 'Unknown', 'Multiple' or 'Equal', but got '{keyword}'",
                at_position=start,
                end_position=parser.pos,
            )
        return INNER_TILE_ALIGNMENTS.index(keyword)

    return DenseArrayBase.from_list(
        i64, parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, entry)
    )


def print_inner_tile_alignments(printer: Printer, attr: Attribute | None) -> None:
    if attr is None:
        return
    names = [
        INNER_TILE_ALIGNMENTS[v] if 0 <= v < len(INNER_TILE_ALIGNMENTS) else str(v)
        for v in dense_values(attr)
    ]
    printer.print_string(" inner_tile_alignments = [" + ", ".join(names) + "]")


def resolve_segments(
    parser: Parser,
    groups: Sequence[Sequence[UnresolvedOperand]],
    types: Sequence[Attribute],
) -> list[list[SSAValue]]:
    """Resolve operand groups against a flat type list (functional-type order)."""
    total = sum(len(g) for g in groups)
    if total != len(types):
        parser.raise_error(f"{total} operands present, but expected {len(types)}")
    resolved: list[list[SSAValue]] = []
    offset = 0
    for group in groups:
        resolved.append(
            [parser.resolve_operand(o, t) for o, t in zip(group, types[offset:], strict=False)]
        )
        offset += len(group)
    return resolved


def nonzero_count(static: Sequence[int]) -> int:
    return sum(1 for v in static if v != 0)
