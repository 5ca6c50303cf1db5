"""Upstream transform-op syntax on top of xDSL's declarative assembly format.

Upstream MLIR (LLVM 24) prints the properties an op's format does not spell as a
*prop-dict* in the attr-dict position, `%h <op_name = "func.func", deduplicate>`, and
rejects them inside `{...}`; releases before it took them from the attr-dict,
`%h {op_name = "func.func"}`. `irdl_transform_op` builds an op from an IRDL class whose
`assembly_format` is upstream's, and swaps in directives that

- parse `<{...}>`, `<...>` and the legacy `{...}` alike, and print `<...>` with
  upstream's elisions (defaults dropped, `: i64` dropped on `I64Attr` properties);
- move a property written in a legacy `{...}` (`{factor = 4}`, `{apply_cse}`) to the
  properties, also when the current format spells it as a keyword;
- give `functional-type(operands, results)` the operand types of ops with several
  variadic operand groups (xDSL only handles one).

It also mixes `TransformOpInterface` into the class (see `irdl_transform_op`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    ArrayOfConstraint,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    OpDef,
    OptionalDef,
    ParsePropInAttrDict,
    irdl_op_definition,
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
    AttributeVariable,
    CustomDirective,
    FormatDirective,
    FormatProgram,
    FunctionalTypeDirective,
    KeywordDirective,
    OperandsDirective,
    OptionalGroupDirective,
    OptionalOperandVariable,
    ParsingState,
    PrintingState,
    PunctuationDirective,
    RegionVariable,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform.interfaces import TransformOpInterface

_OpT = TypeVar("_OpT", bound=IRDLOperation)


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


def _parse_entries(parser: Parser, closing: str) -> list[tuple[int, str, Attribute]]:
    entries: list[tuple[int, str, Attribute]] = []
    if parser.parse_optional_punctuation(closing) is not None:  # type: ignore[arg-type]
        return entries
    while True:
        start = parser.pos
        name, value = parser._parse_attribute_entry()  # pyright: ignore[reportPrivateUsage]
        entries.append((start, name, value))
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation(closing)  # type: ignore[arg-type]
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


# --------------------------------------------------------------------------------------
# functional-type(operands, results) with several variadic operand groups.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SegmentedFunctionalTypeDirective(FunctionalTypeDirective):
    """`functional-type(operands, ...)` that splits operand types by the parsed groups."""

    def _parse_suffix(self, parser: Parser, state: ParsingState) -> None:
        if not isinstance(self.operand_typeable_directive, OperandsDirective):
            return super()._parse_suffix(parser, state)
        start = parser.pos
        types = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_type, parser.parse_type
            )
            or []
        )
        _distribute_operand_types(parser, state, types, start)
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("("):
            self.result_typeable_directive.parse_types(parser, state)
            parser.parse_punctuation(")")
        else:
            self.result_typeable_directive.parse_single_type(parser, state)


def _distribute_operand_types(
    parser: Parser, state: ParsingState, types: Sequence[Attribute], start: int
) -> None:
    counts = [len(group) if group is not None else 0 for group in state.operands]
    if sum(counts) != len(types):
        parser.raise_error(
            f"{sum(counts)} operands present, but expected {len(types)}",
            at_position=start,
            end_position=parser.pos,
        )
    offset = 0
    for index, count in enumerate(counts):
        state.operand_types[index] = tuple(types[offset : offset + count])
        offset += count


# --------------------------------------------------------------------------------------
# Custom directives shared by several ops.
# --------------------------------------------------------------------------------------


def parse_dynamic_index_list(
    parser: Parser, *, allow_scalable: bool = False
) -> tuple[list[UnresolvedOperand], list[int], list[bool]]:
    """`[4, %p, [8]]`: static sizes, SSA operands (kDynamic in the static list), scalable."""
    dynamic: list[UnresolvedOperand] = []
    static: list[int] = []
    scalable: list[bool] = []

    def element() -> None:
        is_scalable = allow_scalable and parser.parse_optional_punctuation("[") is not None
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            dynamic.append(operand)
            static.append(DYNAMIC_INDEX)
        else:
            static.append(parser.parse_integer(allow_boolean=False))
        if is_scalable:
            parser.parse_punctuation("]")
        scalable.append(is_scalable)

    parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, element)
    return dynamic, static, scalable


def print_dynamic_index_list(
    printer: Printer,
    dynamic: Sequence[Any],
    static: Sequence[int],
    scalable: Sequence[bool] = (),
) -> None:
    """Print `[4, %p, [8]]`; the inverse of `parse_dynamic_index_list`."""
    printer.print_string("[")
    next_dynamic = 0
    for index, value in enumerate(static):
        if index:
            printer.print_string(", ")
        is_scalable = index < len(scalable) and scalable[index]
        if is_scalable:
            printer.print_string("[")
        if value == DYNAMIC_INDEX:
            printer.print_ssa_value(dynamic[next_dynamic])
            next_dynamic += 1
        else:
            printer.print_int(value)
        if is_scalable:
            printer.print_string("]")
    printer.print_string("]")


def dense_values(attr: Attribute | None) -> tuple[int, ...]:
    """The integers of a dense array property (empty when absent)."""
    if attr is None:
        return ()
    return tuple(cast(DenseArrayBase[IntegerType], attr).get_values())


@irdl_custom_directive
class DynamicIndexList(CustomDirective):
    """Upstream `custom<DynamicIndexList>($dynamic, $static)`: `[4, %p]`."""

    dynamic: VariadicOperandVariable
    static: AttributeVariable

    def is_present(self, op: IRDLOperation) -> bool:
        return bool(self.dynamic.get(op)) or bool(dense_values(self.static.get(op)))

    def is_anchorable(self) -> bool:
        return True

    def parse_optional(self, parser: Parser, state: ParsingState) -> None:
        if parser._current_token.text == "[":  # pyright: ignore[reportPrivateUsage]
            self.parse(parser, state)

    def parse(self, parser: Parser, state: ParsingState) -> None:
        dynamic, static, _ = parse_dynamic_index_list(parser)
        self.dynamic.set(state, dynamic)
        self.static.set(state, DenseArrayBase.from_list(i64, static))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        print_dynamic_index_list(printer, self.dynamic.get(op), dense_values(self.static.get(op)))

    def set_empty(self, state: ParsingState) -> None:
        self.dynamic.set(state, ())


@irdl_custom_directive
class PackedOrDynamicIndexList(CustomDirective):
    """Upstream `custom<PackedOrDynamicIndexList>`: `[4, %p, [8]]` or `*(%handle)`.

    The scalable flags (`[8]`) are kept when the op has a `scalable` property.
    """

    packed: OptionalOperandVariable
    dynamic: VariadicOperandVariable
    static: AttributeVariable
    scalable: AttributeVariable

    def is_present(self, op: IRDLOperation) -> bool:
        return (
            self.packed.get(op) is not None
            or bool(self.dynamic.get(op))
            or bool(dense_values(self.static.get(op)))
        )

    def is_anchorable(self) -> bool:
        return True

    def parse_optional(self, parser: Parser, state: ParsingState) -> None:
        if parser._current_token.text in ("[", "*"):  # pyright: ignore[reportPrivateUsage]
            self.parse(parser, state)

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_punctuation("*") is not None:
            parser.parse_punctuation("(")
            self.packed.set(state, parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
            self.dynamic.set(state, ())
            self.static.set(state, DenseArrayBase.from_list(i64, ()))
            return
        dynamic, static, scalable = parse_dynamic_index_list(parser, allow_scalable=True)
        self.packed.set(state, None)
        self.dynamic.set(state, dynamic)
        self.static.set(state, DenseArrayBase.from_list(i64, static))
        if any(scalable):
            self.scalable.set(state, DenseArrayBase.from_list(i1, [int(s) for s in scalable]))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        packed = self.packed.get(op)
        if packed is not None:
            printer.print_string("*(")
            printer.print_ssa_value(packed)
            printer.print_string(")")
            return
        scalable = tuple(bool(v) for v in dense_values(self.scalable.get(op)))
        print_dynamic_index_list(
            printer, self.dynamic.get(op), dense_values(self.static.get(op)), scalable
        )

    def set_empty(self, state: ParsingState) -> None:
        self.packed.set(state, None)
        self.dynamic.set(state, ())


INNER_TILE_ALIGNMENTS = ("Unknown", "Multiple", "Equal")
"""Upstream `InnerTileAlignment` keywords, by value."""


@irdl_custom_directive
class InnerTileAlignmentArray(CustomDirective):
    """Upstream `custom<InnerTileAlignmentArray>`: `[Unknown, Multiple, Equal]`."""

    alignments: AttributeVariable

    def is_present(self, op: IRDLOperation) -> bool:
        return self.alignments.get(op) is not None

    def is_anchorable(self) -> bool:
        return True

    def parse(self, parser: Parser, state: ParsingState) -> None:
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

        values = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, entry)
        self.alignments.set(state, DenseArrayBase.from_list(i64, values))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        values = dense_values(self.alignments.get(op))
        names = [
            INNER_TILE_ALIGNMENTS[v] if 0 <= v < len(INNER_TILE_ALIGNMENTS) else str(v)
            for v in values
        ]
        printer.print_string("[" + ", ".join(names) + "]")


def verify_inner_tile_alignments(attr: Attribute | None) -> None:
    """Upstream `verifyInnerTileAlignments`: each entry is 0, 1 or 2."""
    for value in dense_values(attr):
        if not 0 <= value < len(INNER_TILE_ALIGNMENTS):
            raise VerifyException(
                "expected inner_tile_alignments entries to be one of 0 (Unknown), "
                f"1 (Multiple) or 2 (Equal), but got {value}"
            )


# --------------------------------------------------------------------------------------
# Regions with an implicit `transform.yield`.
# --------------------------------------------------------------------------------------


def ensure_yield(region: Region, yield_factory: Callable[[], Operation]) -> None:
    """Append the implicit terminator upstream's `SingleBlockImplicitTerminator` adds."""
    for block in region.blocks:
        last = block.last_op
        if last is None or not last.has_trait(_is_terminator_trait()):
            block.add_op(yield_factory())


