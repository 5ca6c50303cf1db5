"""Sequences of transform ops (upstream TransformOps.td): `named_sequence` (the callable
unit, and `@__transform_main` the entry point), `sequence` (an ordered block with its own
failure propagation mode) and their terminator `yield`, with the implicit-terminator
helpers, the consume annotations of named-sequence arguments and the lookup of a named
sequence by symbol.

Applied by `schedir.transform.ops.core.sequence`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    I32,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.dialects.transform import TransformHandleType, TransformOpHandleType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    IsolatedFromAbove,
    IsTerminator,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

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
from schedir.dialects.transform.interfaces import TransformOpInterface, consumed_block_arguments

WITH_NAMED_SEQUENCE = "transform.with_named_sequence"
"""Module attribute that makes a symbol table hold named sequences."""
ARG_READONLY = "transform.readonly"
ARG_CONSUMED = "transform.consumed"


def arg_annotations(seq: NamedSequenceOp, index: int) -> tuple[bool, bool]:
    """(readonly, consumed) annotations of a named-sequence argument."""
    if seq.arg_attrs is None or index >= len(seq.arg_attrs.data):
        return False, False
    attrs = seq.arg_attrs.data[index].data
    return ARG_READONLY in attrs, ARG_CONSUMED in attrs


def verify_consume_annotations(seq: NamedSequenceOp, *, also_internal: bool) -> None:
    """Upstream `verifyFunctionLikeConsumeAnnotations` (warnings are not reported)."""
    consumed = (
        consumed_block_arguments(seq.body.block) if seq.body.blocks.first is not None else set()
    )
    for index in range(len(seq.function_type.inputs.data)):
        readonly, is_consumed = arg_annotations(seq, index)
        if readonly and is_consumed:
            raise VerifyException(f"argument #{index} cannot be both readonly and consumed")
        if (seq.is_external or also_internal) and not readonly and not is_consumed:
            raise VerifyException(
                "must provide consumed/readonly status for arguments of external or called ops"
            )
        if seq.is_external:
            continue
        if index in consumed and not is_consumed and readonly:
            raise VerifyException(
                f"argument #{index} is consumed in the body but is not marked as such"
            )


def lookup_named_sequence(op: Operation, symbol: SymbolRefAttr) -> NamedSequenceOp | None:
    """The named sequence a symbol names, searched from `op`'s enclosing symbol tables."""
    found = SymbolTable.lookup_symbol(op, symbol)
    return found if isinstance(found, NamedSequenceOp) else None


# --------------------------------------------------------------------------------------
# named_sequence
# --------------------------------------------------------------------------------------


class NamedSequenceCallable(CallableOpInterface):
    """Named sequences are callable by `transform.include`."""

    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        return cast(NamedSequenceOp, op).body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        return cast(NamedSequenceOp, op).function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        return cast(NamedSequenceOp, op).function_type.outputs.data


