"""`scf.parallel`, `scf.reduce` and `scf.execute_region` with upstream syntax and verifiers.

Each subclasses xDSL's op (so xDSL passes such as `scf-parallel-loop-tiling` and
`gpu-map-parallel-loops` still match them) and replaces its syntax: xDSL prints
`scf.parallel` only generically and `scf.execute_region -> (i32)` with parentheses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.utils import constant_index


def _print_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """Upstream's printOptionalArrowTypeList: `-> t` for one type, `-> (a, b)` for more."""
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    printer.print_string("(")
    printer.print_list(types, printer.print_attribute)
    printer.print_string(")")


def _parse_arrow_types(parser: Parser) -> list[Attribute]:
    if not parser.parse_optional_punctuation("->"):
        return []
    types = parser.parse_optional_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
    return list(types) if types is not None else [parser.parse_type()]


class ReduceOp(xscf.ReduceOp):
    """Terminator of `scf.parallel`: one operand and one combining region per reduction.

    scf.reduce(%v : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        args = []
        if parser.parse_optional_punctuation("("):
            pos = parser.pos
            operands = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            args = parser.resolve_operands(operands, types, pos)
        regions = []
        region = parser.parse_optional_region()
        while region is not None:
            regions.append(region)
            if not parser.parse_optional_punctuation(","):
                break
            region = parser.parse_region()
        op = cls(args, regions)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        if self.args:
            printer.print_string("(")
            printer.print_list(self.args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.args.types, printer.print_attribute)
            printer.print_string(")")
        for i, region in enumerate(self.reductions):
            printer.print_string(", " if i else " ")
            printer.print_region(region)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        if len(self.args) != len(self.reductions):
            raise VerifyException(
                f"expects number of reduction regions: {len(self.reductions)} "
                f"to be the same as number of reduction operands: {len(self.args)}"
            )
        for i, (arg, region) in enumerate(zip(self.args, self.reductions, strict=True)):
            block = region.block
            if block.first_op is None:
                raise VerifyException(f"{i}-th reduction has an empty body")
            if len(block.args) != 2 or any(a.type != arg.type for a in block.args):
                raise VerifyException(
                    f"expected two block arguments with type '{arg.type}' in the {i}-th "
                    "reduction region"
                )
            last = block.last_op
            if not isinstance(last, xscf.ReduceReturnOp):
                raise VerifyException(
                    "reduction bodies must be terminated with an 'scf.reduce.return' op"
                )
            if last.result.type != arg.type:
                raise VerifyException(
                    f"must have type '{arg.type}' (the type of the reduction inputs)"
                )
        # Upstream checks the operand types against the loop's results in the loop's
        # verifier but reports the mismatch at this op.
        parent = self.parent_op()
        if isinstance(parent, xscf.ParallelOp) and len(parent.res) == len(self.args):
            for i, (res, arg) in enumerate(zip(parent.res, self.args, strict=True)):
                if res.type != arg.type:
                    raise VerifyException(
                        f"expects type of {i}-th reduction operand: '{arg.type}' to be the "
                        f"same as the {i}-th result type: '{res.type}'"
                    )


class ParallelOp(xscf.ParallelOp):
    """A parallel loop nest with optional reductions, in upstream syntax.

        %r = scf.parallel (%i, %j) = (%a, %b) to (%c, %d) step (%e, %f) init (%x) -> f32 {
          ...
          scf.reduce(%v : f32) {
          ^bb0(%lhs: f32, %rhs: f32):
            %s = arith.addf %lhs, %rhs : f32
            scf.reduce.return %s : f32
          }
        }

    The body ends with `scf.reduce`, inserted when the text leaves it out.
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        index = IndexType()
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")

        def operand_list() -> list[SSAValue]:
            pos = parser.pos
            ops = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
            return list(parser.resolve_operands(ops, [index] * len(ops), pos))

        lbs = operand_list()
        parser.parse_keyword("to")
        ubs = operand_list()
        parser.parse_keyword("step")
        steps = operand_list()
        init_pos = parser.pos
        unresolved_inits = []
        if parser.parse_optional_keyword("init"):
            unresolved_inits = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        result_types = _parse_arrow_types(parser)
        if len(result_types) != len(unresolved_inits):
            parser.raise_error(
                f"expects number of results: {len(result_types)} to be the same as number "
                f"of initial values: {len(unresolved_inits)}",
                init_pos,
                parser.pos,
            )
        inits = parser.resolve_operands(unresolved_inits, result_types, init_pos)
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        if not body.blocks:
            body.add_block(Block())
        if not isinstance(body.block.last_op, xscf.ReduceOp):
            body.block.add_op(ReduceOp())
        attrs = parser.parse_optional_attr_dict()
        op = cls.build(
            operands=[lbs, ubs, steps, inits],
            result_types=[result_types],
            regions=[body],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.body.block.args, printer.print_ssa_value)
        printer.print_string(") = (")
        printer.print_list(self.lowerBound, printer.print_ssa_value)
        printer.print_string(") to (")
        printer.print_list(self.upperBound, printer.print_ssa_value)
        printer.print_string(") step (")
        printer.print_list(self.step, printer.print_ssa_value)
        printer.print_string(")")
        if self.initVals:
            printer.print_string(" init (")
            printer.print_list(self.initVals, printer.print_ssa_value)
            printer.print_string(")")
        _print_arrow_types(printer, self.result_types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        n_lb, n_ub, n_step = len(self.lowerBound), len(self.upperBound), len(self.step)
        if not n_lb == n_ub == n_step:
            raise VerifyException(
                f"expects the same number of lower bounds ({n_lb}), upper bounds ({n_ub}) "
                f"and steps ({n_step})"
            )
        if not n_step:
            raise VerifyException(
                "needs at least one tuple element for lowerBound, upperBound and step"
            )
        for step in self.step:
            constant = constant_index(step)
            if constant is not None and constant <= 0:
                raise VerifyException("constant step operand must be positive")
        args = self.body.block.args
        if len(args) != n_step:
            raise VerifyException(
                f"expects the same number of induction variables: {len(args)} as bound "
                f"and step values: {n_step}"
            )
        if any(not isinstance(a.type, IndexType) for a in args):
            raise VerifyException(
                "expects arguments for the induction variable to be of index type"
            )
        reduce_op = self.body.block.last_op
        if not isinstance(reduce_op, xscf.ReduceOp):
            raise VerifyException("expects body to terminate with 'scf.reduce'")
        reduce_op = cast(xscf.ReduceOp, reduce_op)
        n_res, n_red, n_init = len(self.res), len(reduce_op.reductions), len(self.initVals)
        if n_res != n_red:
            raise VerifyException(
                f"expects number of results: {n_res} to be the same as number of "
                f"reductions: {n_red}"
            )
        if n_res != n_init:
            raise VerifyException(
                f"expects number of results: {n_res} to be the same as number of "
                f"initial values: {n_init}"
            )


class ExecuteRegionOp(xscf.ExecuteRegionOp):
    """Runs its region once; the values given to `scf.yield` are the results.

    %v = scf.execute_region -> i32 {
      %x = arith.constant 1 : i32
      scf.yield %x : i32
    }
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        result_types = _parse_arrow_types(parser)
        region = parser.parse_region()
        op = cls(result_types, region)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_arrow_types(printer, self.result_types)
        printer.print_string(" ")
        printer.print_region(self.region, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        if not self.region.blocks:
            raise VerifyException("region needs to have at least one block")
        if self.region.blocks.first is not None and self.region.blocks.first.args:
            raise VerifyException("region cannot have any arguments")


__all__ = ["ExecuteRegionOp", "ParallelOp", "ReduceOp"]
