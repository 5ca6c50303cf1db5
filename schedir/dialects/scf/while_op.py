"""`scf.while` with upstream's syntax for a loop without loop-carried values.

Upstream omits the empty `()` assignment list: `scf.while : () -> () { ... } do { ... }`;
xDSL requires and prints it. The rest (operands, regions, verifier) is xDSL's.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import scf as xscf
from xdsl.parser import Parser
from xdsl.printer import Printer


class WhileOp(xscf.WhileOp):
    """A loop: the before region computes the condition (`scf.condition`), the after
    region the next values.

        %r = scf.while (%a = %init) : (i32) -> i32 { ... } do { ... }
        scf.while : () -> () { ... } do { ... }
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        if parser.parse_optional_punctuation(":") is None:
            return super().parse(parser)
        # No `(...)` assignments: parse `: () -> (...)` and the regions as xDSL does
        # after its list.
        type_pos = parser.pos
        function_type = parser.parse_function_type()
        if function_type.inputs.data:
            parser.raise_error(
                f"Mismatch between block argument count (0) and operand count "
                f"({len(function_type.inputs.data)})",
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
            return super().print(printer)
        printer.print_string(" : ")
        printer.print_operation_type(self)
        printer.print_string(" ")
        printer.print_region(self.before_region, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.after_region)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)


__all__ = ["WhileOp"]