@irdl_transform_op
class NamedSequenceOp(IRDLOperation):
    """A named, callable transform script; `@__transform_main` is the entry point.

    ```mlir
    transform.named_sequence @f(%op: !transform.any_op {transform.consumed})
        -> !transform.any_op {
      transform.yield %op : !transform.any_op
    }
    transform.named_sequence private @decl(!transform.any_op {transform.readonly})
    ```

    Each argument is annotated `{transform.readonly}` or `{transform.consumed}`; the
    body must not consume a `readonly` argument. Only allowed directly in a symbol table
    carrying `transform.with_named_sequence`, never nested in another transform op.

    Return modes: not executed where it appears; `include` (or the interpreter, for the
    entry point) runs the body, which consumes the `consumed` arguments' handles and
    yields the results. Failures are those of the body, propagated.
    """

    name = "transform.named_sequence"

    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = region_def()

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), NamedSequenceCallable())

    def __init__(
        self,
        sym_name: str,
        inputs: Sequence[Attribute],
        outputs: Sequence[Attribute] = (),
        body: Region | None = None,
        *,
        arg_attrs: Sequence[dict[str, Attribute]] | None = None,
        sym_visibility: str | None = None,
    ) -> None:
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "function_type": FunctionType.from_lists(inputs, outputs),
                "sym_visibility": StringAttr(sym_visibility) if sym_visibility else None,
                "arg_attrs": ArrayAttr([DictionaryAttr(a) for a in arg_attrs])
                if arg_attrs is not None
                else None,
            },
            regions=[body if body is not None else Region()],
        )

    @property
    def is_external(self) -> bool:
        """A declaration: no body."""
        return self.body.blocks.first is None

    def arg_consumed(self, index: int) -> bool:
        """Whether argument `index` is annotated `transform.consumed`."""
        return arg_annotations(self, index)[1]

    @classmethod
    def parse(cls, parser: Parser) -> NamedSequenceOp:
        visibility = parser.parse_optional_visibility_keyword()
        sym_name = parser.parse_symbol_name()
        args: list[Parser.Argument] = []
        inputs: list[Attribute] = []
        arg_attrs: list[DictionaryAttr] = []

        def parse_input() -> None:
            arg = parser.parse_optional_argument()
            if arg is not None:
                args.append(arg)
                inputs.append(arg.type)
            else:
                inputs.append(parser.parse_type())
            arg_attrs.append(DictionaryAttr(parser.parse_optional_dictionary_attr_dict()))
            parser.parse_optional_location()

        parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_input)
        if args and len(args) != len(inputs):
            parser.raise_error("expected all arguments to be named or none")
        outputs: list[Attribute] = []
        res_attrs: list[DictionaryAttr] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    while True:
                        outputs.append(parser.parse_type())
                        res_attrs.append(
                            DictionaryAttr(parser.parse_optional_dictionary_attr_dict())
                        )
                        if parser.parse_optional_punctuation(",") is None:
                            break
                    parser.parse_punctuation(")")
            else:
                # A bare result type has no attributes: a `{` opens the body.
                outputs.append(parser.parse_type())
        props, attrs = parse_prop_and_attr_dict(parser, cls, with_keyword=True)
        region = parser.parse_optional_region(args if args else None)
        if region is None:
            region = Region()
        op = cls.create(
            properties={
                "sym_name": sym_name,
                "function_type": FunctionType.from_lists(inputs, outputs),
            },
            attributes=attrs,
            regions=[region],
        )
        if visibility is not None:
            op.properties["sym_visibility"] = visibility
        if any(a.data for a in arg_attrs):
            op.properties["arg_attrs"] = ArrayAttr(arg_attrs)
        if any(a.data for a in res_attrs):
            op.properties["res_attrs"] = ArrayAttr(res_attrs)
        op.properties.update(props)
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        inputs = self.function_type.inputs.data
        arg_attrs = self.arg_attrs.data if self.arg_attrs is not None else ()
        block = self.body.blocks.first
        printer.print_string("(")
        for index, type_ in enumerate(inputs):
            if index:
                printer.print_string(", ")
            if block is not None:
                printer.print_block_argument(block.args[index])
            else:
                printer.print_attribute(type_)
            if index < len(arg_attrs) and arg_attrs[index].data:
                printer.print_string(" ")
                printer.print_attr_dict(arg_attrs[index].data)
        printer.print_string(")")
        outputs = self.function_type.outputs.data
        res_attrs = self.res_attrs.data if self.res_attrs is not None else ()
        if outputs:
            printer.print_string(" -> ")
            wrap = len(outputs) != 1 or bool(res_attrs and res_attrs[0].data)
            if wrap:
                printer.print_string("(")
            for index, type_ in enumerate(outputs):
                if index:
                    printer.print_string(", ")
                printer.print_attribute(type_)
                if index < len(res_attrs) and res_attrs[index].data:
                    printer.print_string(" ")
                    printer.print_attr_dict(res_attrs[index].data)
            if wrap:
                printer.print_string(")")
        print_prop_and_attr_dict(
            printer,
            self,
            elided=("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"),
            with_keyword=True,
        )
        if block is not None:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        table = self.parent_op()
        while table is not None and not table.has_trait(SymbolTable):
            table = table.parent_op()
        if table is not None and WITH_NAMED_SEQUENCE not in table.attributes:
            raise VerifyException(
                f"expects the parent symbol table to have the '{WITH_NAMED_SEQUENCE}' attribute"
            )
        ancestor = self.parent_op()
        while ancestor is not None:
            if isinstance(ancestor, TransformOpInterface):
                raise VerifyException("cannot be defined inside another transform op")
            ancestor = ancestor.parent_op()
        block = self.body.blocks.first
        if block is not None:
            if block.first_op is None:
                raise VerifyException("expected a non-empty body block")
            if len(block.args) != len(self.function_type.inputs.data) or any(
                arg.type != t
                for arg, t in zip(block.args, self.function_type.inputs.data, strict=False)
            ):
                raise VerifyException(
                    "expected the entry block arguments to match the function signature"
                )
            if not isinstance(block.last_op, YieldOp):
                raise VerifyException(f"expected '{YieldOp.name}' as terminator")
        verify_consume_annotations(self, also_internal=False)


