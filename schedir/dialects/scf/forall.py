"""`scf.forall` and its `scf.forall.in_parallel` terminator, with upstream MLIR's syntax.

xDSL has no `scf.forall`, the loop a schedule tiles into and maps onto GPU blocks and
threads. The terminator holds the ops that write the shared outputs in parallel: those
implementing `ParallelCombiningOpInterface` (`tensor.parallel_insert_slice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    NoTerminator,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.gpu.attributes import DeviceMappingAttr
from schedir.dialects.utils import (
    Mixed,
    constant_index,
    mixed_values,
    split_mixed,
    verify_operands_or_integers,
)


class ParallelCombiningOpInterface:
    """Upstream's ParallelCombiningOpInterface: an op that `scf.forall.in_parallel` may hold,
    combining one iteration's result into a shared output (`tensor.parallel_insert_slice`)."""


def _parse_index_list(parser: Parser) -> tuple[list[int], list[UnresolvedOperand]]:
    """`(4, %n)`: upstream's parseDynamicIndexList with paren delimiters, no types."""
    static: list[int] = []
    dynamic: list[UnresolvedOperand] = []

    def parse_one() -> None:
        operand = parser.parse_optional_unresolved_operand()
        if operand is None:
            static.append(parser.parse_integer(allow_boolean=False))
        else:
            static.append(DYNAMIC_INDEX)
            dynamic.append(operand)

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_one)
    return static, dynamic


def _print_mixed(printer: Printer, values: Sequence[Mixed]) -> None:
    printer.print_string("(")
    printer.print_list(
        values,
        lambda v: (
            printer.print_string(str(v)) if isinstance(v, int) else printer.print_ssa_value(v)
        ),
    )
    printer.print_string(")")


@irdl_op_definition
class _InParallelOpDef(IRDLOperation):
    """Terminator of `scf.forall`: holds the ops that write the shared outputs in parallel.

    Its single block holds only `tensor.parallel_insert_slice` ops (no terminator); it is
    empty when the forall has no `shared_outs`, and then is not printed.

        scf.forall.in_parallel {
          tensor.parallel_insert_slice %s into %o[%i] [8] [1] : tensor<8xf32> into tensor<64xf32>
        }
    """

    name = "scf.forall.in_parallel"

    region = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (HasParent(ForallOp), IsTerminator(), NoTerminator(), RecursiveMemoryEffect())
    )

    def __init__(self, ops: Sequence[Operation] = ()) -> None:
        super().__init__(regions=[Region(Block(ops))])

    @property
    def yielding_ops(self) -> tuple[Operation, ...]:
        """The parallel-combining ops (`tensor.parallel_insert_slice`) this terminator holds."""
        return tuple(self.region.block.ops)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls.create(regions=[region])
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(
            self.region, print_entry_block_args=False, print_block_terminators=False
        )
        printer.print_op_attributes(self.attributes)


class InParallelOp(_InParallelOpDef):
    __doc__ = _InParallelOpDef.__doc__

    def verify_(self) -> None:
        # IRDL checks traits in no fixed order; upstream reports a misplaced terminator
        # by its parent first, so that check comes before the trait checks here.
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, ForallOp):
            raise VerifyException(f"'{self.name}' expects parent op 'scf.forall'")
        super().verify_()
        for op in self.region.block.ops:
            if not isinstance(op, ParallelCombiningOpInterface):
                raise VerifyException("expected only ParallelCombiningOpInterface ops")


