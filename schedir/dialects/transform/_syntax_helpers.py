"""Hand-written parse/print pieces for transform ops whose syntax is custom upstream.

Ops with `custom<...>` syntax upstream (named_sequence, sequence, foreach_match, ...)
parse and print themselves; these helpers give them the same prop-dict/attr-dict
handling as the declarative ops (`_syntax.PropDictDirective`) and common pieces such as
`failures(propagate)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Literal, cast

from xdsl.dialects.builtin import I32, DenseArrayBase, IntegerAttr, UnitAttr, i32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from schedir.dialects.transform._syntax import coerce_property, dense_values, print_property


class FailurePropagationMode(IntEnum):
    """Upstream `FailurePropagationMode` (stored as `i32`)."""

    PROPAGATE = 1
    SUPPRESS = 2


def failure_mode(attr: IntegerAttr[I32] | None) -> FailurePropagationMode:
    """The mode a stored `failure_propagation_mode` stands for; unset (or any value but
    `suppress`) propagates, as the interpreter has always read it."""
    if attr is not None and attr.value.data == FailurePropagationMode.SUPPRESS:
        return FailurePropagationMode.SUPPRESS
    return FailurePropagationMode.PROPAGATE


def failure_mode_attr(mode: FailurePropagationMode | str) -> IntegerAttr[I32]:
    """The `failure_propagation_mode` property value for a mode."""
    if isinstance(mode, str):
        mode = FailurePropagationMode[mode.upper()]
    return IntegerAttr(int(mode), i32)


def parse_failures(parser: Parser, *, keyword_parsed: bool = False) -> IntegerAttr[I32]:
    """`failures(propagate|suppress)` (the `failures` keyword may be parsed already)."""
    if not keyword_parsed:
        parser.parse_keyword("failures")
    parser.parse_punctuation("(")
    start = parser.pos
    word = parser.parse_identifier()
    if word not in ("propagate", "suppress"):
        parser.raise_error(
            f"expected one of [propagate, suppress] for failure propagation mode, got '{word}'",
            at_position=start,
            end_position=parser.pos,
        )
    parser.parse_punctuation(")")
    return failure_mode_attr(word)


def print_failures(printer: Printer, attr: Attribute) -> None:
    """`failures(propagate|suppress)`, the inverse of `parse_failures`."""
    value = cast(IntegerAttr[I32], attr).value.data
    name = FailurePropagationMode(value).name.lower() if value in (1, 2) else str(value)
    printer.print_string(f"failures({name})")


def parse_prop_and_attr_dict(
    parser: Parser, op_type: type[IRDLOperation], *, with_keyword: bool = False
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Parse `<props>`/`<{props}>` then `{attrs}` (or `attributes {attrs}`).

    Properties written in the attribute dictionary (the legacy spelling) are returned
    with the properties.
    """
    op_def = op_type.get_irdl_definition()
    props: dict[str, Attribute] = {}
    if parser.parse_optional_punctuation("<") is not None:
        closing: Literal[">", "}"] = ">"
        if parser.parse_optional_punctuation("{") is not None:
            closing = "}"
        if parser.parse_optional_punctuation(closing) is None:
            while True:
                start = parser.pos
                name, value = parser._parse_attribute_entry()  # pyright: ignore[reportPrivateUsage]  # xDSL has no public entry parser
                if name not in op_def.properties:
                    parser.raise_error(
                        f"'{op_type.name}' op has no property '{name}'",
                        at_position=start,
                        end_position=parser.pos,
                    )
                props[name] = coerce_property(value, op_def.properties[name].constr)
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation(closing)
        if closing == "}":
            parser.parse_punctuation(">")
    attrs: dict[str, Attribute] = {}
    if not with_keyword or parser.parse_optional_keyword("attributes") is not None:
        attrs = parser.parse_optional_dictionary_attr_dict()
    for name in list(attrs):
        if name in op_def.properties:
            props[name] = coerce_property(attrs.pop(name), op_def.properties[name].constr)
    return props, attrs


def print_prop_and_attr_dict(
    printer: Printer,
    op: IRDLOperation,
    *,
    elided: Iterable[str] = (),
    with_keyword: bool = False,
) -> None:
    """Print the properties not in `elided` as `<...>` and the attributes as `{...}`."""
    op_def = op.get_irdl_definition()
    skip = set(elided)
    props: list[tuple[str, Attribute]] = []
    for name, prop_def in op_def.properties.items():
        value = op.properties.get(name)
        if name in skip or value is None or value == prop_def.default_value:
            continue
        props.append((name, value))
    if props:
        printer.print_string(" <")

        def entry(item: tuple[str, Attribute]) -> None:
            printer.print_identifier_or_string_literal(item[0])
            if item[1] != _unit():
                printer.print_string(" = ")
                print_property(printer, item[1], op_def.properties[item[0]].constr)

        printer.print_list(props, entry)
        printer.print_string(">")
    if op.attributes:
        printer.print_string(" attributes " if with_keyword else " ")
        printer.print_attr_dict(op.attributes)


