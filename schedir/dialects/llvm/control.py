"""`llvm.switch` with upstream MLIR's custom syntax."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntElementsAttr,
    IntegerType,
    SignlessIntegerConstraint,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """`llvm.switch %v : i32, ^default(%a : f32) [ 1: ^bb1, 2: ^bb2(%b : f32) ]`."""

    name = "llvm.switch"

    value = operand_def(SignlessIntegerConstraint)
    defaultOperands = var_operand_def()
    caseOperands = var_operand_def()

    case_values = opt_prop_def(DenseIntElementsAttr)
    case_operand_segments = prop_def(DenseArrayBase.constr(i32))

    defaultDestination = successor_def()
    caseDestinations = var_successor_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(IsTerminator(), Pure())

    def __init__(
        self,
        value: SSAValue | Operation,
        default: Block,
        default_operands: Sequence[SSAValue | Operation],
        cases: Sequence[tuple[int, Block, Sequence[SSAValue | Operation]]] = (),
    ):
        vtype = SSAValue.get(value).type
        props: dict[str, Attribute] = {
            "case_operand_segments": DenseArrayBase.from_list(i32, [len(c[2]) for c in cases])
        }
        if cases:
            # The switch value is a signless integer (its operand constraint).
            props["case_values"] = DenseIntElementsAttr.from_list(
                VectorType(cast(IntegerType, vtype), (len(cases),)), [c[0] for c in cases]
            )
        super().__init__(
            operands=[value, default_operands, [v for c in cases for v in c[2]]],
            successors=[default, [c[1] for c in cases]],
            properties=props,
        )

    def cases(self) -> list[tuple[int, Block, tuple[SSAValue, ...]]]:
        """(value, destination, operands) of every case, in order."""
        values = self.case_values.get_values() if self.case_values is not None else ()
        out: list[tuple[int, Block, tuple[SSAValue, ...]]] = []
        start = 0
        operands = tuple(self.caseOperands)
        for value, block, size in zip(
            values, self.caseDestinations, self.case_operand_segments.iter_values(), strict=True
        ):
            out.append((int(value), block, operands[start : start + size]))
            start += size
        return out

    def verify_(self) -> None:
        n = len(self.caseDestinations)
        if len(tuple(self.case_operand_segments.iter_values())) != n:
            raise VerifyException("expects one operand segment per case")
        count = 0 if self.case_values is None else len(self.case_values.get_values())
        if count != n:
            raise VerifyException("expects one case value per case destination")

    @staticmethod
    def _print_dest(printer: Printer, block: Block, args: Sequence[SSAValue]) -> None:
        printer.print_block_name(block)
        if args:
            printer.print_string("(")
            printer.print_list(args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list([a.type for a in args], printer.print_attribute)
            printer.print_string(")")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        self._print_dest(printer, self.defaultDestination, tuple(self.defaultOperands))
        printer.print_string(" [")
        with printer.indented():
            for i, (value, block, args) in enumerate(self.cases()):
                printer.print_string(("," if i else "") + f"\n{value}: ")
                self._print_dest(printer, block, args)
        printer.print_string("\n]")
        printer.print_op_attributes(self.attributes)

    @staticmethod
    def _parse_dest(parser: Parser) -> tuple[Block, list[SSAValue]]:
        block = parser.parse_successor()
        if parser.parse_optional_punctuation("(") is None:
            return block, []
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        return block, list(parser.resolve_operands(names, types, parser.pos))

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        vtype = parser.parse_type()
        parser.parse_punctuation(",")
        default, default_args = cls._parse_dest(parser)

        def parse_case() -> tuple[int, Block, list[SSAValue]]:
            negative = parser.parse_optional_punctuation("-") is not None
            number = parser.parse_integer()
            parser.parse_punctuation(":")
            block, args = cls._parse_dest(parser)
            return (-number if negative else number), block, args

        cases = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_case)
        attrs = parser.parse_optional_attr_dict()
        op = cls(parser.resolve_operand(value, vtype), default, default_args, cases)
        op.attributes |= attrs
        return op
