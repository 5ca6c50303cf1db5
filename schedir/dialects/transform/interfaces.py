"""What the transform interpreter needs to know about every transform op.

An op's handle effects follow upstream's `getEffects`: each operand is either *consumed*
(the payload it points to is invalidated for every other handle, as upstream's
`consumesHandle`) or only read (`onlyReadsHandle`); results are always produced. Whether
an op may see the same payload through two operands is its
`allows_repeated_handles` (upstream's `allowsRepeatedHandleOperands`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Operation, SSAValue


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


class MatchOpInterface:
    """Mixin of transform ops upstream marks `MatchOpInterface`: allowed in matchers.

    The body of a `foreach_match`/`collect_matching` matcher may only hold such ops
    (upstream's `matchBlock`). Ops defined before this mixin are listed by name in
    `UPSTREAM_MATCH_OPS` instead.
    """


UPSTREAM_MATCH_OPS: frozenset[str] = frozenset(
    {
        # Checked against iree-opt 3.13 (LLVM 24): these run inside a matcher; get_result,
        # cast, split_handle, select, annotate, structured.match and
        # get_consumers_of_result are rejected there.
        "transform.collect_matching",
        "transform.get_defining_op",
        "transform.get_operand",
        "transform.get_parent_op",
        "transform.get_producer_of_operand",
        "transform.get_type",
        "transform.include",
        "transform.merge_handles",
        "transform.num_associations",
        "transform.param.constant",
        "transform.print",
    }
)


def is_match_op(op: Operation) -> bool:
    """Upstream's `isa<MatchOpInterface>(op)`: may `op` appear in a matcher's body."""
    return (
        isinstance(op, MatchOpInterface)
        or op.name in UPSTREAM_MATCH_OPS
        or op.name.startswith("transform.match.")
    )


class PatternDescriptorOpInterface:
    """Mixin of `transform.apply_patterns.*` ops: pattern sets named inside apply_patterns."""


__all__ = [
    "UPSTREAM_MATCH_OPS",
    "MatchOpInterface",
    "PatternDescriptorOpInterface",
    "TransformOpInterface",
    "is_match_op",
]