def _unit() -> Attribute:
    from xdsl.dialects.builtin import UnitAttr

    return UnitAttr()


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b` (possibly empty)."""
    return (
        parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        or []
    )


def parse_type_list(parser: Parser) -> list[Attribute]:
    """`!t1, !t2` (possibly empty)."""
    types = parser.parse_optional_undelimited_comma_separated_list(
        parser.parse_optional_type, parser.parse_type
    )
    return list[Attribute](types or ())


def resolve(
    parser: Parser, operands: Sequence[UnresolvedOperand], types: Sequence[Attribute]
) -> list[SSAValue]:
    """Resolve operands against types, reporting a count mismatch as upstream does."""
    if len(operands) != len(types):
        parser.raise_error(f"{len(operands)} operands present, but expected {len(types)}")
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]


def print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """`!t1, !t2`."""
    printer.print_list(types, printer.print_attribute)


def parse_position_list(parser: Parser, list_name: str) -> dict[str, Attribute]:
    """`[0, -1]`, `[except(0, 2)]` or `[all]` into `list_name`/`is_inverted`/`is_all`
    (upstream `custom<TransformMatchDims>` / `custom<StructuredTransformDims>`)."""
    props: dict[str, Attribute] = {}
    parser.parse_punctuation("[")
    values: list[int] = []
    if parser.parse_optional_keyword("all") is not None:
        props["is_all"] = UnitAttr()
    else:
        inverted = parser.parse_optional_keyword("except") is not None
        if inverted:
            props["is_inverted"] = UnitAttr()
            parser.parse_punctuation("(")
        values = (
            parser.parse_optional_undelimited_comma_separated_list(
                lambda: parser.parse_optional_integer(allow_boolean=False),
                lambda: parser.parse_integer(allow_boolean=False),
            )
            or []
        )
        if inverted:
            parser.parse_punctuation(")")
    parser.parse_punctuation("]")
    props[list_name] = DenseArrayBase.from_list(i64, values)
    return props


def print_position_list(
    printer: Printer, values: Attribute, inverted: Attribute | None, is_all: Attribute | None
) -> None:
    """The inverse of `parse_position_list`."""
    text = ", ".join(str(v) for v in dense_values(values))
    if is_all is not None:
        printer.print_string("[all]")
    elif inverted is not None:
        printer.print_string(f"[except({text})]")
    else:
        printer.print_string(f"[{text}]")


def verify_position_list(
    values: Attribute, inverted: Attribute | None, is_all: Attribute | None
) -> None:
    """Upstream `verifyTransformMatchDimsOp` (indices may be negative: from the end)."""
    from xdsl.utils.exceptions import VerifyException

    items = dense_values(values)
    if is_all is not None and inverted is not None:
        raise VerifyException("cannot request both 'all' and 'inverted' values in the list")
    if is_all is not None and items:
        raise VerifyException("cannot both request 'all' and specific values in the list")
    if is_all is None and not items:
        raise VerifyException("must request specific values in the list if 'all' is not set")
    if len(set(items)) != len(items):
        raise VerifyException("expected the listed values to be unique")


def parse_functional_type(parser: Parser) -> tuple[list[Attribute], list[Attribute]]:
    parser.parse_punctuation("(")
    inputs = parse_type_list(parser)
    parser.parse_punctuation(")")
    parser.parse_punctuation("->")
    if parser.parse_optional_punctuation("(") is not None:
        outputs = parse_type_list(parser)
        parser.parse_punctuation(")")
    else:
        outputs: list[Attribute] = [parser.parse_type()]
    return inputs, outputs


def print_functional_type(
    printer: Printer, inputs: Sequence[Attribute], outputs: Sequence[Attribute]
) -> None:
    printer.print_string("(")
    print_types(printer, inputs)
    printer.print_string(") -> ")
    if len(outputs) == 1:
        printer.print_attribute(outputs[0])
    else:
        printer.print_string("(")
        print_types(printer, outputs)
        printer.print_string(")")


def parse_semi_function_type(parser: Parser) -> tuple[Attribute, list[Attribute]]:
    """Upstream `custom<SemiFunctionType>`: `!t` or `(!t) -> !r` / `(!t) -> (!r, ...)`."""
    if parser.parse_optional_punctuation("(") is None:
        return parser.parse_type(), []
    operand = parser.parse_type()
    parser.parse_punctuation(")")
    parser.parse_punctuation("->")
    if parser.parse_optional_punctuation("(") is not None:
        results = parse_type_list(parser)
        parser.parse_punctuation(")")
        return operand, results
    return operand, [parser.parse_type()]


def print_semi_function_type(
    printer: Printer, operand: Attribute, results: Sequence[Attribute]
) -> None:
    """The inverse of `parse_semi_function_type` (the short form when no results)."""
    if not results:
        printer.print_attribute(operand)
        return
    printer.print_string("(")
    printer.print_attribute(operand)
    printer.print_string(") -> ")
    if len(results) == 1:
        printer.print_attribute(results[0])
    else:
        printer.print_string("(")
        print_types(printer, results)
        printer.print_string(")")


__all__ = [
    "FailurePropagationMode",
    "failure_mode",
    "failure_mode_attr",
    "parse_failures",
    "parse_functional_type",
    "parse_operand_list",
    "parse_position_list",
    "parse_prop_and_attr_dict",
    "parse_semi_function_type",
    "parse_type_list",
    "print_failures",
    "print_functional_type",
    "print_position_list",
    "print_prop_and_attr_dict",
    "print_semi_function_type",
    "print_types",
    "resolve",
    "verify_position_list",
]
