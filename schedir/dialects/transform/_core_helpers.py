"""Handle kinds, consume annotations and functional-type syntax shared by the transform ops
that hold regions or call named sequences (see core.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from xdsl.dialects.transform import (
    TransformOpHandleType,
    TransformParamHandleType,
    TransformValueHandleType,
)
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax_helpers import parse_type_list, print_types
from schedir.dialects.transform.interfaces import TransformOpInterface

if TYPE_CHECKING:
    from schedir.dialects.transform._core_named_sequence import NamedSequenceOp

WITH_NAMED_SEQUENCE = "transform.with_named_sequence"
"""Module attribute that makes a symbol table hold named sequences."""
ARG_READONLY = "transform.readonly"
ARG_CONSUMED = "transform.consumed"


# --------------------------------------------------------------------------------------
# Shared verification helpers.
# --------------------------------------------------------------------------------------


def handle_kind(type_: Attribute) -> str:
    """Which transform type interface a type implements: op, param or value handle."""
    if isinstance(type_, TransformOpHandleType):
        return "op"
    if isinstance(type_, TransformParamHandleType):
        return "param"
    if isinstance(type_, TransformValueHandleType):
        return "value"
    return "none"


def consumed_block_arguments(block: Block) -> set[int]:
    """Indices of the block's arguments consumed by an op of the block (upstream's
    `getConsumedBlockArguments`)."""
    consumed: set[int] = set()
    args = set(block.args)
    for op in block.ops:
        if isinstance(op, TransformOpInterface):
            for value in op.consumed_values():
                if value in args:
                    consumed.add(block.args.index(cast(SSAValue, value)))  # type: ignore[arg-type]
    return consumed


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


def parse_functional_type(parser: Parser) -> tuple[list[Attribute], list[Attribute]]:
    parser.parse_punctuation("(")
    inputs = parse_type_list(parser)
    parser.parse_punctuation(")")
    parser.parse_punctuation("->")
    if parser.parse_optional_punctuation("(") is not None:
        outputs = parse_type_list(parser)
        parser.parse_punctuation(")")
    else:
        outputs = [parser.parse_type()]
    return inputs, outputs


def print_functional_type(
    printer: Printer, inputs: Sequence[Attribute], outputs: Sequence[Attribute]
) -> None:
    printer.print_string("(")
    print_types(printer, inputs)
    printer.print_string(") -> ")
    if len(outputs) == 1:
        printer.print_attribute(outputs[0])
    else:
        printer.print_string("(")
        print_types(printer, outputs)
        printer.print_string(")")
