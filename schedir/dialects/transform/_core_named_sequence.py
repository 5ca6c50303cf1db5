"""`transform.named_sequence` and `transform.yield`, the implicit-terminator helpers, and the
lookup of a named sequence by symbol (see core.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.dialects.transform import TransformHandleType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, opt_prop_def, prop_def, region_def, traits_def, var_operand_def
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

from schedir.dialects.transform._core_helpers import (
    WITH_NAMED_SEQUENCE,
    arg_annotations,
    verify_consume_annotations,
)
from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)
from schedir.dialects.transform.interfaces import TransformOpInterface


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
