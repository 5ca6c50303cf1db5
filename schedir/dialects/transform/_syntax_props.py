"""Upstream's prop-dict syntax: property values printed with upstream's elisions, and the
attr-dict position (`<props>` then `{discardable attrs}`) that parses the legacy `{...}` too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    ArrayOfConstraint,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    OpDef,
)
from xdsl.irdl.constraints import (
    AllOf,
    AnyOf,
    AttrConstraint,
    EqAttrConstraint,
    ParamAttrConstraint,
    RangeOf,
)
from xdsl.irdl.declarative_assembly_format import (
    AttrDictDirective,
    ParsingState,
    PrintingState,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

# --------------------------------------------------------------------------------------
# Property values: upstream prints an `I64Attr` property as `3`, an `I64ArrayAttr` as
# `[0, 1]`; a free-form (`AnyAttr`) one keeps its type (`3 : i64`).
# --------------------------------------------------------------------------------------


def _fixed_int_type(constr: AttrConstraint) -> IntegerType | None:
    """The integer type a constraint pins an `IntegerAttr` to, if it does."""
    if isinstance(constr, AllOf | AnyOf):
        for inner in constr.attr_constrs:
            if (found := _fixed_int_type(cast(AttrConstraint, inner))) is not None:
                return found
        return None
    if isinstance(constr, ParamAttrConstraint) and constr.base_attr is IntegerAttr:
        type_constr = constr.param_constrs[1]
        if isinstance(type_constr, AllOf):
            for inner in type_constr.attr_constrs:
                if isinstance(inner, EqAttrConstraint):
                    type_constr = inner
        if isinstance(type_constr, EqAttrConstraint) and isinstance(type_constr.attr, IntegerType):
            return type_constr.attr
    return None


def _array_element_constraint(constr: AttrConstraint) -> AttrConstraint | None:
    if isinstance(constr, ArrayOfConstraint):
        range_constr = constr.elem_range_constraint
        if isinstance(range_constr, RangeOf):
            return range_constr.constr
    return None


def _dense_element_type(constr: AttrConstraint) -> IntegerType | None:
    if isinstance(constr, ParamAttrConstraint) and constr.base_attr is DenseArrayBase:
        elt = constr.param_constrs[0]
        if isinstance(elt, EqAttrConstraint) and isinstance(elt.attr, IntegerType):
            return elt.attr
    return None


def coerce_property(attr: Attribute, constr: AttrConstraint) -> Attribute:
    """Give an attribute parsed without a type the type its property definition implies.

    `3` parses as `3 : i64`; for an `i32` property it becomes `3 : i32`, and `[1, 2]`
    becomes `array<i64: 1, 2>` for a dense-array property.
    """
    if (int_type := _fixed_int_type(constr)) is not None:
        if isinstance(attr, IntegerAttr) and attr.type != int_type:
            return IntegerAttr(cast(IntegerAttr[IntegerType], attr).value.data, int_type)
        return attr
    if (elt := _array_element_constraint(constr)) is not None and isinstance(attr, ArrayAttr):
        items = cast(ArrayAttr[Attribute], attr).data
        return ArrayAttr([coerce_property(item, elt) for item in items])
    if (dense := _dense_element_type(constr)) is not None and isinstance(attr, ArrayAttr):
        items = cast(ArrayAttr[Attribute], attr).data
        if all(isinstance(item, IntegerAttr) for item in items):
            values = [cast(IntegerAttr[IntegerType], item).value.data for item in items]
            return DenseArrayBase.from_list(dense, values)
    return attr


def print_attribute_elided(printer: Printer, attr: Attribute) -> None:
    """Print an attribute as MLIR does where element types may be elided: `i64`
    integers inside arrays print bare (`[4, 5]`, not `[4 : i64, 5 : i64]`)."""
    if isinstance(attr, ArrayAttr):
        items = cast(ArrayAttr[Attribute], attr).data
        with printer.in_square_brackets():
            printer.print_list(items, lambda item: _print_element(printer, item))
        return
    printer.print_attribute(attr)


def _print_element(printer: Printer, attr: Attribute) -> None:
    if isinstance(attr, IntegerAttr) and cast(IntegerAttr[IntegerType], attr).type == i64:
        printer.print_int(cast(IntegerAttr[IntegerType], attr).value.data)
        return
    print_attribute_elided(printer, attr)


def print_property(printer: Printer, attr: Attribute, constr: AttrConstraint) -> None:
    """Print a property value as upstream's prop-dict does (typed integers bare)."""
    if _fixed_int_type(constr) is not None and isinstance(attr, IntegerAttr):
        int_attr = cast(IntegerAttr[IntegerType], attr)
        if int_attr.type == i1:
            printer.print_string("true" if int_attr.value.data else "false")
        else:
            printer.print_int(int_attr.value.data)
        return
    if (elt := _array_element_constraint(constr)) is not None and isinstance(attr, ArrayAttr):
        items = cast(ArrayAttr[Attribute], attr).data
        with printer.in_square_brackets():
            printer.print_list(items, lambda item: print_property(printer, item, elt))
        return
    print_attribute_elided(printer, attr)


