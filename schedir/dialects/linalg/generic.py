"""linalg.generic with its linalg.yield and linalg.index, plus the short-form payload
helpers of linalg.map and linalg.reduce, in upstream's syntax.

`GenericOp`, `YieldOp` and `IndexOp` subclass xDSL's classes (xDSL's tiling and loop
lowering recognise them); they replace the parser (xDSL's cannot read `-> (t1, t2)`), the
printer and the verifiers (upstream's messages; `linalg.index` is valid in any structured
op, not only in linalg.generic).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Self, cast

from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    StringAttr,
)
from xdsl.dialects.linalg import ops as xops
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.linalg.base import (
    element_type,
    parse_arrow_types,
    parse_operand_group,
    print_arrow_types,
    print_operand_group,
    verify_block_args,
    verify_result_types,
    verify_structured,
)

# ---------------------------------------------------------------------------------------
# generic, yield, index


_GENERIC_TRAIT_ATTRS = ("doc", "indexing_maps", "iterator_types", "library_call")


class GenericOp(xops.GenericOp):
    """The general structured op: explicit indexing maps, iterator types and body.

        %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
            ins(%a : tensor<8xf32>) outs(%o : tensor<8xf32>) {
        ^bb0(%in: f32, %out: f32):
          %s = arith.addf %in, %out : f32
          linalg.yield %s : f32
        } -> tensor<8xf32>

    Extra (discardable) attributes print as `attrs = {...}` after `outs`, as upstream.
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        trait = parser.parse_attribute()
        if not isinstance(trait, DictionaryAttr):
            parser.raise_error("expected the linalg.generic attribute dictionary", pos)
        trait_attrs = dict(trait.data)
        for required in ("indexing_maps", "iterator_types"):
            if required not in trait_attrs:
                parser.raise_error(f"expected '{required}' in the attribute dictionary", pos)
        iterators: list[IteratorTypeAttr] = []
        raw_iterators = trait_attrs.pop("iterator_types")
        for it in raw_iterators.data if isinstance(raw_iterators, ArrayAttr) else ():
            if isinstance(it, IteratorTypeAttr):
                iterators.append(it)
            elif isinstance(it, StringAttr) and it.data in IteratorType.__members__.values():
                iterators.append(IteratorTypeAttr(IteratorType(it.data)))
            else:
                parser.raise_error(f"unknown iterator type {it}", pos)
        maps = trait_attrs.pop("indexing_maps")
        doc = trait_attrs.pop("doc", None)
        library_call = trait_attrs.pop("library_call", None)
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            trait_attrs |= parser.parse_optional_attr_dict()
        body = parser.parse_region()
        result_types = parse_arrow_types(parser)
        op = cls(
            ins,
            outs,
            body,
            cast(ArrayAttr[AffineMapAttr], maps),
            iterators,
            result_types,
            cast(StringAttr | None, doc),
            cast(StringAttr | None, library_call),
        )
        op.attributes |= trait_attrs
        return op

    def print(self, printer: Printer) -> None:
        trait: dict[str, Attribute | None] = {
            "doc": self.doc,
            "indexing_maps": self.indexing_maps,
            "iterator_types": None,
            "library_call": self.library_call,
        }
        printer.print_string(" {")
        first = True
        for key in _GENERIC_TRAIT_ATTRS:
            value = trait[key]
            if key != "iterator_types" and value is None:
                continue
            printer.print_string("" if first else ", ")
            first = False
            printer.print_string(f"{key} = ")
            if key == "iterator_types":
                printer.print_string("[")
                printer.print_list(
                    self.iterator_types, lambda it: printer.print_string_literal(it.data)
                )
                printer.print_string("]")
            else:
                printer.print_attribute(cast(Attribute, value))
        printer.print_string("}")
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        if self.attributes:
            printer.print_string(" attrs = ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body)
        print_arrow_types(printer, self.result_types)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        verify_result_types(len(self.inputs), self.outputs, self.res)
        maps = [m.data for m in self.indexing_maps.data]
        operands = [*self.inputs, *self.outputs]
        verify_structured(operands, maps, len(self.iterator_types.data))
        verify_block_args(operands, self.body.block)


def _enclosing_structured(op: Operation) -> Operation | None:
    parent = op.parent_op()
    if parent is None:
        return None
    from schedir.dialects import linalg

    return parent if linalg.is_structured(parent) else None


class YieldOp(xops.YieldOp):
    """Terminator of linalg bodies: one value per init, of the init's element type.

    linalg.yield %v : f32
    """

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        parent = _enclosing_structured(self)
        if parent is None:
            return
        from schedir.dialects import linalg

        inits = linalg.dps_inits(parent)
        if len(self.arguments) != len(inits):
            raise VerifyException(
                f"expected number of yield values ({len(self.arguments)}) to match the number "
                f"of inits / outs operands of the enclosing LinalgOp ({len(inits)})"
            )
        for index, (value, init) in enumerate(zip(self.arguments, inits, strict=True)):
            expected = element_type(init.type)
            if value.type != expected:
                raise VerifyException(
                    f"type of yield operand {index + 1} ('{value.type}') doesn't match the "
                    f"element type of the enclosing linalg.generic op ('{expected}')"
                )


class IndexOp(xops.IndexOp):
    """The index of loop `dim` of the enclosing structured op, inside its body.

    %i = linalg.index 0 : index
    """

    def verify_(self) -> None:
        # xDSL's definition restricts the parent to linalg.generic; upstream allows any
        # structured op, so the checks are spelled out here instead of the IRDL ones.
        if not isinstance(self.result.type, IndexType):
            raise VerifyException(f"result #0 must be index, but got {self.result.type}")
        parent = self.parent_op()
        if parent is None:
            return
        from schedir.dialects import linalg

        if not linalg.is_structured(parent):
            raise VerifyException("expected parent op with LinalgOp interface")
        num_loops = linalg.num_loops(parent)
        dim = self.dim.value.data
        if dim >= num_loops:
            raise VerifyException(
                f"expected dim ({dim}) to be lower than the number of loops ({num_loops}) of "
                "the enclosing LinalgOp"
            )


# ---------------------------------------------------------------------------------------
# short-form payloads of map and reduce


def payload_op(block: Block, operands: Sequence[SSAValue]) -> Operation | None:
    """The single payload op of a short-form body, if the body is one (upstream's
    findPayloadOp): one op applied to `operands` in order, whose result is yielded."""
    ops = list(block.ops)
    if len(ops) != 2 or not operands:
        return None
    payload, yield_op = ops
    if not isinstance(yield_op, xops.YieldOp) or len(payload.results) != 1:
        return None
    if list(yield_op.operands) != [payload.results[0]]:
        return None
    if payload.regions or list(payload.operands) != list(operands):
        return None
    return payload


def print_short_form(printer: Printer, payload: Operation) -> None:
    printer.print_string(f" {{ {payload.name}")
    attrs: dict[str, Attribute] = {**payload.properties, **payload.attributes}
    for key, value in list(attrs.items()):
        # Upstream elides a `fastmath = none` flag (and only that one).
        if isinstance(value, FastMathFlagsAttr) and not value.data:
            del attrs[key]
            break
    printer.print_op_attributes(attrs)
    printer.print_string(" }")


def parse_short_form(parser: Parser) -> tuple[type[Operation], dict[str, Attribute]] | None:
    """`{ dialect.op {attrs} }` before `ins`, or None."""
    if not parser.parse_optional_punctuation("{"):
        return None
    pos = parser.pos
    name = parser.parse_identifier()
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None:
        parser.raise_error(f"custom op '{name}' is unknown", pos, parser.pos)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")
    return op_type, attrs


def build_payload(
    op_type: type[Operation],
    attrs: Mapping[str, Attribute],
    operands: Sequence[SSAValue],
    result_type: Attribute,
) -> Operation:
    """The payload op of a short form, with attributes sorted into properties as declared."""
    prop_names: set[str] = set()
    if issubclass(op_type, IRDLOperation):
        prop_names = set(op_type.get_irdl_definition().properties)
    return op_type.create(
        operands=list(operands),
        result_types=[result_type],
        properties={k: v for k, v in attrs.items() if k in prop_names},
        attributes={k: v for k, v in attrs.items() if k not in prop_names},
    )


def print_long_form_body(printer: Printer, region: Region) -> None:
    with printer.indented():
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
        printer.print_string("(")
        printer.print_list(region.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(region, print_entry_block_args=False)


def parse_long_form_body(parser: Parser) -> Region:
    args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_argument)
    return parser.parse_region(args)