def _is_terminator_trait() -> Any:
    from xdsl.traits import IsTerminator

    return IsTerminator


def entry_block(region: Region) -> Block | None:
    """The first block of a region, if it has one."""
    return region.blocks.first


# --------------------------------------------------------------------------------------
# The op decorator.
# --------------------------------------------------------------------------------------


def irdl_transform_op(cls: type[_OpT]) -> type[_OpT]:
    """`irdl_op_definition` for transform ops, with upstream syntax and handle effects.

    - A class-level `consumed_operands = ("target",)` becomes the op's
      `TransformOpInterface.consumed_operands`, and the interface is mixed in; xDSL only
      accepts upper-case class constants in an op definition, so both are attached after
      IRDL has read the class.
    - `STRICT_PROPERTIES = False` (a class constant) keeps upstream's pre-LLVM-24 printing
      of left-over properties in `{...}` for ops upstream did not convert;
      `KEYWORDS_ANY_ORDER = True` accepts consecutive optional keyword clauses in any
      order, for upstream formats written with `oilist`.
    - The class's `assembly_format` is upstream's; its `attr-dict` becomes the
      prop-dict + attr-dict pair above and every property may also be given in `{...}`.
    """
    consumed = cast(tuple[str, ...], cls.__dict__.get("consumed_operands", ()))
    if "consumed_operands" in cls.__dict__:
        delattr(cls, "consumed_operands")
    options = cls.__dict__.get("irdl_options", ())
    if cls.__dict__.get("assembly_format") is not None and not any(
        isinstance(option, ParsePropInAttrDict) for option in options
    ):
        cls.irdl_options = (*options, ParsePropInAttrDict())
    cls = irdl_op_definition(cls)
    fmt = cls.__dict__.get("assembly_format")
    if fmt is not None:
        _install_format(cls, fmt)
    if not issubclass(cls, TransformOpInterface):
        cls.__bases__ = (*cls.__bases__, TransformOpInterface)
    cls.consumed_operands = consumed  # type: ignore[attr-defined]
    for name in consumed:
        if not any(name == operand for operand, _ in cls.get_irdl_definition().operands):
            raise ValueError(f"{cls.__name__}: consumed operand '{name}' is not an operand")
    return cls


