"""What the transform interpreter needs to know about every transform op.

An op's handle effects follow upstream's `getEffects`: each operand is either *consumed*
(the payload it points to is invalidated for every other handle, as upstream's
`consumesHandle`) or only read (`onlyReadsHandle`); results are always produced. Whether
an op may see the same payload through two operands is its
`allows_repeated_handles` (upstream's `allowsRepeatedHandleOperands`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.transform import (
    TransformOpHandleType,
    TransformParamHandleType,
    TransformValueHandleType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue


class TransformOpInterface:
    """Mixin of every transform op class: declares which operands the op consumes.

    `consumed_operands` names operand definitions (the `operand_def`/`var_operand_def`
    field names) that upstream declares as consumed; every other operand is only read.
    Ops whose effects depend on their callee or body (sequence, include, foreach)
    override `consumed_values`.
    """

    consumed_operands: ClassVar[tuple[str, ...]] = ()

    def consumed_values(self) -> tuple[SSAValue, ...]:
        """The operand values this op consumes."""
        assert isinstance(self, Operation)
        values: list[SSAValue] = []
        for name in self.consumed_operands:
            operand = getattr(self, name)
            if operand is None:
                continue
            if isinstance(operand, SSAValue):
                values.append(operand)
            else:
                values.extend(operand)
        return tuple(values)

    def allows_repeated_handles(self) -> bool:
        """Upstream's `allowsRepeatedHandleOperands`: whether the operands may point to the
        same payload twice (a consumed one included); false for most ops."""
        return False


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
    for op in block.ops:
        if isinstance(op, TransformOpInterface):
            for value in op.consumed_values():
                if isinstance(value, BlockArgument) and value.block is block:
                    consumed.add(value.index)
    return consumed


class MatchOpInterface:
    """Mixin of transform ops upstream marks `MatchOpInterface`: allowed in matchers.

    The body of a `foreach_match`/`collect_matching` matcher may only hold such ops
    (upstream's `matchBlock`). Checked against iree-opt 3.13 (LLVM 24): besides the
    `match.*` ops and the debug remarks, `collect_matching`, `get_defining_op`,
    `get_operand`, `get_parent_op`, `get_producer_of_operand`, `get_type`, `include`,
    `merge_handles`, `num_associations`, `param.constant` and `print` run inside a matcher;
    `get_result`, `cast`, `split_handle`, `select`, `annotate`, `structured.match` and
    `get_consumers_of_result` are rejected there.
    """


def is_match_op(op: Operation) -> bool:
    """Upstream's `isa<MatchOpInterface>(op)`: may `op` appear in a matcher's body."""
    return isinstance(op, MatchOpInterface)


class PatternDescriptorOpInterface:
    """Mixin of `transform.apply_patterns.*` ops: pattern sets named inside apply_patterns."""


__all__ = [
    "MatchOpInterface",
    "PatternDescriptorOpInterface",
    "TransformOpInterface",
    "consumed_block_arguments",
    "handle_kind",
    "is_match_op",
]
