"""Pattern-set descriptors: the `transform.apply_patterns.<dialect>.<set>` ops that name
rewrite pattern sets inside `transform.apply_patterns`. This module holds the shared
machinery (`Option`, `descriptor`); each extension declares its descriptors next to its
other ops (`vector.py`, `tensor.py`, `memref.py`, `gpu.py`, `math.py`, `loop.py`,
`structured/patterns.py`, and `core/apply.py` for `canonicalization`), and the module of
the same name in `schedir.transform.ops` gives each one its pattern set.

They are data: each descriptor is declared once with its options,
spelled as upstream prints them (`lowering_strategy = dot`, `max_transfer_rank = 2`,
`size_limit(32)`); enum options are stored as `i32` like upstream's.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)
from schedir.dialects.transform.interfaces import PatternDescriptorOpInterface

UI32 = IntegerType(32, Signedness.UNSIGNED)


@dataclass(frozen=True)
class Option:
    """One option of a descriptor, with its keyword syntax and default."""

    name: str
    kind: str
    """`enum` (keyword from `choices`, stored as i32), `int` (i64), `uint` (ui32),
    `bool` (true/false), `paren` (`name(N)`, i64) or `unit` (the bare keyword, a unit
    property)."""
    default: int | bool | None = None
    choices: tuple[str, ...] = ()
    required: bool = False

    def attr(self, value: int | bool) -> Attribute:
        if self.kind == "unit":
            return UnitAttr()
        if self.kind == "enum":
            return IntegerAttr(int(value), i32)
        if self.kind == "bool":
            return IntegerAttr(int(value), i1)
        if self.kind == "uint":
            return IntegerAttr(int(value), UI32)
        return IntegerAttr(int(value), i64)

    def parse(self, parser: Parser) -> Attribute:
        if self.kind == "unit":
            return UnitAttr()
        if self.kind == "paren":
            parser.parse_punctuation("(")
            value = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(")")
            return self.attr(value)
        parser.parse_punctuation("=")
        if self.kind == "enum":
            start = parser.pos
            word = parser.parse_optional_str_literal() or parser.parse_identifier()
            if word not in self.choices:
                parser.raise_error(
                    f"expected one of [{', '.join(self.choices)}] for {self.name}, got '{word}'",
                    at_position=start,
                    end_position=parser.pos,
                )
            return self.attr(self.choices.index(word))
        if self.kind == "bool":
            value = parser.parse_boolean()
            return self.attr(value)
        return self.attr(parser.parse_integer(allow_boolean=False))

    def print(self, printer: Printer, attr: Attribute) -> None:
        value = attr.value.data if isinstance(attr, IntegerAttr) else None
        if self.kind == "unit":
            printer.print_string(f" {self.name}")
            return
        if self.kind == "paren":
            printer.print_string(f" {self.name}({value})")
            return
        printer.print_string(f" {self.name} = ")
        if self.kind == "enum" and isinstance(value, int) and 0 <= value < len(self.choices):
            word = self.choices[value]
            # Upstream quotes keywords that are not bare identifiers.
            printer.print_string(word if word.replace("_", "").isalnum() else f'"{word}"')
        elif self.kind == "bool":
            printer.print_string("true" if value else "false")
        else:
            printer.print_string(str(value))


class Descriptor(IRDLOperation, PatternDescriptorOpInterface):
    """Base of the descriptor ops: keyword options then the attr-dict, and typed access
    to the options' values."""

    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def option(self, name: str) -> int | None:
        """The integer value of option `name` as written, else its default (None when it
        has none)."""
        value = self.properties.get(name)
        if isinstance(value, UnitAttr):
            return 1
        if isinstance(value, IntegerAttr):
            return cast(IntegerAttr[IntegerType], value).value.data
        spec = next(o for o in self.OPTIONS if o.name == name)
        return int(spec.default) if spec.default is not None else None

    @classmethod
    def parse(cls, parser: Parser) -> Descriptor:
        props: dict[str, Attribute] = {}
        progress = True
        while progress:
            progress = False
            for option in cls.OPTIONS:
                if option.name not in props and parser.parse_optional_keyword(option.name):
                    props[option.name] = option.parse(parser)
                    progress = True
        for option in cls.OPTIONS:
            if option.required and option.name not in props:
                parser.raise_error(f"expected '{option.name}'")
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        return cls.create(properties=props | extra, attributes=attrs)

    def print(self, printer: Printer) -> None:
        for option in self.OPTIONS:
            value = self.properties.get(option.name)
            if value is None:
                continue
            if option.default is not None and value == option.attr(option.default):
                continue
            option.print(printer, value)
        print_prop_and_attr_dict(printer, self, elided=tuple(o.name for o in self.OPTIONS))

    def verify_(self) -> None:
        for option in self.OPTIONS:
            value = self.properties.get(option.name)
            if (
                option.kind == "enum"
                and isinstance(value, IntegerAttr)
                and not 0 <= value.value.data < len(option.choices)
            ):
                raise VerifyException(
                    f"attribute '{option.name}' failed to satisfy constraint: "
                    f"allowed 32-bit signless integer cases: "
                    + ", ".join(str(i) for i in range(len(option.choices)))
                )


def _prop_for(option: Option) -> object:
    constraint = {
        "enum": IntegerAttr[IntegerType],
        "bool": BoolAttr,
        "uint": IntegerAttr[IntegerType],
        "int": IntegerAttr[IntegerType],
        "paren": IntegerAttr[IntegerType],
        "unit": UnitAttr,
    }[option.kind]
    if option.default is not None:
        return prop_def(constraint, default_value=option.attr(option.default))
    if option.required:
        return prop_def(constraint)
    return opt_prop_def(constraint)


def _class_name(name: str) -> str:
    return "Apply" + "".join(part.title() for part in name.replace(".", "_").split("_")) + "Op"


def _example(name: str, options: tuple[Option, ...]) -> str:
    parts = []
    for option in options:
        if option.kind == "paren":
            parts.append(f"{option.name}(32)")
        elif option.kind == "unit":
            parts.append(option.name)
        elif option.kind == "enum":
            parts.append(f"{option.name} = {option.choices[0]}")
        elif option.kind == "bool":
            parts.append(f"{option.name} = true")
        else:
            parts.append(f"{option.name} = 2")
    return " ".join([f"transform.apply_patterns.{name}", *parts])


def descriptor(name: str, summary: str, *options: Option) -> type[Descriptor]:
    """The descriptor op class of `transform.apply_patterns.<name>`, with its options.

    The class belongs to the calling module (as `collections.namedtuple` does), the
    dialect module that lists it.
    """
    doc = (
        f"Pattern set: {summary}\n\n    ```mlir\n    {_example(name, options)}\n    ```\n\n"
        "    Return modes: a descriptor inside `transform.apply_patterns`; it has no\n"
        "    handles and does not fail by itself.\n    "
    )
    body: dict[str, object] = {
        "__doc__": doc,
        "__module__": sys._getframe(1).f_globals.get("__name__", __name__),
        "name": f"transform.apply_patterns.{name}",
        "OPTIONS": options,
        "__annotations__": {"OPTIONS": "ClassVar[tuple[Option, ...]]"},
    }
    for option in options:
        body[option.name] = _prop_for(option)
    return irdl_transform_op(type(_class_name(name), (Descriptor,), body))


__all__ = ["Descriptor", "Option", "descriptor"]