@dataclass(frozen=True)
class KeywordClausesDirective(FormatDirective):
    """Consecutive optional `keyword ...` clauses, accepted in any order (upstream's
    `oilist`, as in `split_handle`, `print` and `apply_patterns`); printed in order."""

    groups: tuple[OptionalGroupDirective, ...]

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pending = list(self.groups)
        progress = True
        while progress and pending:
            progress = False
            for group in pending:
                keyword = cast(KeywordDirective, group.then_first).keyword
                if parser.parse_optional_keyword(keyword) is not None:
                    for element in group.then_elements:
                        element.parse(parser, state)
                    pending.remove(group)
                    progress = True
                    break
        for group in pending:
            group.set_empty(state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        for group in self.groups:
            group.print(printer, state, op)

    def set_empty(self, state: ParsingState) -> None:
        for group in self.groups:
            group.set_empty(state)


@dataclass(frozen=True)
class KeywordValueDirective(FormatDirective):
    """`keyword = $prop` for a required property. The clause may be missing when the
    property is given in a legacy `{...}` attr-dict (`loop.unroll %h {factor = 4}`)."""

    keyword: str
    variable: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_keyword(self.keyword) is None:
            return
        parser.parse_punctuation("=")
        self.variable.parse(parser, state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_string(f" {self.keyword} =")
        state.last_was_punctuation = False
        state.should_emit_space = True
        self.variable.print(printer, state, op)


def _keyword_values(stmts: Sequence[FormatDirective]) -> tuple[FormatDirective, ...]:
    out: list[FormatDirective] = []
    index = 0
    while index < len(stmts):
        window = stmts[index : index + 3]
        if (
            len(window) == 3
            and isinstance(window[0], KeywordDirective)
            and isinstance(window[1], PunctuationDirective)
            and window[1].punctuation == "="
            and isinstance(window[2], AttributeVariable)
            and window[2].is_property
            and not window[2].is_optional
        ):
            out.append(KeywordValueDirective(window[0].keyword, window[2]))
            index += 3
            continue
        out.append(stmts[index])
        index += 1
    return tuple(out)


def _keyword_group(stmt: FormatDirective) -> bool:
    return (
        isinstance(stmt, OptionalGroupDirective)
        and isinstance(stmt.then_first, KeywordDirective)
        and not stmt.else_elements
    )


def _merge_keyword_clauses(stmts: Sequence[FormatDirective]) -> tuple[FormatDirective, ...]:
    merged: list[FormatDirective] = []
    run: list[OptionalGroupDirective] = []
    for stmt in (*stmts, None):
        if stmt is not None and _keyword_group(stmt):
            run.append(cast(OptionalGroupDirective, stmt))
            continue
        if len(run) > 1:
            merged.append(KeywordClausesDirective(tuple(run)))
        else:
            merged.extend(run)
        run = []
        if stmt is not None:
            merged.append(stmt)
    return tuple(merged)


def _install_format(cls: type[IRDLOperation], fmt: str) -> None:
    op_def = cls.get_irdl_definition()
    program = FormatProgram.from_str(fmt, op_def)
    strict = bool(getattr(cls, "STRICT_PROPERTIES", True))
    stmts = tuple(_rewrite(stmt, op_def, strict) for stmt in program.stmts)
    stmts = _keyword_values(stmts)
    if getattr(cls, "KEYWORDS_ANY_ORDER", False):
        stmts = _merge_keyword_clauses(stmts)
    program = FormatProgram(stmts)

    def parse(op_type: type[IRDLOperation], parser: Parser) -> IRDLOperation:
        op = program.parse(parser, op_type)
        post = getattr(op_type, "post_parse", None)
        if post is not None:
            post(op)
        return op

    def print_(self: IRDLOperation, printer: Printer) -> None:
        program.print(printer, self)

    cls.parse = classmethod(parse)  # type: ignore[method-assign, assignment]
    cls.print = print_  # type: ignore[method-assign]


@dataclass(frozen=True)
class BodyRegionVariable(RegionVariable):
    """A region printed as upstream prints it: no `^bb0:` label on an empty entry block."""

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_region(self.get(op), print_empty_block=False)


@dataclass(frozen=True)
class PropertyVariable(AttributeVariable):
    """A free-form property in the format (`$reduction_dims`), printed and parsed as in
    upstream's prop-dict: `[0, 64]` for an `I64ArrayAttr`, coerced back on parse."""

    constr: AttrConstraint | None = None

    def parse_attr(self, parser: Parser) -> Attribute | None:
        attr = super().parse_attr(parser)
        if attr is not None and self.constr is not None:
            attr = coerce_property(attr, self.constr)
        return attr

    def print_attr(self, printer: Printer, attr: Attribute) -> None:
        if self.constr is None:
            return super().print_attr(printer, attr)
        print_property(printer, attr, self.constr)


def _rewrite(stmt: FormatDirective, op_def: OpDef, strict: bool) -> FormatDirective:
    if isinstance(stmt, RegionVariable):
        return BodyRegionVariable(stmt.name, stmt.index)
    if type(stmt) is AttributeVariable and stmt.is_property and stmt.name in op_def.properties:
        return PropertyVariable(
            stmt.name,
            stmt.is_property,
            stmt.is_optional,
            stmt.default_value,
            op_def.properties[stmt.name].constr,
        )
    if isinstance(stmt, AttrDictDirective):
        return PropDictDirective(
            with_keyword=stmt.with_keyword,
            reserved_attr_names=stmt.reserved_attr_names,
            expected_properties=stmt.expected_properties,
            all_properties=frozenset(op_def.properties),
            strict=strict,
        )
    if isinstance(stmt, FunctionalTypeDirective):
        return SegmentedFunctionalTypeDirective(
            stmt.operand_typeable_directive, stmt.result_typeable_directive
        )
    if isinstance(stmt, OptionalGroupDirective):
        return OptionalGroupDirective(
            stmt.anchor,
            stmt.then_whitespace,
            _rewrite(stmt.then_first, op_def, strict),
            tuple(_rewrite(s, op_def, strict) for s in stmt.then_elements),
            tuple(_rewrite(s, op_def, strict) for s in stmt.else_elements),
        )
    return stmt


def unit(value: bool) -> UnitAttr | None:
    """A unit property from a flag (absent when false)."""
    return UnitAttr() if value else None


def bool_attr(value: bool) -> BoolAttr:
    """An i1 integer attribute, as upstream's `BoolAttr`."""
    return IntegerAttr(int(value), i1)


def prop_is_set(op: Operation, name: str) -> bool:
    """Whether a (unit) property is present."""
    return op.properties.get(name) is not None


__all__ = [
    "DynamicIndexList",
    "InnerTileAlignmentArray",
    "OptionalDef",
    "PackedOrDynamicIndexList",
    "PropDictDirective",
    "bool_attr",
    "coerce_property",
    "dense_values",
    "ensure_yield",
    "irdl_transform_op",
    "parse_dynamic_index_list",
    "print_attribute_elided",
    "print_dynamic_index_list",
    "print_property",
    "unit",
    "verify_inner_tile_alignments",
]
