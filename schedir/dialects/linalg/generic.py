"""linalg.generic with its linalg.yield and linalg.index, in upstream's syntax.

`GenericOp`, `YieldOp` and `IndexOp` subclass xDSL's classes (xDSL's tiling and loop
lowering recognise them); they replace the parser (xDSL's cannot read `-> (t1, t2)`), the
printer and the verifiers (upstream's messages; `linalg.index` is valid in any structured
op, not only in linalg.generic).
"""

from __future__ import annotations

from typing import Self, cast

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    StringAttr,
)
from xdsl.dialects.linalg import ops as xops
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Operation
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
from schedir.dialects.linalg.interface import dps_inits, is_structured, num_loops

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
    return parent if parent is not None and is_structured(parent) else None


class YieldOp(xops.YieldOp):
    """Terminator of linalg bodies: one value per init, of the init's element type.

    linalg.yield %v : f32
    """

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        parent = _enclosing_structured(self)
        if parent is None:
            return
        inits = dps_inits(parent)
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
        if not is_structured(parent):
            raise VerifyException("expected parent op with LinalgOp interface")
        loops = num_loops(parent)
        dim = self.dim.value.data
        if dim >= loops:
            raise VerifyException(
                f"expected dim ({dim}) to be lower than the number of loops ({loops}) of "
                "the enclosing LinalgOp"
            )