# --------------------------------------------------------------------------------------
# yield
# --------------------------------------------------------------------------------------


@irdl_transform_op
class YieldOp(IRDLOperation):
    """Terminates a transform region and forwards handles to its parent's results.

    ```mlir
    transform.yield %h : !transform.any_op
    ```

    Return modes: only reads its operands; never fails.
    """

    name = "transform.yield"

    operands_ = var_operand_def(TransformHandleType)

    traits = traits_def(IsTerminator())

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, operands: Sequence[SSAValue] = ()) -> None:
        super().__init__(operands=[operands])

    def verify_(self) -> None:
        parent = self.parent_op()
        if not isinstance(parent, NamedSequenceOp):
            return
        outputs = parent.function_type.outputs.data
        if len(self.operands_) != len(outputs):
            raise VerifyException(
                "expected terminator to have as many operands as the parent op has results"
            )
        for index, (got, want) in enumerate(zip(self.operands_.types, outputs, strict=True)):
            if got != want:
                raise VerifyException(
                    f"the type of the terminator operand #{index} must match the type of "
                    f"the corresponding parent op result ('{got}' vs '{want}')"
                )


def _yield() -> YieldOp:
    return YieldOp()


def ensure_yields(regions: Sequence[Region], terminator: type[Operation] | None = None) -> None:
    """Add the implicit terminator (upstream `SingleBlockImplicitTerminator`), also to an
    empty `{}` region."""
    for region in regions:
        if region.blocks.first is None:
            region.add_block(Block())
        for block in region.blocks:
            last = block.last_op
            if last is None or not last.has_trait(IsTerminator):
                block.add_op((terminator or YieldOp)())


def print_body(printer: Printer, region: Region) -> None:
    """Print a body as upstream does: an operand-less `transform.yield` is implicit."""
    block = region.blocks.first
    last = block.last_op if block is not None else None
    implicit = isinstance(last, YieldOp) and not last.operands and not last.attributes
    printer.print_string(" ")
    printer.print_region(region, print_block_terminators=not implicit)


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

    Return modes: consumes the operands whose block arguments the body consumes; yields its
    terminator's handles. A silenceable failure in the body stops it and is propagated
    (`propagate`) or dropped, the body going on (`suppress`); definite failures always
    propagate.
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


OPS: tuple[type[IRDLOperation], ...] = (NamedSequenceOp, SequenceOp, YieldOp)

__all__ = [
    "ARG_CONSUMED",
    "ARG_READONLY",
    "OPS",
    "WITH_NAMED_SEQUENCE",
    "NamedSequenceCallable",
    "NamedSequenceOp",
    "SequenceOp",
    "YieldOp",
    "arg_annotations",
    "ensure_yields",
    "lookup_named_sequence",
    "print_body",
    "verify_consume_annotations",
]
