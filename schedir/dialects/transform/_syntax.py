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

The prop-dict pieces live in `_syntax_props`, the directives several ops share in
`_syntax_directives`; this module builds the ops and re-exports both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerAttr,
    UnitAttr,
    i1,
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
    AttrConstraint,
)
from xdsl.irdl.declarative_assembly_format import (
    AttrDictDirective,
    AttributeVariable,
    FormatDirective,
    FormatProgram,
    FunctionalTypeDirective,
    KeywordDirective,
    OptionalGroupDirective,
    ParsingState,
    PrintingState,
    PunctuationDirective,
    RegionVariable,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from schedir.dialects.transform._syntax_directives import (
    INNER_TILE_ALIGNMENTS,
    DynamicIndexList,
    InnerTileAlignmentArray,
    PackedOrDynamicIndexList,
    SegmentedFunctionalTypeDirective,
    dense_values,
    parse_dynamic_index_list,
    print_dynamic_index_list,
    verify_inner_tile_alignments,
)
from schedir.dialects.transform._syntax_props import (
    PropDictDirective,
    coerce_property,
    print_attribute_elided,
    print_property,
)
from schedir.dialects.transform.interfaces import TransformOpInterface

_OpT = TypeVar("_OpT", bound=IRDLOperation)


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
        cls.irdl_options = (*options, ParsePropInAttrDict())  # type: ignore[attr-defined]  # IRDL reads it from the class; IRDLOperation does not declare it
    cls = irdl_op_definition(cls)
    fmt = cls.__dict__.get("assembly_format")
    if fmt is not None:
        _install_format(cls, fmt)
    if not issubclass(cls, TransformOpInterface):
        cls.__bases__ = (*cls.__bases__, TransformOpInterface)
    cast(type[TransformOpInterface], cls).consumed_operands = consumed
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

    # The declarative format replaces the class's own parse/print once IRDL has read it.
    cls.parse = classmethod(parse)  # type: ignore[method-assign, assignment]  # installed after class creation
    cls.print = print_  # type: ignore[method-assign]  # installed after class creation


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
    "INNER_TILE_ALIGNMENTS",
    "DynamicIndexList",
    "InnerTileAlignmentArray",
    "OptionalDef",
    "PackedOrDynamicIndexList",
    "PropDictDirective",
    "SegmentedFunctionalTypeDirective",
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
