"""What the nvgpu ops' custom syntax shares: nvgpu types in full or stripped spelling,
properties as keywords (`numTiles = 4 transpose = false`, `transposeB`) as upstream
prints them today, also read in the legacy attr-dict spelling (`{numTiles = 4 : i32}`),
the optional `, predicate = %p` clause, memref types, and optional operands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from schedir.dialects.nvgpu.types import NVGPUType

PropKind = Literal["unit", "bool", "i32", "i64", "index", "i64array"]
_T = TypeVar("_T", bound=NVGPUType)


def parse_nvgpu_type(parser: Parser, cls: type[_T]) -> _T:
    """An nvgpu type, written `!nvgpu.x<...>` (or an alias of it) or stripped `<...>`."""
    pos = parser.pos
    if parser.parse_optional_punctuation("<") is not None:
        params = cls.parse_body(parser)
        parser.parse_punctuation(">")
        return cls.new(params)
    t = parser.parse_type()
    if not isinstance(t, cls):
        parser.raise_error(f"expected !{cls.name}, got {t}", pos, parser.pos)
    return t


def print_nvgpu_type(printer: Printer, t: Attribute) -> None:
    """Upstream's stripped spelling of an nvgpu type in an op's type list."""
    if isinstance(t, NVGPUType):
        printer.print_string("<")
        t.print_body(printer)
        printer.print_string(">")
    else:
        printer.print_attribute(t)


def _integer(kind: PropKind) -> IntegerType | IndexType:
    return {"i32": i32, "i64": i64}.get(kind, IndexType())


def _parse_value(parser: Parser, kind: PropKind) -> Attribute:
    if kind == "bool":
        pos = parser.pos
        value = parser.parse_optional_boolean()
        if value is None:
            parser.raise_error("expected 'true' or 'false'", pos, parser.pos + 1)
        return BoolAttr.from_bool(value)
    if kind == "i64array":
        values = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        return ArrayAttr([IntegerAttr(v, i64) for v in values])
    return IntegerAttr(parser.parse_integer(), _integer(kind))


def _from_legacy(parser: Parser, name: str, kind: PropKind, value: Attribute) -> Attribute:
    """A legacy attr-dict entry as the property it names."""
    if kind == "unit" and isinstance(value, UnitAttr):
        return value
    if kind == "bool" and isinstance(value, IntegerAttr):
        if value.type == IntegerType(1):
            return value
    elif kind == "i64array" and isinstance(value, ArrayAttr):
        items: Sequence[Attribute] = value.data
        if all(isinstance(v, IntegerAttr) for v in items):
            return ArrayAttr(
                [IntegerAttr(v.value.data, i64) for v in items if isinstance(v, IntegerAttr)]
            )
    elif kind in ("i32", "i64", "index") and isinstance(value, IntegerAttr):
        return IntegerAttr(value.value.data, _integer(kind))
    parser.raise_error(f"attribute '{name}' has the wrong kind of value: {value}")


def parse_keyword_props(
    parser: Parser, spec: Sequence[tuple[str, PropKind]]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Properties written as keywords in any order, then the attr-dict (whose entries
    that name a property, the legacy spelling, become properties). Returns
    (properties, remaining attributes)."""
    kinds = dict(spec)
    props: dict[str, Attribute] = {}
    while (
        key := parser.parse_optional_keyword_in(tuple(k for k in kinds if k not in props))
    ) is not None:
        kind = kinds[key]
        if kind == "unit":
            props[key] = UnitAttr()
            continue
        parser.parse_punctuation("=")
        props[key] = _parse_value(parser, kind)
    attrs = dict(parser.parse_optional_attr_dict())
    for key, kind in spec:
        if key in attrs:
            props[key] = _from_legacy(parser, key, kind, attrs.pop(key))
    return props, attrs


def print_keyword_props(
    printer: Printer,
    props: dict[str, Attribute | None],
    defaults: dict[str, Attribute] | None = None,
) -> None:
    """` key = value` / ` key` (unit) for each set property, in the given order, leaving
    out those equal to their default."""
    defaults = defaults or {}
    for key, value in props.items():
        if value is None or defaults.get(key) == value:
            continue
        if isinstance(value, UnitAttr):
            printer.print_string(f" {key}")
        elif isinstance(value, IntegerAttr) and value.type == IntegerType(1):
            printer.print_string(f" {key} = {'true' if value.value.data else 'false'}")
        elif isinstance(value, IntegerAttr):
            printer.print_string(f" {key} = {value.value.data}")
        elif isinstance(value, ArrayAttr):
            items = ", ".join(str(v.value.data) for v in value.data if isinstance(v, IntegerAttr))
            printer.print_string(f" {key} = [{items}]")


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`[%a, %b]`: a bracketed, possibly empty operand list."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )


__all__ = [
    "PropKind",
    "parse_keyword_props",
    "parse_nvgpu_type",
    "parse_operand_list",
    "print_keyword_props",
    "print_nvgpu_type",
]


def parse_predicate(parser: Parser) -> UnresolvedOperand | None:
    """`, predicate = %p` (optional)."""
    if parser.parse_optional_punctuation(",") is None:
        return None
    parser.parse_keyword("predicate")
    parser.parse_punctuation("=")
    return parser.parse_unresolved_operand()


def print_predicate(printer: Printer, predicate: SSAValue | None) -> None:
    """The inverse of `parse_predicate`."""
    if predicate is not None:
        printer.print_string(", predicate = ")
        printer.print_ssa_value(predicate)


def parse_memref_type(parser: Parser) -> MemRefType:
    """A ranked memref type, or an error spanning what was parsed instead."""
    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, MemRefType):
        parser.raise_error(f"expected a memref type, got {t}", pos, parser.pos)
    return t


def optional_operand(value: SSAValue | None) -> list[SSAValue]:
    """An optional operand as IRDL's operand list takes it."""
    return [] if value is None else [value]