# --------------------------------------------------------------------------------------
# The attr-dict position: `<props>` then `{discardable attrs}`.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PropDictDirective(AttrDictDirective):
    """`attr-dict` under upstream's strict properties: an optional prop-dict, then attrs.

    Parses `<{k = v}>` (generic spelling), `<k = v>` (what upstream prints) and the legacy
    `{k = v}` holding properties; prints `<k = v>` in declaration order, without defaults.
    With `strict=False` (ops upstream did not convert) properties print in `{...}`.
    """

    all_properties: frozenset[str] = frozenset()
    """Every property of the op: a legacy `{...}` may give any of them."""
    strict: bool = True

    def parse(self, parser: Parser, state: ParsingState) -> None:
        op_def = state.op_type.get_irdl_definition()
        if parser.parse_optional_punctuation("<") is not None:
            if parser.parse_optional_punctuation("{") is not None:
                entries = _parse_entries(parser, "}")
                parser.parse_punctuation(">")
            else:
                entries = _parse_entries(parser, ">")
            for start, name, value in entries:
                if name not in op_def.properties:
                    parser.raise_error(
                        f"'{state.op_type.name}' op has no property '{name}'",
                        at_position=start,
                        end_position=start + len(name),
                    )
                _set_property(state, op_def, name, value)
        if self.with_keyword:
            if parser.parse_optional_keyword("attributes") is None:
                return
            attrs = parser.parse_optional_dictionary_attr_dict()
        else:
            attrs = parser.parse_optional_dictionary_attr_dict()
        for name, value in attrs.items():
            if name in self.all_properties:
                # Legacy spelling: upstream before LLVM 24 took properties from `{...}`.
                _set_property(state, op_def, name, value)
            else:
                state.attributes[name] = value

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        op_def = op.get_irdl_definition()
        props: list[tuple[str, Attribute]] = []
        for name in op_def.properties:
            if name not in self.expected_properties:
                continue
            value = op.properties.get(name)
            prop_def = op_def.properties[name]
            if value is None or value == prop_def.default_value:
                continue
            props.append((name, value))
        if props and self.strict:
            printer.print_string(" <")
            printer.print_list(
                props,
                lambda entry: _print_entry(printer, entry, op_def),
            )
            printer.print_string(">")
            state.last_was_punctuation = False
            state.should_emit_space = True
        attrs = dict(op.attributes)
        if not self.strict:
            attrs = dict(props) | attrs
        if attrs:
            if self.with_keyword:
                printer.print_string(" attributes")
            printer.print_string(" ")
            printer.print_attr_dict(attrs)
            state.last_was_punctuation = False
            state.should_emit_space = True


def _parse_entries(parser: Parser, closing: Literal["}", ">"]) -> list[tuple[int, str, Attribute]]:
    entries: list[tuple[int, str, Attribute]] = []
    if parser.parse_optional_punctuation(closing) is not None:
        return entries
    while True:
        start = parser.pos
        name, value = parser._parse_attribute_entry()  # pyright: ignore[reportPrivateUsage]  # xDSL has no public entry parser
        entries.append((start, name, value))
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation(closing)
    return entries


def _set_property(state: ParsingState, op_def: OpDef, name: str, value: Attribute) -> None:
    prop_def = op_def.properties.get(name)
    if prop_def is not None:
        value = coerce_property(value, prop_def.constr)
    state.properties[name] = value


def _print_entry(printer: Printer, entry: tuple[str, Attribute], op_def: OpDef) -> None:
    name, value = entry
    printer.print_identifier_or_string_literal(name)
    if isinstance(value, UnitAttr):
        return
    printer.print_string(" = ")
    print_property(printer, value, op_def.properties[name].constr)
