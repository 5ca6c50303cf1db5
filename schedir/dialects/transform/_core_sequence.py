"""`transform.sequence`: an ordered block with its own failure propagation mode (see core.py)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, IntegerAttr
from xdsl.dialects.transform import TransformHandleType, TransformOpHandleType
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    opt_operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._core_helpers import consumed_block_arguments
from schedir.dialects.transform._core_named_sequence import YieldOp, ensure_yields, print_body
from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    FailurePropagationMode,
    failure_mode,
    failure_mode_attr,
    parse_failures,
    parse_operand_list,
    parse_prop_and_attr_dict,
    parse_type_list,
    print_failures,
    print_prop_and_attr_dict,
    print_types,
    resolve,
)


def _check_terminator_types(
    op: Operation, region: Region, result_types: Sequence[Attribute], message: str
) -> None:
    block = region.blocks.first
    if block is None or block.last_op is None:
        return
    terminator = block.last_op
    if isinstance(terminator, YieldOp) and tuple(terminator.operand_types) != tuple(result_types):
        raise VerifyException(message)


# --------------------------------------------------------------------------------------
# sequence
# --------------------------------------------------------------------------------------


@irdl_transform_op
class SequenceOp(IRDLOperation):
    """An ordered block of transform ops with its own failure propagation mode.

    ```mlir
    %r = transform.sequence %h : !transform.any_op -> !transform.any_op
        failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      transform.yield %arg0 : !transform.any_op
    }
    ```

    The block takes the root (`%h`, or the payload root at top level) and the extra
    bindings. `failures(suppress)` drops silenceable failures of the body and goes on.

    Return modes: consumes the operands whose block arguments the body consumes;
    yields its terminator's handles. A silenceable failure in the body stops it and is
    propagated (`propagate`) or reported as a warning and swallowed (`suppress`);
    definite failures always propagate.
    """

    name = "transform.sequence"

    root = opt_operand_def(TransformHandleType)
    extra_bindings = var_operand_def(TransformHandleType)
    failure_propagation_mode = prop_def(IntegerAttr[I32])
    results_ = var_result_def(TransformHandleType)
    body = region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        mode: FailurePropagationMode | str,
        body: Region,
        root: SSAValue | None = None,
        extra_bindings: Sequence[SSAValue] = (),
        result_types: Sequence[Attribute] = (),
    ) -> None:
        super().__init__(
            operands=[[root] if root is not None else [], extra_bindings],
            result_types=[result_types],
            properties={"failure_propagation_mode": failure_mode_attr(mode)},
            regions=[body],
        )

    @property
    def mode(self) -> FailurePropagationMode:
        """The failure propagation mode."""
        return failure_mode(self.failure_propagation_mode)

    def consumed_values(self) -> tuple[SSAValue, ...]:
        block = self.body.blocks.first
        if block is None:
            return ()
        operands = [*([self.root] if self.root is not None else []), *self.extra_bindings]
        consumed = consumed_block_arguments(block)
        return tuple(v for i, v in enumerate(operands) if i in consumed)

    @classmethod
    def parse(cls, parser: Parser) -> SequenceOp:
        operands = parse_operand_list(parser)
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            if parser.parse_optional_punctuation("(") is not None:
                types = parse_type_list(parser)
                parser.parse_punctuation(")")
            else:
                types = [parser.parse_type()]
            if len(types) != len(operands):
                parser.raise_error("expected types to be provided for all operands")
        values = resolve(parser, operands, types)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parse_type_list(parser)
        mode = parse_failures(parser)
        props, attrs = parse_prop_and_attr_dict(parser, cls, with_keyword=True)
        body = parser.parse_region()
        ensure_yields([body])
        op = cls(
            mode=FailurePropagationMode(mode.value.data),
            body=body,
            root=values[0] if values else None,
            extra_bindings=values[1:],
            result_types=result_types,
        )
        op.attributes.update(attrs)
        props.pop("operandSegmentSizes", None)
        op.properties.update(props)
        return op

    def print(self, printer: Printer) -> None:
        operands = list(self.operands)
        if operands:
            printer.print_string(" ")
            printer.print_list(operands, printer.print_ssa_value)
            printer.print_string(" : ")
            if len(operands) == 1:
                printer.print_attribute(operands[0].type)
            else:
                printer.print_string("(")
                print_types(printer, [o.type for o in operands])
                printer.print_string(")")
        if self.results:
            printer.print_string(" -> ")
            print_types(printer, self.result_types)
        printer.print_string(" ")
        print_failures(printer, self.failure_propagation_mode)
        print_prop_and_attr_dict(
            printer,
            self,
            elided=("failure_propagation_mode", "operandSegmentSizes"),
            with_keyword=True,
        )
        print_body(printer, self.body)

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None:
            raise VerifyException("expects a non-empty body")
        if self.root is None and self.extra_bindings:
            raise VerifyException("does not expect extra operands when used as top-level")
        operands = [*([self.root] if self.root is not None else []), *self.extra_bindings]
        if self.root is None and not block.args:
            raise VerifyException("expects the entry block to have at least one argument")
        if block.args and not isinstance(block.args[0].type, TransformOpHandleType):
            raise VerifyException(
                "expects the first entry block argument to be of type implementing "
                "TransformHandleTypeInterface"
            )
        if self.root is not None:
            if len(block.args) != len(operands):
                raise VerifyException(f"expects the entry block to have {len(operands)} arguments")
            for arg, operand in zip(block.args, operands, strict=True):
                if arg.type != operand.type:
                    raise VerifyException(
                        "expects the type of the block argument to match the type of the operand"
                    )
        _check_terminator_types(
            self,
            self.body,
            self.result_types,
            "expects the types of the terminator operands to match the types of the result",
        )