@irdl_op_definition
class ForallOp(IRDLOperation):
    """A parallel loop nest over a multi-dimensional index space, on tensors or buffers.

    Bounds and steps mix constants and index values; each iteration may write disjoint
    slices of the `shared_outs` (through `tensor.parallel_insert_slice` in the
    `scf.forall.in_parallel` terminator), and the results are those outputs. `mapping`
    assigns each loop dimension to a GPU level (`#gpu.block<x>`, `#gpu.thread<y>`, ...).

        %r = scf.forall (%i, %j) in (4, %n) shared_outs(%o = %t) -> (tensor<128x64xf32>) {
          %s = tensor.extract_slice %o[%i, %j] [32, 16] [1, 1] : ...
          scf.forall.in_parallel {
            tensor.parallel_insert_slice %s into %o[%i, %j] [32, 16] [1, 1] : ...
          }
        } {mapping = [#gpu.block<y>, #gpu.block<x>]}
        scf.forall (%i) = (%lb) to (%ub) step (2) { ... }

    As upstream, bounds are stored as `staticLowerBound` / `staticUpperBound` /
    `staticStep` (i64 arrays, INT64_MIN where dynamic) plus the dynamic operands.
    """

    name = "scf.forall"

    dynamicLowerBound = var_operand_def(IndexType)
    dynamicUpperBound = var_operand_def(IndexType)
    dynamicStep = var_operand_def(IndexType)
    outputs = var_operand_def(TensorType)

    staticLowerBound = prop_def(DenseArrayBase.constr(i64))
    staticUpperBound = prop_def(DenseArrayBase.constr(i64))
    staticStep = prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(Attribute)

    res = var_result_def(TensorType)

    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = lazy_traits_def(
        lambda: (SingleBlockImplicitTerminator(InParallelOp), RecursiveMemoryEffect())
    )

    def __init__(
        self,
        lower_bounds: Sequence[Mixed],
        upper_bounds: Sequence[Mixed],
        steps: Sequence[Mixed],
        outputs: Sequence[SSAValue | Operation] = (),
        mapping: Sequence[Attribute] | Attribute | None = None,
        body: Region | None = None,
    ) -> None:
        static_lbs, dyn_lbs = split_mixed(lower_bounds)
        static_ubs, dyn_ubs = split_mixed(upper_bounds)
        static_steps, dyn_steps = split_mixed(steps)
        output_types = [SSAValue.get(o).type for o in outputs]
        if body is None:
            block = Block(arg_types=[IndexType()] * len(upper_bounds) + output_types)
            block.add_op(InParallelOp())
            body = Region(block)
        if mapping is not None and not isinstance(mapping, Attribute):
            mapping = ArrayAttr(mapping)
        super().__init__(
            operands=[dyn_lbs, dyn_ubs, dyn_steps, outputs],
            result_types=[output_types],
            properties={
                "staticLowerBound": static_lbs,
                "staticUpperBound": static_ubs,
                "staticStep": static_steps,
                "mapping": mapping,
            },
            regions=[body],
        )

    # -- accessors ---------------------------------------------------------------------

    @property
    def rank(self) -> int:
        """Number of loop dimensions (induction variables); as upstream, the lower bounds' count."""
        return len(self.staticLowerBound.get_values())

    @property
    def lower_bounds(self) -> list[Mixed]:
        """Lower bounds, one `int | SSAValue` per dimension."""
        return mixed_values(self.staticLowerBound, self.dynamicLowerBound)

    @property
    def upper_bounds(self) -> list[Mixed]:
        """Upper bounds (exclusive), one `int | SSAValue` per dimension."""
        return mixed_values(self.staticUpperBound, self.dynamicUpperBound)

    @property
    def steps(self) -> list[Mixed]:
        """Steps, one `int | SSAValue` per dimension."""
        return mixed_values(self.staticStep, self.dynamicStep)

    @property
    def induction_vars(self) -> tuple[SSAValue, ...]:
        """The index block arguments, one per dimension."""
        return tuple(self.body.block.args[: self.rank])

    @property
    def region_iter_args(self) -> tuple[SSAValue, ...]:
        """The block arguments standing for the shared outputs inside the body."""
        return tuple(self.body.block.args[self.rank :])

    region_out_args = region_iter_args

    @property
    def mapping_attrs(self) -> tuple[Attribute, ...]:
        """The mapping attributes (`#gpu.block<x>`, ...), empty without a mapping."""
        return tuple(self.mapping.data) if isinstance(self.mapping, ArrayAttr) else ()

    @property
    def terminator(self) -> InParallelOp:
        """The `scf.forall.in_parallel` terminator."""
        return cast(InParallelOp, self.body.block.last_op)

    def is_normalized(self) -> bool:
        """Whether all lower bounds are 0 and all steps 1 (printed as `in (...)`)."""
        return all(constant_index(v) == 0 for v in self.lower_bounds) and all(
            constant_index(v) == 1 for v in self.steps
        )

    def tied_block_arg(self, output: SSAValue) -> SSAValue:
        """The body argument standing for shared output operand `output`."""
        return self.region_iter_args[list(self.outputs).index(output)]

    # -- syntax ------------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        index = IndexType()
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        pos = parser.pos
        if parser.parse_optional_keyword("in"):
            static_ubs, dyn_ubs = _parse_index_list(parser)
            static_lbs, dyn_lbs = [0] * len(ivs), []
            static_steps, dyn_steps = [1] * len(ivs), []
        else:
            parser.parse_punctuation("=")
            static_lbs, dyn_lbs = _parse_index_list(parser)
            parser.parse_keyword("to")
            static_ubs, dyn_ubs = _parse_index_list(parser)
            parser.parse_keyword("step")
            static_steps, dyn_steps = _parse_index_list(parser)
        lbs = parser.resolve_operands(dyn_lbs, [index] * len(dyn_lbs), pos)
        ubs = parser.resolve_operands(dyn_ubs, [index] * len(dyn_ubs), pos)
        steps = parser.resolve_operands(dyn_steps, [index] * len(dyn_steps), pos)

        out_args: list[Parser.UnresolvedArgument] = []
        out_operands: list[UnresolvedOperand] = []
        result_types: list[Attribute] = []
        outs_pos = parser.pos
        if parser.parse_optional_keyword("shared_outs"):

            def parse_assignment() -> None:
                out_args.append(parser.parse_argument(expect_type=False))
                parser.parse_punctuation("=")
                out_operands.append(parser.parse_unresolved_operand())

            parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_assignment)
            if parser.parse_optional_punctuation("->"):
                result_types = _parse_type_list(parser)
            if len(result_types) != len(out_operands):
                parser.raise_error("mismatch between out operands and types", outs_pos, parser.pos)
        outputs = parser.resolve_operands(out_operands, result_types, outs_pos)

        block_args = [iv.resolve(index) for iv in ivs] + [
            arg.resolve(t) for arg, t in zip(out_args, result_types, strict=True)
        ]
        body = parser.parse_region(block_args)
        _ensure_in_parallel(body)
        attrs = parser.parse_optional_attr_dict()
        mapping = attrs.pop("mapping", None)

        op = cls.build(
            operands=[lbs, ubs, steps, outputs],
            result_types=[result_types],
            properties={
                "staticLowerBound": DenseArrayBase.from_list(i64, static_lbs),
                "staticUpperBound": DenseArrayBase.from_list(i64, static_ubs),
                "staticStep": DenseArrayBase.from_list(i64, static_steps),
                "mapping": mapping,
            },
            regions=[body],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.induction_vars, printer.print_ssa_value)
        if self.is_normalized():
            printer.print_string(") in ")
            _print_mixed(printer, self.upper_bounds)
        else:
            printer.print_string(") = ")
            _print_mixed(printer, self.lower_bounds)
            printer.print_string(" to ")
            _print_mixed(printer, self.upper_bounds)
            printer.print_string(" step ")
            _print_mixed(printer, self.steps)
        if self.outputs:
            printer.print_string(" shared_outs(")
            printer.print_list(
                zip(self.region_iter_args, self.outputs, strict=True),
                lambda pair: (
                    printer.print_ssa_value(pair[0]),
                    printer.print_string(" = "),
                    printer.print_ssa_value(pair[1]),
                ),
            )
            printer.print_string(")")
        printer.print_string(" ")
        if self.outputs:
            printer.print_string("-> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(") ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_block_terminators=bool(self.res)
        )
        attrs = dict(self.attributes)
        if self.mapping is not None:
            attrs = {"mapping": self.mapping, **attrs}
        printer.print_op_attributes(attrs)

    def verify_(self) -> None:
        num_loops = self.rank
        if len(self.res) != len(self.outputs):
            raise VerifyException(
                f"produces {len(self.res)} results, but has only {len(self.outputs)} outputs"
            )
        args = self.body.block.args
        if len(args) != num_loops + len(self.outputs):
            raise VerifyException(f"region expects {num_loops} arguments")
        for i in range(num_loops):
            if not isinstance(args[i].type, IndexType):
                raise VerifyException(f"expects {i}-th block argument to be an index")
        for i, output in enumerate(self.outputs):
            if args[num_loops + i].type != output.type:
                raise VerifyException(
                    f"type mismatch between {i}-th output and corresponding block argument"
                )
        if self.mapping is not None:
            if not isinstance(self.mapping, ArrayAttr) or not all(
                isinstance(m, DeviceMappingAttr) for m in self.mapping.data
            ):
                raise VerifyException(
                    "attribute 'mapping' failed to satisfy constraint: "
                    "Device Mapping array attribute"
                )
            if self.mapping.data and len(self.mapping.data) != num_loops:
                raise VerifyException("mapping attribute size must match op rank")
        verify_operands_or_integers(
            "lower bound", num_loops, self.staticLowerBound, self.dynamicLowerBound
        )
        verify_operands_or_integers(
            "upper bound", num_loops, self.staticUpperBound, self.dynamicUpperBound
        )
        verify_operands_or_integers("step", num_loops, self.staticStep, self.dynamicStep)


def _parse_type_list(parser: Parser) -> list[Attribute]:
    """`(t1, t2)` or a single `t`, as upstream's parseOptionalArrowTypeList accepts."""
    types = parser.parse_optional_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
    return list(types) if types is not None else [parser.parse_type()]


def _ensure_in_parallel(body: Region) -> None:
    """Append an empty `scf.forall.in_parallel` when the parsed body has no terminator."""
    if not body.blocks:
        body.add_block(Block())
    block = body.block
    if not isinstance(block.last_op, InParallelOp):
        block.add_op(InParallelOp())


__all__ = ["ForallOp", "InParallelOp", "ParallelCombiningOpInterface"]
