"""`scf.while` with upstream's syntax for a loop without carried values.

Upstream writes the initialization list only when there is one: `scf.while : () -> () {`
for a loop without operands, `scf.while (%a = %init) : (i32) -> i32 {` otherwise. xDSL
requires the parenthesised list, also empty, and prints `scf.while () : ...`.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import scf as xscf
from xdsl.parser import Parser
from xdsl.printer import Printer


class WhileOp(xscf.WhileOp):
    """A while loop: the `before` region computes the condition, `after` the body.

    scf.while : () -> () {
      %c = func.call @cond() : () -> i1
      scf.condition(%c)
    } do {
      scf.yield
    }
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        if parser.parse_optional_punctuation(":") is None:
            return super().parse(parser)
        # No initialization list: the function type must have no inputs.
        type_pos = parser.pos
        function_type = parser.parse_function_type()
        if function_type.inputs.data:
            parser.raise_error(
                "expected as many input types as operands "
                f"(expected 0 got {len(function_type.inputs.data)})",
                type_pos,
                parser.pos,
            )
        before_region = parser.parse_region(())
        parser.parse_characters("do")
        after_region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls((), function_type.outputs.data, before_region, after_region)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        if self.arguments:
            super().print(printer)
            return
        printer.print_string(" : ")
        printer.print_operation_type(self)
        printer.print_string(" ")
        printer.print_region(self.before_region, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.after_region)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
