"""SMT transform extension (upstream SMTExtensionOps.td): constraints on params, written
with the SMT dialect.

Applied by `schedir.transform.ops.smt`; the autotuner reads the same ops as the static
constraints of its search space (`schedir.transform.constraints`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.transform import TransformParamHandleType
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import IRDLOperation, region_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects import smt
from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    parse_type_list,
    print_prop_and_attr_dict,
)


@irdl_transform_op
class ConstrainParamsOp(IRDLOperation):
    """Constraints on params, stated over the params as SMT variables.

    ```mlir
    transform.smt.constrain_params(%bm, %rm) : (!transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%m: !smt.int, %r: !smt.int):
      %c0 = smt.int.constant 0
      %rem = smt.int.mod %m, %r
      %ok = smt.eq %rem, %c0 : !smt.int
      smt.assert %ok
    }
    ```

    Each param operand (holding one integer, or one boolean for an `!smt.bool` argument)
    binds the block argument of the same position. Upstream hands the region to a solver
    and, today, always fails; schedir *evaluates* it on the params' values: every
    `smt.assert` must hold, and the values `smt.yield` gives (computed from the params)
    become the results. The legacy spelling with a plain type list and no results
    (`: !transform.param<i64> {`) is accepted; the functional type is printed.

    Return modes: only reads its operands; produces one param per yielded value. Definite
    failure when an asserted condition is false for the params' values (the message names
    the values and a note points at the `smt.assert`), when an operand does not hold
    exactly one value of its argument's sort, or when the region uses an op that cannot be
    evaluated (quantifiers, uninterpreted functions, bitvectors).
    """

    name = "transform.smt.constrain_params"

    params = var_operand_def(TransformParamHandleType)
    results_ = var_result_def(TransformParamHandleType)
    body = region_def("single_block")

    def __init__(
        self,
        params: Sequence[SSAValue],
        body: Region,
        result_types: Sequence[Attribute] = (),
    ) -> None:
        super().__init__(operands=[params], result_types=[result_types], regions=[body])

    @classmethod
    def parse(cls, parser: Parser) -> ConstrainParamsOp:
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("(") is not None:
            types = (
                parse_type_list(parser) if parser.parse_optional_punctuation(")") is None else []
            )
            if types:
                parser.parse_punctuation(")")
            parser.parse_punctuation("->")
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    results = parse_type_list(parser)
                    parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
        else:
            types = parse_type_list(parser) if unresolved else []
        if len(types) != len(unresolved):
            parser.raise_error(f"{len(unresolved)} operands present, but expected {len(types)}")
        operands = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types, strict=True)]
        body = parser.parse_region()
        if body.blocks.first is None:
            body.add_block(Block())
        for block in body.blocks:
            last = block.last_op
            if not isinstance(last, smt.YieldOp):
                block.add_op(smt.YieldOp())
        op = cls(operands, body, results)
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.params, printer.print_operand)
        printer.print_string(")")
        print_prop_and_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_string("(")
        printer.print_list(self.params.types, printer.print_attribute)
        printer.print_string(") -> ")
        if not self.results:
            printer.print_string("()")
        else:
            print_functional_type_results(printer, self.result_types)
        block = self.body.blocks.first
        last = block.last_op if block is not None else None
        implicit = isinstance(last, smt.YieldOp) and not last.operands and not last.attributes
        printer.print_string(" ")
        printer.print_region(
            self.body, print_entry_block_args=True, print_block_terminators=not implicit
        )

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None:
            raise VerifyException("expects a body block")
        if len(block.args) != len(self.params):
            raise VerifyException("must have the same number of block arguments as operands")
        for op in block.ops:
            if type(op) not in smt.OPS:
                raise VerifyException("ops contained in region should belong to SMT-dialect")
        for arg in block.args:
            if not isinstance(arg.type, smt.IntType | smt.BoolType):
                raise VerifyException(
                    f"expects block arguments of type !smt.int or !smt.bool, got {arg.type}"
                )
        last = block.last_op
        yielded = len(last.operands) if isinstance(last, smt.YieldOp) else 0
        if yielded != len(self.results):
            raise VerifyException(
                f"expects as many yielded values ({yielded}) as results ({len(self.results)})"
            )


def print_functional_type_results(printer: Printer, results: Sequence[Attribute]) -> None:
    """The result part of a functional type: `!t` or `(!t, !u)`."""
    if len(results) == 1:
        printer.print_attribute(results[0])
        return
    printer.print_string("(")
    printer.print_list(results, printer.print_attribute)
    printer.print_string(")")


OPS: tuple[type[IRDLOperation], ...] = (ConstrainParamsOp,)

__all__ = ["OPS", "ConstrainParamsOp"]
